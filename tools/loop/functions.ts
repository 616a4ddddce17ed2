/**
 * Top-level declarations of a TypeScript file, found with the TypeScript parser (not with regular
 * expressions, which braces inside strings and comments would fool): the site lists exercise
 * signatures with it, `--compare` shows function bodies, and `npm run reset` swaps one body.
 */
import ts from "typescript";

export interface FunctionInfo {
  name: string;
  exported: boolean;
  /** The doc comment (`/** … *\/`) right above it, as written; "" when there is none. */
  doc: string;
  /** From `export function` to the end of the return type, as written. */
  signature: string;
  /** The signature in three parts: up to "(", each parameter as written, and from ")" on. */
  head: string;
  parameters: string[];
  tail: string;
  /** Offsets of the whole declaration (doc comment excluded) in the source. */
  start: number;
  end: number;
  /** Offsets of the body block, braces included. */
  bodyStart: number;
  bodyEnd: number;
}

export interface TypeInfo {
  name: string;
  /** The declaration with its doc comment, as written. */
  text: string;
}

function parse(source: string, fileName: string): ts.SourceFile {
  return ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

function isExported(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** The last `/** … *\/` comment directly before `node`, or "". */
function docComment(source: string, node: ts.Node): string {
  const ranges = ts.getLeadingCommentRanges(source, node.getFullStart()) ?? [];
  const last = ranges[ranges.length - 1];
  const text = last ? source.slice(last.pos, last.end) : "";
  return text.startsWith("/**") ? text : "";
}

/** Every top-level function declaration that has a body, in source order. */
export function functionsIn(source: string, fileName = "file.ts"): FunctionInfo[] {
  const file = parse(source, fileName);
  const out: FunctionInfo[] = [];
  for (const node of file.statements) {
    if (!ts.isFunctionDeclaration(node) || !node.name || !node.body) continue;
    const start = node.getStart(file);
    const bodyStart = node.body.getStart(file);
    const params = node.parameters;
    out.push({
      name: node.name.text,
      exported: isExported(node),
      doc: docComment(source, node),
      signature: source.slice(start, bodyStart).trimEnd(),
      head: source.slice(start, params.pos - 1),
      parameters: params.map((p) => p.getText(file)),
      tail: source.slice(params.end + 1, bodyStart).trimEnd(),
      start,
      end: node.end,
      bodyStart,
      bodyEnd: node.body.end,
    });
  }
  return out;
}

/** Every exported interface and type alias, with its doc comment. */
export function exportedTypesIn(source: string, fileName = "file.ts"): TypeInfo[] {
  const file = parse(source, fileName);
  return file.statements
    .filter((n): n is ts.InterfaceDeclaration | ts.TypeAliasDeclaration => (ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n)) && isExported(n))
    .map((n) => {
      const doc = docComment(source, n);
      return { name: n.name.text, text: `${doc ? `${doc}\n` : ""}${source.slice(n.getStart(file), n.end)}` };
    });
}

/** The first syntax error of `source` ("line 12: '}' expected"), or undefined when it parses. */
export function syntaxError(source: string, fileName = "file.ts"): string | undefined {
  const { diagnostics } = ts.transpileModule(source, { fileName, reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
  const first = diagnostics?.[0];
  if (!first) return undefined;
  const line = first.file && first.start !== undefined ? first.file.getLineAndCharacterOfPosition(first.start).line + 1 : undefined;
  return `${line ? `line ${line}: ` : ""}${ts.flattenDiagnosticMessageText(first.messageText, " ")}`;
}

/** The lines inside a body block `{ … }`, without the braces, blank edges and common indentation. */
export function bodyLines(source: string, fn: FunctionInfo): string[] {
  const inner = source.slice(fn.bodyStart + 1, fn.bodyEnd - 1).split("\n");
  while (inner.length > 0 && inner[0].trim() === "") inner.shift();
  while (inner.length > 0 && inner[inner.length - 1].trim() === "") inner.pop();
  const indent = Math.min(...inner.filter((l) => l.trim() !== "").map((l) => l.length - l.trimStart().length));
  return inner.map((l) => l.slice(Number.isFinite(indent) ? indent : 0).trimEnd());
}

/** `source` with the body of `fn` replaced by `body` (a block, braces included). */
export function replaceBody(source: string, fn: FunctionInfo, body: string): string {
  return source.slice(0, fn.bodyStart) + body + source.slice(fn.bodyEnd);
}
