/**
 * MiniMind's model file at the pinned commit, for tests that load an export in MiniMind's own
 * PyTorch code. Never committed: it is read from MINIMIND_SRC (a MiniMind checkout), or from
 * .cache/minimind-d65ef2c/ (git-ignored), which is filled by downloading the file at the pinned
 * commit when the network allows.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../grader/engine/paths.js";

export const MINIMIND_COMMIT = "d65ef2c00ebc6082f9df11541e1b191655eddb00";
const CACHE = join(ROOT, ".cache", `minimind-${MINIMIND_COMMIT.slice(0, 7)}`);
const URL_OF = (path: string) => `https://raw.githubusercontent.com/jingyaogong/minimind/${MINIMIND_COMMIT}/${path}`;

/** A folder holding model/model_minimind.py, or why there is none. */
export async function minimindSource(): Promise<{ dir: string } | { missing: string }> {
  const env = process.env.MINIMIND_SRC;
  if (env) return existsSync(join(env, "model", "model_minimind.py")) ? { dir: env } : { missing: `MINIMIND_SRC=${env} has no model/model_minimind.py` };
  const file = join(CACHE, "model", "model_minimind.py");
  if (existsSync(file)) return { dir: CACHE };
  try {
    const r = await fetch(URL_OF("model/model_minimind.py"), { signal: AbortSignal.timeout(10_000) });
    if (!r.ok) return { missing: `downloading model/model_minimind.py at ${MINIMIND_COMMIT.slice(0, 7)} answered ${r.status}` };
    mkdirSync(join(CACHE, "model"), { recursive: true });
    writeFileSync(join(CACHE, "model", "__init__.py"), "");
    writeFileSync(file, await r.text());
    return { dir: CACHE };
  } catch (err) {
    return { missing: `no network to download MiniMind's model file (${(err as Error).message}); set MINIMIND_SRC to a MiniMind checkout at ${MINIMIND_COMMIT.slice(0, 7)}` };
  }
}
