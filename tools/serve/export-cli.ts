/**
 * npm run export -- [--checkpoint FILE] --out DIR
 *
 * Writes a MiniMindTS checkpoint as a Hugging Face-style folder that MiniMind's PyTorch code loads
 * (MiniMind's scripts/convert_model.py): config.json, model.safetensors, tokenizer.json and
 * tokenizer_config.json. In Python:
 *   config = json.load(open("DIR/config.json")); model = MiniMindForCausalLM(MiniMindConfig(**config))
 *   model.load_state_dict(safetensors.torch.load_file("DIR/model.safetensors"))
 */
import { existsSync, statSync } from "node:fs";
import { exportHf } from "../../lib/serve/export.js";
import { TINY_CHAT_CHECKPOINT } from "../../lib/serve/checkpoints.js";
import { parseOptions, runCommand, UsageError } from "../loop/cli-support.js";
import { shown } from "../loop/locations.js";

const USAGE = "usage: npm run export -- [--checkpoint FILE.safetensors] --out DIR";

async function main(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { checkpoint: { type: "string", default: TINY_CHAT_CHECKPOINT }, out: { type: "string" } });
  if (!values.out) throw new UsageError("--out DIR is required");
  if (!existsSync(values.checkpoint!) || !statSync(values.checkpoint!).isFile()) throw new UsageError(`no checkpoint file at ${values.checkpoint}`);
  if (existsSync(values.out) && !statSync(values.out).isDirectory()) {
    console.error(`${values.out} exists and is not a folder`);
    return 2;
  }
  try {
    const r = await exportHf(values.checkpoint!, values.out);
    console.log(`Exported ${shown(values.checkpoint!)} (${(r.parameters / 1e6).toFixed(2)}M parameters, hidden ${r.config.hiddenSize}, ${r.config.numHiddenLayers} layers):`);
    for (const f of r.files) console.log(`  ${shown(f)}`);
    return 0;
  } catch (err) {
    console.error(`export failed: ${(err as Error).message}`);
    return 1;
  }
}

await runCommand(USAGE, () => main(process.argv.slice(2)));
