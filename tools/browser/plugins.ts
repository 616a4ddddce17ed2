/**
 * esbuild plugins for the browser bundles (build.ts): Node's built-in modules replaced by the small
 * stand-ins of shims/, `import.meta.url` made the file's own course path (so modules that find the
 * course root from it get "/"), grader/engine/deps.ts replaced by its recording (as a student
 * edition's is), lib/resolver.ts by the worker's lending stand-in, and a guard that fails a lesson's bundle when its cases would carry the reference
 * solution or a known mistake's code into the page.
 */
import type { Plugin } from "esbuild";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "../../grader/engine/paths.js";
import { MUTANTS_NAME } from "../../grader/engine/paths.js";

const SHIMS = join(ROOT, "tools", "browser", "shims");

/** Node built-ins the grader's modules use, and their browser stand-ins. */
const NODE_SHIMS: Record<string, string> = {
  fs: join(SHIMS, "fs.ts"),
  path: join(SHIMS, "path.ts"),
  url: join(SHIMS, "url.ts"),
  crypto: join(SHIMS, "crypto.ts"),
};

/** The injected stand-in for Node's global `Buffer`. */
export const BUFFER_SHIM = join(SHIMS, "buffer.ts");

/** node:fs, node:path, node:url and node:crypto → shims/; any other Node built-in fails the bundle, naming it. */
export function nodeShims(): Plugin {
  return {
    name: "course-node-shims",
    setup(b) {
      b.onResolve({ filter: /^(node:)?(fs|path|url|crypto|child_process|module|os|worker_threads|process|util|stream|events|zlib|http|net)$/ }, (args) => {
        // Packages say for themselves what they need in a browser (their package.json's "browser" field).
        if (args.importer.includes("/node_modules/")) return undefined;
        const name = args.path.replace(/^node:/, "");
        const shim = NODE_SHIMS[name];
        if (shim) return { path: shim };
        return { errors: [{ text: `${relative(ROOT, args.importer)} imports node:${name}, which has no browser stand-in` }] };
      });
    },
  };
}

/** Replaces `import.meta.url` in the course's own files with `file:///<path from the course root>`. */
export function courseImportMeta(): Plugin {
  return {
    name: "course-import-meta",
    setup(b) {
      b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
        if (args.path.includes("/node_modules/")) return undefined;
        const text = readFileSync(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        return { contents: text.split("import.meta.url").join(JSON.stringify(`file:///${relative(ROOT, args.path)}`)), loader: "ts" };
      });
    },
  };
}

/** Why a module may not go into the page: the reference solution or a known mistake's code; else undefined. */
export function notForThePage(file: string): string | undefined {
  const rel = relative(ROOT, file);
  if (rel.startsWith("solutions/")) return `the cases import the reference solution (${rel}) at run time`;
  if (/^grader\/lesson-\d+\//.test(rel) && MUTANTS_NAME.test(rel.split("/").pop()!)) return `the cases import the known mistakes (${rel})`;
  return undefined;
}

/** The borrowed functions graders call (grader/engine/deps.ts) answered from `source`, replay.ts's replaySource of a recording. */
export function replayedDeps(source: string): Plugin {
  const deps = join(ROOT, "grader", "engine", "deps.ts");
  return {
    name: "course-replayed-deps",
    setup(b) {
      b.onResolve({ filter: /\/deps\.js$/ }, async (args) => {
        if (args.pluginData === "replayed-deps") return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "replayed-deps" });
        return r.path === deps ? { path: deps, namespace: "course-replayed-deps" } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: "course-replayed-deps" }, () => ({ contents: source, loader: "ts", resolveDir: join(ROOT, "grader", "engine") }));
    },
  };
}

/** The worker's stand-in for lib/resolver.ts (shims/resolver.ts), for every importer but the stand-in itself. */
export function workerResolver(): Plugin {
  const real = join(ROOT, "lib", "resolver.ts");
  const standIn = join(SHIMS, "resolver.ts");
  return {
    name: "course-lending-resolver",
    setup(b) {
      b.onResolve({ filter: /\/resolver\.js$/ }, async (args) => {
        if (args.pluginData === "lending-resolver" || args.importer === standIn) return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "lending-resolver" });
        return r.path === real ? { path: standIn } : undefined;
      });
    },
  };
}

/** Fails the bundle when a module that must not reach the page is imported (notForThePage), naming the chain's last importer. */
export function pageGuard(): Plugin {
  return {
    name: "course-page-guard",
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === "page-guard" || args.kind === "entry-point" || args.namespace !== "file") return undefined;
        if (!args.path.startsWith(".") && !args.path.startsWith("/")) return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "page-guard" });
        if (r.errors.length > 0 || !r.path) return undefined;
        const why = notForThePage(r.path);
        return why ? { errors: [{ text: `${why} (imported by ${relative(ROOT, args.importer)})` }] } : undefined;
      });
    },
  };
}
