/**
 * node:fs for the browser bundles of tools/browser/: reads of the data files a lesson's cases need
 * (its fixtures without their expected values, tokenizer files), served from the table the page's
 * worker installs before it loads the lesson's cases (`installFiles`). Writing is refused; a file
 * that is not in the table does not exist.
 */
const TABLE_KEY = "__COURSE_FILES__";

type Table = Record<string, string>;

function table(): Table {
  return ((globalThis as Record<string, unknown>)[TABLE_KEY] as Table | undefined) ?? {};
}

/** Installs `files` (absolute path → text) as what the shim's reads see. */
export function installFiles(files: Table): void {
  (globalThis as Record<string, unknown>)[TABLE_KEY] = { ...table(), ...files };
}

function missing(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file in the browser's data table, open '${path}'`), { code: "ENOENT" });
}

export function existsSync(path: string): boolean {
  const p = String(path);
  return p in table() || Object.keys(table()).some((f) => f.startsWith(`${p.replace(/\/$/, "")}/`));
}

export function readFileSync(path: string, options?: string | { encoding?: string }): string | Uint8Array {
  const text = table()[String(path)];
  if (text === undefined) throw missing(String(path));
  const encoding = typeof options === "string" ? options : options?.encoding;
  return encoding ? text : new TextEncoder().encode(text);
}

export function readdirSync(path: string): string[] {
  const dir = `${String(path).replace(/\/$/, "")}/`;
  const names = new Set<string>();
  for (const f of Object.keys(table())) if (f.startsWith(dir)) names.add(f.slice(dir.length).split("/")[0]);
  if (names.size === 0) throw missing(String(path));
  return [...names].sort();
}

function refused(): never {
  throw new Error("the browser's grading has no file system to write to");
}

export const writeFileSync = refused;
export const mkdirSync = refused;
export const rmSync = refused;
export const copyFileSync = refused;
export const renameSync = refused;

export default { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync, rmSync, copyFileSync, renameSync, installFiles };
