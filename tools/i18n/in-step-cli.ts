/**
 * `node --import tsx tools/i18n/in-step-cli.ts [files…]`: checks that each Chinese lesson
 * (lessons/zh/NN-slug.md; an English lesson given instead stands for its Chinese version) is in
 * step with its English twin (lessons/NN-slug.md), and prints every difference, or "<file>: in
 * step". With no files, checks every lessons/zh/*.md. Exit 1 when any differs, a Chinese lesson
 * has no English twin, or a named file does not exist.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compareLessons } from "./in-step.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The Chinese file and its English twin for a path naming either version of a lesson. */
export function lessonPair(file: string): { zh: string; en: string } {
  const path = resolve(file);
  if (basename(dirname(path)) === "zh") return { zh: path, en: join(dirname(dirname(path)), basename(path)) };
  return { zh: join(dirname(path), "zh", basename(path)), en: path };
}

/** Checks the named files (all of lessons/zh/*.md when none); returns the lines to print and whether all are in step. */
export function checkFiles(files: readonly string[]): { lines: string[]; ok: boolean } {
  const zhDir = join(ROOT, "lessons", "zh");
  const targets = files.length > 0 ? files : existsSync(zhDir) ? readdirSync(zhDir).filter((f) => f.endsWith(".md")).sort().map((f) => join(zhDir, f)) : [];
  const lines: string[] = [];
  let ok = true;
  if (targets.length === 0) lines.push("no Chinese lessons found (lessons/zh/*.md)");
  for (const file of targets) {
    const { zh, en } = lessonPair(file);
    const name = relative(process.cwd(), zh) || zh;
    if (!existsSync(zh)) {
      lines.push(`${name}: no such file`);
      ok = false;
      continue;
    }
    if (!existsSync(en)) {
      lines.push(`${name}: no English twin (${relative(process.cwd(), en)} does not exist)`);
      ok = false;
      continue;
    }
    const differences = compareLessons(readFileSync(en, "utf8"), readFileSync(zh, "utf8"));
    if (differences.length === 0) lines.push(`${name}: in step`);
    else {
      ok = false;
      lines.push(`${name}: ${differences.length} difference${differences.length === 1 ? "" : "s"} from ${relative(process.cwd(), en)}`);
      for (const d of differences) lines.push(`  - ${d}`);
    }
  }
  return { lines, ok };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { lines, ok } = checkFiles(process.argv.slice(2));
    console.log(lines.join("\n"));
    process.exitCode = ok ? 0 : 1;
  } catch (err) {
    console.error(`in-step: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
