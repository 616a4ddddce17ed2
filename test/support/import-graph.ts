/**
 * The course's import graph, read with the TypeScript compiler's parser: every relative import of
 * every .ts file under the given folders (static `import`/`export … from`, and `import("…")` with a
 * literal path, and `import("…")` types), resolved to the file it names, each marked whether it
 * is type-only (`import type`, `export type`: erased when the TypeScript is).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

export interface ImportEdge {
  /** Importing and imported files, relative to the root, with `/`. */
  from: string;
  to: string;
  /** 1-based line of the import. */
  line: number;
  typeOnly: boolean;
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) return [];
    return statSync(full).isDirectory() ? tsFiles(full) : name.endsWith(".ts") && !name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The .ts file a relative specifier of `file` names (`./x.js` is `./x.ts`), if it exists. */
function resolveSpecifier(file: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = resolve(dirname(file), spec);
  return [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")].find((c) => c.endsWith(".ts") && existsSync(c));
}

/** Every relative import edge of the .ts files under `folders` (relative to `root`). */
export function importEdges(root: string, folders: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of folders.flatMap((f) => tsFiles(join(root, f)))) {
    const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const add = (spec: ts.Expression | undefined, node: ts.Node, typeOnly: boolean) => {
      if (!spec || !ts.isStringLiteralLike(spec)) return;
      const target = resolveSpecifier(file, spec.text);
      if (!target) return;
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      edges.push({ from: relative(root, file).split("\\").join("/"), to: relative(root, target).split("\\").join("/"), line, typeOnly });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        const c = node.importClause;
        const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)));
        add(node.moduleSpecifier, node, typeOnly);
      } else if (ts.isExportDeclaration(node)) {
        add(node.moduleSpecifier, node, node.isTypeOnly);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        add(node.arguments[0], node, false);
      } else if (ts.isImportTypeNode(node)) {
        const arg = node.argument;
        if (ts.isLiteralTypeNode(arg)) add(arg.literal as ts.Expression, node, true);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return edges;
}

/**
 * The import cycles among `edges`, type-only ones included: each strongly connected group of two
 * or more files, or a file importing itself, as its sorted file list.
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) (next.get(e.from) ?? next.set(e.from, new Set()).get(e.from)!).add(e.to);
  // Tarjan's strongly connected components, iterative so that a deep chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; children: string[]; i: number }> = [];
    const open = (node: string) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, children: [...(next.get(node) ?? [])], i: 0 });
    };
    open(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      if (top.i < top.children.length) {
        const child = top.children[top.i++];
        if (!index.has(child)) open(child);
        else if (onStack.has(child)) low.set(top.node, Math.min(low.get(top.node)!, index.get(child)!));
        continue;
      }
      work.pop();
      if (work.length > 0) low.set(work[work.length - 1].node, Math.min(low.get(work[work.length - 1].node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          group.push(n);
        } while (n !== top.node);
        if (group.length > 1 || next.get(top.node)?.has(top.node)) groups.push(group.sort());
      }
    }
  }
  return groups.sort((a, b) => a[0].localeCompare(b[0]));
}
