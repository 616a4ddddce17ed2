/** Wrong versions of lesson 5's functions, each with one plausible flaw around the reference. */
import type { TextTokenizer } from "../../lib/tokenizer.js";
import { renderChat, type ChatMessage } from "../../solutions/lesson-4/chat-template.js";
import { postProcessingChat, preProcessingChat, sftLabels, SYSTEM_PROMPTS, type SftMessage } from "../../solutions/lesson-5/sft.js";

export type LabelFlaw = "end-unlabelled" | "start-labelled" | "ignores-max-length" | "first-span-only" | "past-the-end" | "end-by-first-id";

export function labelsVariant(flaw: LabelFlaw) {
  return (ids: number[], start: number[], end: number[], maxLength: number): number[] => {
    if (flaw === "ignores-max-length") return sftLabels(ids, start, end, ids.length);
    if (flaw === "past-the-end" || flaw === "end-by-first-id") {
      // MiniMind's loop; past-the-end: an open span labels up to min(end + len(eos), maxLength), past the last id.
      const labels = new Array<number>(ids.length).fill(-100);
      const at = (i: number, seq: number[]) => seq.every((v, k) => ids[i + k] === v);
      let i = 0;
      while (i < ids.length) {
        if (!at(i, start)) {
          i++;
          continue;
        }
        let e = i + start.length;
        // end-by-first-id: the end marker recognised by its first id alone (<|im_end|> without the "\n" after it).
        while (e < ids.length && !(flaw === "end-by-first-id" ? ids[e] === end[0] : at(e, end))) e++;
        const stop = flaw === "past-the-end" ? maxLength : Math.min(maxLength, ids.length);
        for (let j = i + start.length; j < Math.min(e + end.length, stop); j++) labels[j] = ids[j];
        i = e < ids.length ? e + end.length : ids.length;
      }
      return labels;
    }
    const labels = sftLabels(ids, start, end, maxLength);
    const at = (i: number, seq: number[]) => seq.length > 0 && seq.every((v, k) => ids[i + k] === v);
    let spans = 0;
    for (let i = 0; i < ids.length; i++) {
      if (flaw === "end-unlabelled" && at(i, end) && labels[i] !== -100) for (let k = 0; k < end.length; k++) labels[i + k] = -100;
      if (flaw === "start-labelled" && at(i, start)) for (let k = 0; k < start.length && i + k < maxLength; k++) labels[i + k] = ids[i + k];
      if (flaw === "first-span-only" && at(i, start) && ++spans > 1) for (let j = i; j < ids.length; j++) labels[j] = -100;
    }
    return labels;
  };
}

export type PreFlaw = "always-two-draws" | "ignores-tools" | "replaces-first" | "even-with-system" | "tools-key-present" | "ratio-inclusive" | "default-ratio-half";

export function preVariant(flaw: PreFlaw) {
  return (conv: SftMessage[], random: () => number, prompts: readonly string[] = SYSTEM_PROMPTS, ratio = flaw === "default-ratio-half" ? 0.5 : 0.2): SftMessage[] => {
    if (flaw === "tools-key-present" ? conv.some((m) => m.tools !== undefined) : flaw !== "ignores-tools" && conv.some((m) => m.tools)) return conv;
    if (flaw !== "even-with-system" && conv[0]?.role === "system") return conv;
    const u = random();
    if (flaw === "ratio-inclusive") return u <= ratio ? [{ role: "system", content: prompts[Math.floor(random() * prompts.length)] }, ...conv] : conv;
    if (flaw === "always-two-draws") {
      const pick = prompts[Math.floor(random() * prompts.length)];
      return u < ratio ? [{ role: "system", content: pick }, ...conv] : conv;
    }
    if (u >= ratio) return conv;
    const added = { role: "system", content: prompts[Math.floor(random() * prompts.length)] };
    return flaw === "replaces-first" ? [added, ...conv.slice(1)] : [added, ...conv];
  };
}

export type PostFlaw = "inverted" | "first-only" | "always-draws" | "default-ratio-kept-share";

export function postVariant(flaw: PostFlaw) {
  return (prompt: string, random: () => number, ratio = flaw === "default-ratio-kept-share" ? 0.8 : 0.2): string => {
    const EMPTY = "<think>\n\n</think>\n\n";
    if (flaw === "always-draws") {
      const u = random();
      return prompt.includes(EMPTY) && u > ratio ? prompt.split(EMPTY).join("") : prompt;
    }
    if (!prompt.includes(EMPTY)) return prompt;
    const u = random();
    if (flaw === "inverted") return u < ratio ? prompt.split(EMPTY).join("") : prompt;
    if (flaw === "first-only") return u > ratio ? prompt.replace(EMPTY, "") : prompt;
    return u > ratio ? prompt.split(EMPTY).join("") : prompt;
  };
}

export type SampleFlaw = "no-tools" | "pads-with-eos" | "no-pre-processing" | "markers-without-newline" | "pads-with-zero" | "parses-empty-tool-calls";

export function sampleVariant(flaw: SampleFlaw) {
  return (conv: SftMessage[], tokenizer: TextTokenizer, maxLength: number, random: () => number) => {
    const nl = flaw === "markers-without-newline" ? "" : "\n";
    const start = tokenizer.encode(`${tokenizer.bosToken}assistant${nl}`);
    const end = tokenizer.encode(`${tokenizer.eosToken}${nl}`);
    let tools: unknown[] | undefined;
    const messages = (flaw === "no-pre-processing" ? conv : preProcessingChat(conv, random)).map((m) => {
      if (flaw !== "no-tools" && m.role === "system" && m.tools) tools = typeof m.tools === "string" ? JSON.parse(m.tools) : m.tools;
      const calls = typeof m.tool_calls === "string" && (m.tool_calls || flaw === "parses-empty-tool-calls") ? JSON.parse(m.tool_calls) : m.tool_calls;
      return { ...m, tool_calls: calls || undefined } as ChatMessage;
    });
    const ids = tokenizer.encode(postProcessingChat(renderChat(messages, { tools }), random)).slice(0, maxLength);
    while (ids.length < maxLength) ids.push(flaw === "pads-with-eos" ? tokenizer.eosId : flaw === "pads-with-zero" ? 0 : tokenizer.padId);
    return { inputIds: ids, labels: sftLabels(ids, start, end, maxLength) };
  };
}
