/** Lesson 19: which projections of a MiniMind block get an adapter (the square ones), and what trains. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, fmt } from "../../lib/svg-diagrams.js";
import { miniMindConfig } from "../../lib/model/config.js";
import { names, parameterSpecs } from "../../lib/model/params.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type ApplyLora = (weights: Record<string, tf.Tensor>, rank: number, initA: (name: string, shape: [number, number]) => tf.Tensor2D) => Record<string, tf.Tensor2D>;
type TrainableParams = (shapes: Record<string, readonly number[]>) => { trainable: string[]; trainableCount: number; totalCount: number };

export async function adaptedLayers(): Promise<string> {
  const applyLora = await lessonFunction<ApplyLora>(19, "applyLora");
  const trainableParams = await lessonFunction<TrainableParams>(19, "trainableParams");
  const config = miniMindConfig(); // MiniMind's default: H = 768, 8 heads over 4 kv heads, I = 2432
  const rank = 16;
  const specs = parameterSpecs(config);
  // One layer's weights as zeros of the real shapes: enough for applyLora to choose.
  const layer0 = specs.filter((s) => s.name.startsWith("model.layers.0.") && s.shape.length === 2);
  const weights = Object.fromEntries(layer0.map((s) => [s.name, tf.zeros(s.shape)]));
  const adapters = applyLora(weights, rank, (_n, shape) => tf.zeros(shape) as tf.Tensor2D);
  const adapted = new Set(Object.keys(adapters).map((n) => n.replace(/\.lora\.[AB]\.weight$/, ".weight")));
  tf.dispose([...Object.values(weights), ...Object.values(adapters)]);
  // Whole-model counts: every layer adapted the same way.
  const shapes: Record<string, number[]> = {};
  for (const s of specs) {
    shapes[s.name] = s.shape;
    const l0 = s.name.replace(/^model\.layers\.\d+\./, "model.layers.0.");
    if (adapted.has(l0)) {
      const module = s.name.slice(0, -".weight".length);
      shapes[`${module}.lora.A.weight`] = [rank, s.shape[1]!];
      shapes[`${module}.lora.B.weight`] = [s.shape[0]!, rank];
    }
  }
  const t = trainableParams(shapes);

  const W = 700;
  const H = 300;
  const c = new Canvas(W, H).title("Which layers MiniMind adapts: nn.Linear with in_features == out_features", `one block of the default model (H = ${config.hiddenSize}); rank ${rank}`);
  const boxes: Array<[string, string]> = [
    [names.attn(0, "q_proj"), "q_proj"],
    [names.attn(0, "k_proj"), "k_proj"],
    [names.attn(0, "v_proj"), "v_proj"],
    [names.attn(0, "o_proj"), "o_proj"],
    [names.mlp(0, "gate_proj"), "gate_proj"],
    [names.mlp(0, "up_proj"), "up_proj"],
    [names.mlp(0, "down_proj"), "down_proj"],
  ];
  boxes.forEach(([name, label], i) => {
    const shape = layer0.find((s) => s.name === name)!.shape;
    const on = adapted.has(name);
    const x = 24 + i * 96;
    c.box(x, 80, 86, 56, [label, `[${shape.join(" × ")}]`], { fill: on ? COLORS.lightOrange : "#eeeeee", stroke: on ? COLORS.orange : COLORS.grey, strokeWidth: on ? 2.5 : 1 });
    c.text(x + 43, 156, on ? "+ A, B" : "frozen only", { anchor: "middle", size: 11, fill: on ? COLORS.orange : COLORS.muted, weight: on ? "bold" : "normal" });
  });
  c.text(24, 196, "k_proj, v_proj: 4 kv heads × 96 = 384 outputs (GQA), not square. The MLP maps 768 ↔ 2432. The", { size: 12 });
  c.text(24, 214, "embedding is a lookup table, not a linear layer; the tied lm_head maps 768 → 6400.", { size: 12 });
  c.text(24, 250, `Whole model (${config.numHiddenLayers} layers): ${t.trainableCount.toLocaleString("en")} trainable of ${t.totalCount.toLocaleString("en")} parameters = ${fmt((100 * t.trainableCount) / t.totalCount, 2)}%`, { size: 13, weight: "bold" });
  c.text(24, 272, `(trainableParams over the model's shapes; ${t.trainable.length} adapter matrices, chosen by the "lora" in their names)`, { size: 11, fill: COLORS.muted });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-19-adapted-layers.svg", lesson: 19, render: adaptedLayers, uses: ["lesson-19/applyLora", "lesson-19/trainableParams"] }];
