/**
 * npm run capstone [-- --quick] [--out DIR] [--with dpo,agent] [--fresh] [--use-reference L]
 *
 * A thin entry over lib/capstone/run.ts: tokenizer → pretrain → SFT → GRPO (optionally DPO and the
 * agent), resumable stage by stage, then capstone/report.html. Exit codes: 0 every stage ran or was
 * reused, 1 a stage failed (the report says which), 2 usage, 130 stopped by Ctrl-C (143: SIGTERM)
 * after the running stage saved its checkpoint and the report was written.
 */
import { join, resolve } from "node:path";
import { BackendError, initBackend } from "../../lib/backend.js";
import { ROOT } from "../../grader/engine/paths.js";
import { parseOptions, runCommand, UsageError } from "../loop/cli-support.js";
import { ensurePretrainCorpus } from "../data/ensure.js";

const USAGE = `usage: npm run capstone -- [--quick] [--out DIR] [--with dpo,agent] [--fresh] [--use-reference L]
  --quick            the micro model and a few steps a stage (a few minutes; what CI runs)
  --out DIR          where stages and report.html go (default capstone/, or capstone/quick with --quick)
  --with S           add optional stages: dpo, agent
  --fresh            rerun every stage (default: reuse a stage whose run.json and weights exist)
  --use-reference L  run the reference for these lessons (lesson-14,lesson-26 or all)`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, {
    quick: { type: "boolean" },
    out: { type: "string" },
    with: { type: "string" },
    fresh: { type: "boolean" },
    "use-reference": { type: "string", multiple: true },
  });
  const extra = (values.with ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
  const unknown = extra.filter((s) => s !== "dpo" && s !== "agent");
  if (unknown.length > 0) throw new UsageError(`--with: unknown stage ${unknown.join(", ")} (have dpo, agent)`);
  try {
    await initBackend("wasm");
  } catch (err) {
    if (err instanceof BackendError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const { runCapstone } = await import("../../lib/capstone/run.js");
  const mode = values.quick ? "quick" : "full";
  // The tokenizer and pretraining stages read the full corpus: a fresh clone generates it first.
  await ensurePretrainCorpus();
  const { failed, interrupted } = await runCapstone({
    mode,
    outDir: resolve(values.out ?? join(ROOT, "capstone", ...(values.quick ? ["quick"] : []))),
    with: extra,
    fresh: values.fresh === true,
    useReference: (values["use-reference"] ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== ""),
  });
  if (interrupted) return interrupted === "SIGINT" ? 130 : 143;
  if (failed.length > 0) console.error(`npm run capstone: ${failed.join(", ")} failed; the report shows what ran`);
  return failed.length > 0 ? 1 : 0;
}

await runCommand(USAGE, () => main(process.argv.slice(2)), { lessonFunctions: true });
