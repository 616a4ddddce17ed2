/**
 * Makes datasets/checkpoints/tiny-chat.safetensors, the small checkpoint `npm run serve` serves
 * when given none: MiniMindTS (hidden 64, 2 layers, byte tokens, 1024 positions) trained until it
 * repeats the exchanges of lib/serve/demo.ts word for word under greedy decoding. Labels cover the
 * reply and its <|im_end|> only (SFT's assistant-only loss); the prompt is what lesson 4's
 * renderChat renders, exactly as the server will render it.
 *
 * The training steps run in PyTorch (tools/serve/train_tiny_chat.py, MiniMind's forward as
 * grader/lesson-12/parity.py restates it): the tool exchanges are 730 byte tokens long, and one step
 * over them took more than 5 s on the wasm backend here against well under a second in PyTorch.
 * The weights start from this model's seeded initialisation and come back by their MiniMind names;
 * the check that the checkpoint repeats every exchange runs here, in MiniMindTS.
 *
 *   node --import tsx tools/serve/make-tiny-chat.ts [--steps 250] [--out FILE]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as tf from "../../lib/tf.js";
import { initBackend } from "../../lib/backend.js";
import { resolveFunction } from "../../lib/resolver.js";
import { miniMindConfig } from "../../lib/model/config.js";
import { MiniMindTS } from "../../lib/model/model.js";
import { loadModel, saveModel } from "../../lib/model/checkpoint.js";
import { BYTE_VOCAB_SIZE, EOS_ID, PAD_ID } from "../../lib/model/byte-tokenizer.js";
import { DEMO_EXCHANGES, DEMO_TOOLS } from "../../lib/serve/demo.js";
import { byteChatTokenizer } from "../../lib/serve/tokenizer.js";
import type { RenderChat } from "../../lib/serve/completion.js";
import { TINY_CHAT_CHECKPOINT } from "../../lib/serve/checkpoints.js";

const { values } = parseArgs({ options: { steps: { type: "string", default: "250" }, out: { type: "string", default: TINY_CHAT_CHECKPOINT } } });
const steps = Number(values.steps);
const backend = await initBackend("cpu");
const renderChat = (await resolveFunction<RenderChat>("lesson-4", "renderChat", { useReference: true })).fn;
const tokenizer = byteChatTokenizer();

const rows = DEMO_EXCHANGES.map((ex) => {
  const prompt = tokenizer.encode(renderChat([{ role: "user", content: ex.user }], { tools: ex.tools ? DEMO_TOOLS : null, addGenerationPrompt: true, openThinking: ex.thinking }));
  const reply = [...tokenizer.encode(ex.reply), EOS_ID];
  return { ids: [...prompt, ...reply], labels: [...prompt.map(() => -100), ...reply] };
});
const width = Math.max(...rows.map((r) => r.ids.length));

const config = miniMindConfig({ vocabSize: BYTE_VOCAB_SIZE, hiddenSize: 64, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, maxPositionEmbeddings: 1024 });
const initial = MiniMindTS.init(config, 7);
const work = mkdtempSync(join(tmpdir(), "tiny-chat-"));
saveModel(initial, join(work, "init.safetensors"));
initial.dispose();
// Long rows (the tool prompts) apart from short ones, each batch padded to its own longest row.
const groups = [rows.filter((r) => r.ids.length > 256), rows.filter((r) => r.ids.length <= 256)].filter((g) => g.length > 0);
const batches = groups.map((g) => {
  const w = Math.max(...g.map((r) => r.ids.length));
  const fill = (xs: number[], v: number) => [...xs, ...new Array<number>(w - xs.length).fill(v)];
  return { ids: g.map((r) => fill(r.ids, PAD_ID)), labels: g.map((r) => fill(r.labels, -100)) };
});
writeFileSync(join(work, "job.json"), JSON.stringify({ config, steps, extra_steps: 30, lr: 5e-3, batches }));
console.log(`tiny chat: ${rows.length} exchanges, longest ${width} tokens; ${steps} steps in PyTorch`);
const python = process.env.COURSE_PYTHON ?? "/usr/bin/python3";
const run = spawnSync(python, [join(import.meta.dirname, "train_tiny_chat.py"), join(work, "job.json"), join(work, "init.safetensors"), join(work, "trained.safetensors")], { stdio: "inherit" });
if (run.status !== 0) {
  rmSync(work, { recursive: true, force: true });
  console.error(`training failed (${python}; PyTorch: apt-get install -y python3-torch)`);
  process.exit(1);
}
const model = loadModel(join(work, "trained.safetensors"), { config });
rmSync(work, { recursive: true, force: true });
console.log(`checking greedy replies in MiniMindTS on the ${backend} backend:`);

let exact = 0;
for (const [i, ex] of DEMO_EXCHANGES.entries()) {
  const promptLength = rows[i].ids.length - tokenizer.encode(ex.reply).length - 1;
  const out = tf.tidy(() => model.generate(tf.tensor2d([rows[i].ids.slice(0, promptLength)], undefined, "int32"), { maxNewTokens: 120 }));
  const text = tokenizer.decode(Array.from(out.dataSync()).slice(promptLength));
  out.dispose();
  if (text === ex.reply) exact++;
  console.log(`${text === ex.reply ? "ok  " : "DIFF"} ${JSON.stringify(ex.user)}${ex.tools ? " +tools" : ""}${ex.thinking ? " +think" : ""} → ${JSON.stringify(text)}`);
}
if (exact < DEMO_EXCHANGES.length) {
  console.error(`${exact}/${DEMO_EXCHANGES.length} exchanges repeated exactly: not written (train longer: --steps)`);
  process.exit(1);
}
saveModel(model, values.out!);
console.log(`${exact}/${DEMO_EXCHANGES.length} exchanges repeated exactly; wrote ${values.out}`);
