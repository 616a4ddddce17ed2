/**
 * Generations at the capstone's fixed prompts, from any stage's weights: the same prompts after
 * every stage show what each stage changed. Greedy decoding (lesson 12's `generate` through the
 * model's resolved pieces), at most `maxNewTokens` new tokens.
 */
import * as tf from "../tf.js";
import { resolveRun, runningPieces } from "../model/pieces.js";
import { MiniMindTS } from "../model/model.js";
import { loadWeights } from "../train/checkpoint.js";
import { PRESETS, presetConfig } from "../train/settings.js";
import { decodeText, trainTokenizer } from "../train/tokenizer.js";

/** The fixed prompts: one plain text (what pretraining continues) and three chat questions. */
export const FIXED_PROMPTS: ReadonlyArray<{ prompt: string; chat: boolean }> = [
  { prompt: "Once upon a time, Nora", chat: false },
  { prompt: "What is 12 + 30?", chat: true },
  { prompt: "Reverse the word cat.", chat: true },
  { prompt: "How many letters are in the word apple?", chat: true },
];

type RenderChat = (messages: Array<{ role: string; content: string }>, options?: { addGenerationPrompt?: boolean }) => string;

/** What the model at `weightsPath` (of `configName`'s shapes) writes after each fixed prompt. */
export async function fixedPromptSamples(weightsPath: string, configName: string, useReference: string[], maxNewTokens = 24): Promise<Array<{ prompt: string; text: string }>> {
  const tok = trainTokenizer();
  const config = presetConfig(PRESETS[configName], tok.vocabSize, 512);
  const stored = loadWeights(weightsPath, config, `--config ${configName}`);
  const { pieces, fns } = await resolveRun<{ renderChat: RenderChat }>(runningPieces(config), { renderChat: "lesson-4" }, { useReference });
  const weights = Object.fromEntries(Object.entries(stored).map(([k, t]) => [k, tf.tensor(t.data, t.shape, "float32")]));
  const model = new MiniMindTS(config, weights, { pieces });
  tf.dispose(Object.values(weights));
  const out = FIXED_PROMPTS.map(({ prompt, chat }) => {
    const text = chat ? fns.renderChat([{ role: "user", content: prompt }], { addGenerationPrompt: true }) : prompt;
    const ids = chat ? tok.encode(text) : [tok.bosId, ...tok.encode(text)];
    const input = tf.tensor2d([ids], undefined, "int32");
    const gen = model.generate(input, { maxNewTokens, eosTokenId: tok.eosId });
    const reply = decodeText(tok, Array.from(gen.dataSync()).slice(ids.length));
    tf.dispose([input, gen]);
    return { prompt, text: reply };
  });
  model.dispose();
  return out;
}
