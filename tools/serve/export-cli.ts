/**
 * npm run export -- [--checkpoint FILE] [--lora ADAPTER] [--format minimind|hf|gguf] [--dtype f32|f16] --out DIR
 *
 * Writes a MiniMindTS checkpoint (with a LoRA adapter merged in by lesson 18's mergeLora, when
 * --lora names one) for a runtime outside the course:
 *   minimind (default)  MiniMind's own class (scripts/convert_model.py:16-36). In Python:
 *     config = json.load(open("DIR/config.json")); model = MiniMindForCausalLM(MiniMindConfig(**config))
 *     model.load_state_dict(safetensors.torch.load_file("DIR/model.safetensors"))
 *   hf    the Qwen3 layout MiniMind's convert_torch2transformers writes (convert_model.py:40-96):
 *         AutoModelForCausalLM.from_pretrained("DIR"), vLLM, TRL
 *   gguf  DIR/<name>.gguf for llama.cpp (llama-cli -m DIR/<name>.gguf), Ollama, LM Studio
 */
import { existsSync, statSync } from "node:fs";
import { describeRun } from "../../lib/resolver.js";
import { EXPORT_FORMATS, exportModel, type ExportFormat } from "../../lib/serve/export.js";
import { TINY_CHAT_CHECKPOINT } from "../../lib/serve/checkpoints.js";
import { parseOptions, runCommand, UsageError } from "../loop/cli-support.js";
import { shown } from "../loop/locations.js";

const USAGE =
  "usage: npm run export -- [--checkpoint FILE.safetensors] [--lora ADAPTER.safetensors] [--format minimind|hf|gguf] [--dtype f32|f16] [--use-reference lesson-18|all] --out DIR";

async function main(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, {
    checkpoint: { type: "string", default: TINY_CHAT_CHECKPOINT },
    lora: { type: "string" },
    format: { type: "string", default: "minimind" },
    dtype: { type: "string" },
    "use-reference": { type: "string", multiple: true, default: [] },
    out: { type: "string" },
  });
  if (!values.out) throw new UsageError("--out DIR is required");
  const format = values.format as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(", ")}, got ${values.format}`);
  if (values.dtype !== undefined && format !== "gguf") throw new UsageError("--dtype applies to --format gguf only (the other layouts are float32)");
  if (values.dtype !== undefined && values.dtype !== "f32" && values.dtype !== "f16") throw new UsageError(`--dtype must be f32 or f16, got ${values.dtype}`);
  for (const [flag, file] of [["--checkpoint", values.checkpoint], ["--lora", values.lora]] as const) {
    if (file !== undefined && (!existsSync(file) || !statSync(file).isFile())) throw new UsageError(`no ${flag} file at ${file}`);
  }
  if (existsSync(values.out) && !statSync(values.out).isDirectory()) {
    console.error(`${values.out} exists and is not a folder`);
    return 2;
  }
  try {
    const r = await exportModel(values.checkpoint!, values.out, {
      format,
      lora: values.lora,
      dtype: values.dtype as "f32" | "f16" | undefined,
      useReference: values["use-reference"]!.flatMap((v) => v.split(",")),
    });
    if (r.choices.length > 0) for (const line of describeRun(r.choices)) console.log(line);
    const merged = values.lora ? ` + LoRA ${shown(values.lora)}` : "";
    console.log(`Exported ${shown(values.checkpoint!)}${merged} as ${format} (${(r.parameters / 1e6).toFixed(2)}M parameters, hidden ${r.config.hiddenSize}, ${r.config.numHiddenLayers} layers):`);
    for (const f of r.files) console.log(`  ${shown(f)}`);
    return 0;
  } catch (err) {
    console.error(`export failed: ${(err as Error).message}`);
    return 1;
  }
}

await runCommand(USAGE, () => main(process.argv.slice(2)), { lessonFunctions: true });
