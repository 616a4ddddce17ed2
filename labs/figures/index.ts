/**
 * Every lesson figure, in lesson order: the `figures` of each labs/lesson-N/figure.ts, found by
 * folder (a new lesson's figure file needs no line here). `npm run lab figures` writes them to
 * lessons/figures/.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Figure } from "./figure.js";

const LABS = dirname(dirname(fileURLToPath(import.meta.url)));

const files = readdirSync(LABS)
  .filter((d) => /^lesson-\d+$/.test(d) && existsSync(join(LABS, d, "figure.ts")))
  .sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)))
  .map((d) => join(LABS, d, "figure.ts"));

export const FIGURES: Figure[] = (await Promise.all(files.map(async (f) => ((await import(pathToFileURL(f).href)) as { figures: Figure[] }).figures))).flat();
