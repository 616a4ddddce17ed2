/**
 * node:path for the browser bundles of tools/browser/: the POSIX functions the grader's modules
 * call (join, resolve, dirname, relative, …), on "/"-rooted paths. The page has no current folder:
 * `resolve` treats "/" as one.
 */
export const sep = "/";
export const delimiter = ":";

/** `path` with "." and ".." segments folded and repeated slashes collapsed (POSIX normalize). */
export function normalize(path: string): string {
  if (path === "") return ".";
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
    } else out.push(part);
  }
  const body = out.join("/");
  const trailing = path.endsWith("/") && body !== "" ? "/" : "";
  return absolute ? `/${body}${trailing}` : body === "" ? "." : `${body}${trailing}`;
}

/** The parts joined with "/" and normalized. */
export function join(...parts: string[]): string {
  const kept = parts.filter((p) => p !== "");
  return kept.length === 0 ? "." : normalize(kept.join("/"));
}

/** The absolute path the parts name, read right to left until one is absolute ("/" otherwise). */
export function resolve(...parts: string[]): string {
  let out = "";
  for (let i = parts.length - 1; i >= 0 && !out.startsWith("/"); i--) if (parts[i] !== "") out = out === "" ? parts[i] : `${parts[i]}/${out}`;
  const n = normalize(`/${out.replace(/^\/+/, "")}`);
  return n.length > 1 && n.endsWith("/") ? n.slice(0, -1) : n;
}

export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

export function dirname(path: string): string {
  const n = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const i = n.lastIndexOf("/");
  if (i < 0) return ".";
  return i === 0 ? "/" : n.slice(0, i);
}

export function basename(path: string, ext?: string): string {
  const b = path.replace(/\/+$/, "").split("/").pop() ?? "";
  return ext && b.endsWith(ext) && b !== ext ? b.slice(0, -ext.length) : b;
}

export function extname(path: string): string {
  const b = basename(path);
  const i = b.lastIndexOf(".");
  return i <= 0 ? "" : b.slice(i);
}

/** The path from `from` to `to`, both resolved first. */
export function relative(from: string, to: string): string {
  const a = resolve(from).split("/").filter(Boolean);
  const b = resolve(to).split("/").filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/");
}

export const posix = { sep, delimiter, normalize, join, resolve, isAbsolute, dirname, basename, extname, relative };
export default posix;
