/**
 * Layers you can see: lib/ (the ground floor) imports nothing from grader/, tools/ or labs/, and
 * no module imports itself back through others (type-only imports included: a cycle of types is
 * still two modules that cannot be read one without the other). The graph is read with the
 * TypeScript parser (test/support/import-graph.ts); a failure names each offending import.
 */
import { describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { importCycles, importEdges, type ImportEdge } from "./support/import-graph.js";

const FOLDERS = ["lib", "grader", "tools", "labs", "solutions", "exercises", "test"];
const edges = importEdges(ROOT, FOLDERS);
const upward = (e: ImportEdge) => e.from.startsWith("lib/") && /^(grader|tools|labs)\//.test(e.to);
const show = (e: ImportEdge) => `${e.from}:${e.line} imports ${e.to}`;

describe("layers", () => {
  it("reads the course's imports (static, re-exports, dynamic and type-only)", () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges.some((e) => e.from === "lib/resolver.ts" && e.to === "lib/stubs.ts" && !e.typeOnly)).toBe(true);
    expect(edges.some((e) => e.from === "grader/engine/load.ts" && e.to === "grader/engine/types.ts" && e.typeOnly)).toBe(true);
    expect(edges.some((e) => e.from === "grader/engine/load.ts" && e.to === "grader/engine/paths.ts")).toBe(true);
  });

  it("lib/ imports nothing from grader/, tools/ or labs/", () => {
    expect(edges.filter(upward).map(show)).toEqual([]);
  });

  it("has no import cycles", () => {
    expect(importCycles(edges).map((c) => c.join(" → "))).toEqual([]);
  });

  it("the checks can fail: an upward import and a cycle are found and named", () => {
    const made: ImportEdge[] = [
      { from: "lib/a.ts", to: "tools/b.ts", line: 3, typeOnly: false },
      { from: "tools/b.ts", to: "tools/c.ts", line: 1, typeOnly: true },
      { from: "tools/c.ts", to: "tools/b.ts", line: 2, typeOnly: false },
    ];
    expect(made.filter(upward).map(show)).toEqual(["lib/a.ts:3 imports tools/b.ts"]);
    expect(importCycles(made)).toEqual([["tools/b.ts", "tools/c.ts"]]);
  });
});
