/**
 * Greedy generation in llama.cpp (node-llama-cpp's prebuilt binaries, CPU only) from a GGUF file:
 * the other side of test/export-gguf.test.ts. Reads a JSON job on stdin,
 *   { "model": "x.gguf", "prompts": ["<|im_start|>user\n…"], "maxTokens": 60 }
 * and prints one JSON line: for each prompt, llama.cpp's token ids of the prompt (special tokens
 * parsed), the ids it generated greedily (up to an end-of-generation token or maxTokens) and their
 * text. Run from this folder so that node-llama-cpp resolves from tools/llama/node_modules.
 */
import { getLlama, LlamaLogLevel } from "node-llama-cpp";

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const job = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath: job.model, gpuLayers: 0 });
const context = await model.createContext({ contextSize: job.contextSize ?? 1024, sequences: 1, batchSize: 512, threads: 1 });
const sequence = context.getSequence();
const results = [];
for (const prompt of job.prompts) {
  const promptIds = model.tokenize(prompt, true);
  const generated = [];
  if (generated.length < job.maxTokens) {
    for await (const token of sequence.evaluate(promptIds, { temperature: 0 })) {
      if (model.isEogToken(token)) break;
      generated.push(token);
      if (generated.length >= job.maxTokens) break;
    }
  }
  results.push({ promptIds: [...promptIds], ids: generated, text: model.detokenize(generated) });
  await sequence.clearHistory();
}
console.log(JSON.stringify({ results, eog: [model.tokens.eos, model.tokens.eot].filter((t) => t != null) }));
await context.dispose();
await model.dispose();
await llama.dispose();
