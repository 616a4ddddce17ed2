/**
 * Stack frames in the learner's own lines: the worker evaluates compiled files (compile.ts writes
 * each with an inline source map), so a thrown error's frames name positions in the compiled text.
 * `installSourceMappedStacks` makes V8 (Chromium's engine) write frames of those files at their
 * source position instead ("file:///exercises/lesson-3/sampling.ts:57:11"), and frames of the lib/
 * code bundled into them at lib/'s, so grader/engine/location.ts finds the learner's line as in Node.
 */

/** Per generated line, its segments: [generated column, source index, source line, source column], sorted. */
type Lines = Array<Array<[number, number, number, number]>>;

interface Decoded {
  sources: string[];
  lines: Lines;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The numbers of one Base64 VLQ segment. */
function vlq(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/** A source map (version 3) decoded into line tables. */
export function decodeSourceMap(map: { sources: string[]; mappings: string }): Decoded {
  const lines: Lines = [];
  let src = 0;
  let srcLine = 0;
  let srcCol = 0;
  for (const line of map.mappings.split(";")) {
    const segs: Lines[number] = [];
    let col = 0;
    for (const s of line.split(",")) {
      if (s === "") continue;
      const v = vlq(s);
      col += v[0];
      if (v.length >= 4) {
        src += v[1];
        srcLine += v[2];
        srcCol += v[3];
        segs.push([col, src, srcLine, srcCol]);
      }
    }
    lines.push(segs);
  }
  return { sources: map.sources, lines };
}

/** The inline source map at the end of compiled text, decoded; undefined when there is none. */
export function inlineSourceMap(code: string): Decoded | undefined {
  const m = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/.exec(code);
  if (!m) return undefined;
  try {
    const bytes = Uint8Array.from(atob(m[1]), (c) => c.charCodeAt(0));
    return decodeSourceMap(JSON.parse(new TextDecoder().decode(bytes)) as { sources: string[]; mappings: string });
  } catch {
    return undefined;
  }
}

/** The source position of a generated one (1-based line and column in, 1-based out). */
export function originalPosition(d: Decoded, line: number, column: number): { source: string; line: number; column: number } | undefined {
  const segs = d.lines[line - 1];
  if (!segs || segs.length === 0) return undefined;
  let best = segs[0];
  for (const s of segs) {
    if (s[0] <= column - 1) best = s;
    else break;
  }
  return { source: d.sources[best[1]], line: best[2] + 1, column: best[3] + 1 };
}

interface CallSite {
  getFileName(): string | null | undefined;
  /** Evaluated code's `//# sourceURL` (getFileName is empty for it). */
  getScriptNameOrSourceURL?(): string | null | undefined;
  getLineNumber(): number | null;
  getColumnNumber(): number | null;
  getFunctionName(): string | null;
  toString(): string;
}

const maps = new Map<string, Decoded>();

/** Registers the compiled text evaluated as `url` (its frames are then mapped). */
export function registerCompiled(url: string, code: string): void {
  const d = inlineSourceMap(code);
  if (d) maps.set(url, d);
}

/** The file URL a source of the compiled text names ("course-virtual:/exercises/…" → "file:///exercises/…"). */
function sourceUrl(source: string): string {
  return `file://${source.replace(/^[\w-]+:(?=\/)/, "").replace(/^(\.\.\/)+/, "/")}`;
}

/** Makes V8 write frames of registered files at their source positions (Error.prepareStackTrace). */
export function installSourceMappedStacks(): void {
  const E = Error as unknown as { prepareStackTrace?: (err: Error, frames: CallSite[]) => string };
  E.prepareStackTrace = (err, frames) => {
    const head = (() => {
      try {
        return String(err);
      } catch {
        return "Error";
      }
    })();
    const lines = frames.map((f) => {
      const file = f.getFileName() || f.getScriptNameOrSourceURL?.();
      const d = file ? maps.get(file) : undefined;
      const line = f.getLineNumber();
      const col = f.getColumnNumber();
      const pos = d && line !== null && col !== null ? originalPosition(d, line, col) : undefined;
      if (!pos) return `    at ${f.toString()}`;
      const name = f.getFunctionName();
      const where = `${sourceUrl(pos.source)}:${pos.line}:${pos.column}`;
      return name ? `    at ${name} (${where})` : `    at ${where}`;
    });
    return [head, ...lines].join("\n");
  };
}
