/**
 * Lesson 27: the path of one chat completion through the server, and the worked reply split by
 * parseAssistantText into reasoning_content, content and tool_calls.
 */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type Parse = (text: string, idPrefix?: string) => { content: string; reasoningContent: string | null; toolCalls: Array<{ id: string; function: { name: string; arguments: string } }> | null };

/** The worked example's reply (lessons/27-conversion-api-webui.md). */
const REPLY = 'The user wants the weather in Paris.\n</think>\n\nLet me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city":"Paris"}}\n</tool_call>';

export async function requestPath(): Promise<string> {
  const parse = await lessonFunction<Parse>(27, "parseAssistantText");
  const parsed = parse(REPLY, "call");
  const W = 700;
  const H = 470;
  const c = new Canvas(W, H).title("One chat completion through the server", "HTTP process (Fastify) on the left, generation process on the right; tokens cross one at a time");
  // The HTTP side.
  const left = 30;
  const bw = 250;
  const steps: Array<[string, string]> = [
    ["POST /v1/chat/completions", "JSON schema (ajv): 400 names the field"],
    ["model id, context check", "404 unknown model · 400 too long"],
    ["renderChat (lesson 4)", "messages + tools → ChatML prompt"],
    ["tokenizer.encode", "prompt → ids"],
    ["bounded queue", "full → 429 + Retry-After"],
  ];
  steps.forEach(([a, b], i) => {
    const y = 62 + i * 52;
    c.box(left, y, bw, 40, [a, b], { fill: i === 4 ? COLORS.lightOrange : COLORS.lightBlue, text: { size: 11 } });
    if (i > 0) c.arrow(left + bw / 2, y - 12, left + bw / 2, y, { color: COLORS.grey });
  });
  // The generation process.
  const gx = 420;
  c.rect(gx - 10, 62, 270, 196, { fill: "none", stroke: COLORS.grey, rx: 6, dash: "5 4" });
  c.text(gx + 125, 78, "generation process (child)", { anchor: "middle", size: 11, fill: COLORS.muted });
  c.box(gx, 88, 250, 40, ["MiniMindTS + generate (lesson 12)", "KV cache, one token a step"], { fill: COLORS.lightGreen, text: { size: 11 } });
  c.box(gx, 146, 250, 40, ["pickToken: sampleNextToken (lesson 3)", "temperature, top-p; greedy at 0"], { fill: COLORS.lightGreen, text: { size: 11 } });
  c.box(gx, 204, 250, 40, ["each token → process.send", "a cancel mark stops it"], { fill: COLORS.lightGreen, text: { size: 11 } });
  c.arrow(gx + 125, 128, gx + 125, 146, { color: COLORS.grey });
  c.arrow(gx + 125, 186, gx + 125, 204, { color: COLORS.grey });
  c.arrow(left + bw, 62 + 4 * 52 + 20, gx - 10, 108, { color: COLORS.blue });
  c.text(345, 200, "job", { anchor: "middle", size: 11, fill: COLORS.blue });
  // Back to HTTP: decode and stream.
  const y2 = 330;
  c.box(left, y2, bw, 40, ["decode + hold back", "half a char, half a tag, a stop string"], { fill: COLORS.lightBlue, text: { size: 11 } });
  c.arrow(gx + 40, 244, left + bw, y2 + 20, { color: COLORS.blue });
  c.text(390, 296, "tokens", { anchor: "middle", size: 11, fill: COLORS.blue });
  c.box(left, y2 + 56, bw, 40, ["SSE deltas: reasoning_content,", "content; then tool_calls, [DONE]"], { fill: COLORS.lightPurple, text: { size: 11 } });
  c.arrow(left + bw / 2, y2 + 40, left + bw / 2, y2 + 56, { color: COLORS.grey });
  // The worked reply, parsed.
  const px = 310;
  c.text(px, 330, "parseAssistantText on the worked reply:", { size: 12, weight: "bold" });
  const lines: Array<[string, string, string]> = [
    ["reasoning_content", JSON.stringify(parsed.reasoningContent), COLORS.purple],
    ["content", JSON.stringify(parsed.content), COLORS.text],
    ...(parsed.toolCalls ?? []).map((t): [string, string, string] => [`tool_calls[0] (${t.id})`, `${t.function.name} ${t.function.arguments}`, COLORS.orange]),
  ];
  lines.forEach(([k, v, color], i) => {
    c.text(px, 354 + i * 38, k, { size: 11, fill: COLORS.muted });
    c.text(px, 370 + i * 38, v, { size: 12, family: "monospace", fill: color });
  });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-27-request-path.svg", lesson: 27, render: requestPath, uses: ["lesson-27/parseAssistantText"] }];
