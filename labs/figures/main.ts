/**
 * npm run lab figures [-- name-filter]
 *
 * Draws every lesson's figures (labs/lesson-NN/figure.ts) and writes them to lessons/figures/,
 * where the lessons embed them. The files are committed; test/figures.test.ts checks that
 * regenerating them gives the same bytes.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../grader/engine/paths.js";
import type { LabContext } from "../lab.js";
import { FIGURES } from "./index.js";

export const FIGURES_DIR = join(ROOT, "lessons", "figures");

export default async function main(ctx: LabContext): Promise<void> {
  const filter = ctx.args.find((a) => !a.startsWith("-"));
  mkdirSync(FIGURES_DIR, { recursive: true });
  let changed = 0;
  for (const fig of FIGURES) {
    if (filter && !fig.file.includes(filter)) continue;
    const svg = await fig.render();
    const file = join(FIGURES_DIR, fig.file);
    const same = existsSync(file) && readFileSync(file, "utf8") === svg;
    if (!same) {
      writeFileSync(file, svg);
      changed++;
    }
    const uses = fig.uses?.length ? `  (runs ${fig.uses.join(", ")})` : "";
    console.log(`${same ? "unchanged" : "written  "} ${ctx.show(file)}${uses}`);
  }
  console.log(`${changed} figure(s) written to ${ctx.show(FIGURES_DIR)}`);
}
