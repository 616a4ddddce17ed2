/** Lesson 25: MiniMind's response mask, row by row: where EOS ends the answer and where the reward lands. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type ResponseMask = (completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number) => tf.Tensor2D;

const EOS = 2;
/** Four completions of R = 8 tokens; 0 is padding where the pad mask says so. */
const ROWS: Array<{ ids: number[]; pad: number[]; what: string }> = [
  { ids: [41, 17, 93, EOS, 55, 12, 7, 30], pad: [1, 1, 1, 1, 1, 1, 1, 1], what: "EOS at 3, torch engine (no padding)" },
  { ids: [64, 21, 88, 19, 45, 73, 11, 26], pad: [1, 1, 1, 1, 1, 1, 1, 1], what: "no EOS: cut at the length limit" },
  { ids: [38, 90, 14, 66, EOS, 0, 0, 0], pad: [1, 1, 1, 1, 1, 0, 0, 0], what: "SGLang: EOS, then padding" },
  { ids: [52, 77, 23, 0, 0, 0, 0, 0], pad: [1, 1, 1, 0, 0, 0, 0, 0], what: "SGLang: no EOS, 3 real tokens" },
];

export async function responseMask(): Promise<string> {
  const fn = await lessonFunction<ResponseMask>(25, "ppoResponseMask");
  const R = ROWS[0]!.ids.length;
  const mask = tf.tidy(() => fn(tf.tensor2d(ROWS.map((r) => r.ids), undefined, "int32"), tf.tensor2d(ROWS.map((r) => r.pad)), EOS).arraySync() as number[][]);
  const W = 700;
  const cell = 40;
  const left = 60;
  const top = 86;
  const rowH = 48;
  const H = top + ROWS.length * rowH + 60;
  const c = new Canvas(W, H).title("The response mask: EOS ends the answer, and the reward sits on its last token", `completions of R = ${R} tokens, EOS id = ${EOS}; mask from ppoResponseMask`);
  for (let j = 0; j < R; j++) c.text(left + j * cell + cell / 2, top - 8, String(j), { anchor: "middle", fill: COLORS.muted, size: 11 });
  ROWS.forEach((row, b) => {
    const y = top + b * rowH;
    c.text(left - 10, y + 24, `row ${b}`, { anchor: "end", weight: "bold" });
    const len = mask[b]!.reduce((a, v) => a + v, 0);
    for (let j = 0; j < R; j++) {
      const on = mask[b]![j]! > 0;
      const pad = row.pad[j] === 0;
      const x = left + j * cell;
      c.rect(x + 1, y + 1, cell - 2, rowH - 14, { fill: on ? COLORS.lightGreen : pad ? "#ffffff" : "#eeeeee", stroke: on ? COLORS.green : "#bbbbbb", dash: pad ? "3 3" : undefined });
      const eos = row.ids[j] === EOS && !pad;
      c.text(x + cell / 2, y + 22, pad ? "pad" : eos ? "EOS" : String(row.ids[j]), { anchor: "middle", weight: eos ? "bold" : "normal", fill: on ? COLORS.text : COLORS.muted, size: 11 });
      if (on && j === len - 1) c.text(x + cell - 4, y + 10, "★", { anchor: "end", fill: COLORS.orange, size: 13 });
    }
    c.text(left + R * cell + 12, y + 16, row.what, {});
    c.text(left + R * cell + 12, y + 31, `len = ${len}: mask keeps positions 0…${len - 1}`, { fill: COLORS.muted, size: 11 });
  });
  const ly = top + ROWS.length * rowH + 14;
  c.legend(left, ly, [{ label: "counted (mask 1)", color: COLORS.lightGreen }]);
  c.legend(left + 130, ly, [{ label: "real token after the end (mask 0)", color: "#eeeeee" }]);
  c.text(left + 370, ly + 4, "★", { fill: COLORS.orange, size: 13 });
  c.text(left + 386, ly + 4, "position len − 1: the reward goes here");
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-25-response-mask.svg", lesson: 25, render: responseMask, uses: ["lesson-25/ppoResponseMask"] }];
