/**
 * The installed dependency tree agrees with the Node versions the course claims (package.json
 * "engines"): no package below node_modules/ declares an engines.node range that excludes the
 * oldest Node the course supports, or the Node running the tests. npm prints EBADENGINE for such a
 * package (commander 15, pulled in by katex, once did); this test names it instead.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";

interface Manifest {
  name?: string;
  version?: string;
  engines?: { node?: string };
}

/** Every installed package's manifest, nested node_modules/ folders included. */
function installed(dir: string, out: Array<{ path: string; manifest: Manifest }> = []): Array<{ path: string; manifest: Manifest }> {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    if (name.startsWith("@")) {
      installed(path, out);
      continue;
    }
    const file = join(path, "package.json");
    if (existsSync(file)) out.push({ path, manifest: JSON.parse(readFileSync(file, "utf8")) as Manifest });
    installed(join(path, "node_modules"), out);
  }
  return out;
}

describe("the dependency tree", () => {
  const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;
  const claimed = own.engines?.node ?? "";
  const oldest = semver.minVersion(claimed)?.version;

  it("claims a Node 20 line in package.json engines", () => {
    expect(oldest, claimed).toBeDefined();
    expect(semver.major(oldest!)).toBe(20);
  });

  it("holds no package whose engines.node excludes the oldest supported Node or the running one", () => {
    const packages = installed(join(ROOT, "node_modules"));
    expect(packages.length).toBeGreaterThan(50);
    const versions = [oldest!, process.versions.node];
    const excluding = packages
      .filter(({ manifest }) => typeof manifest.engines?.node === "string" && semver.validRange(manifest.engines.node))
      .flatMap(({ path, manifest }) =>
        versions.filter((v) => !semver.satisfies(v, manifest.engines!.node!)).map((v) => `${manifest.name}@${manifest.version} (${path.slice(ROOT.length + 1)}) needs node ${manifest.engines!.node}, not ${v}`),
      );
    expect(excluding).toEqual([]);
  });
});
