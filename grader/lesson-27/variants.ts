/**
 * Parametrised wrong versions of lesson 27's parseAssistantText: each mutant file picks one flaw,
 * so every mutant differs from the reference in exactly one plausible way.
 */
import { PY_WHITESPACE } from "../../solutions/lesson-25/python-text.js";

export interface ParseFlaws {
  /** `(.*)` instead of `(.*?)`: two tool calls become one block of broken JSON. */
  greedyToolCall?: boolean;
  /** Only a full <think>…</think> counts: a reply whose prompt opened the block keeps it all as content. */
  needsOpeningTag?: boolean;
  /** Ids count the calls that parsed, not the blocks: after a broken block the ids shift. */
  idsCountParsed?: boolean;
  /** JSON.stringify's compact separators instead of Python's json.dumps ", " and ": ". */
  compactArguments?: boolean;
  /** JavaScript's trim() for Python's strip(). */
  jsTrim?: boolean;
  /** Removes the tool-call blocks from the content even when none of them parsed. */
  alwaysRemoveBlocks?: boolean;
  /** An empty think block gives null instead of "". */
  emptyReasoningIsNull?: boolean;
  /** `o.name ?? ""`: a null name becomes "" (Python's call.get("name", "") keeps None). */
  nullishName?: boolean;
  /** `o.arguments ?? {}`: null arguments become "{}" (Python's json.dumps(None) is "null"). */
  nullishArguments?: boolean;
  /** The default idPrefix is MiniMind's `call_${int(time.time())}`, so ids change by the second. */
  timeBasedDefaultId?: boolean;
}

/** What `int(time.time())` read when the wrong default was taken. */
const CLOCK_SECONDS = 1_764_547_200;

type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

export function parseVariant(flaws: ParseFlaws) {
  const WS = `[${PY_WHITESPACE}]`;
  const strip = flaws.jsTrim ? (s: string) => s.trim() : (s: string) => s.replace(new RegExp(`^${WS}+|${WS}+$`, "gu"), "");
  const thinkAll = new RegExp(`<think>[\\s\\S]*?</think>${flaws.jsTrim ? "\\s" : WS}*`, "gu");
  const toolCall = flaws.greedyToolCall ? /<tool_call>([\s\S]*)<\/tool_call>/gu : /<tool_call>([\s\S]*?)<\/tool_call>/gu;
  const dumps = (v: unknown): string => {
    if (flaws.compactArguments) return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(dumps).join(", ")}]`;
    if (v !== null && typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${dumps(x)}`).join(", ")}}`;
    return JSON.stringify(v);
  };
  return (text: string, idPrefixArg?: string) => {
    // The clock's reading is fixed here (1 Dec 2025): a mutant must give the same output every run,
    // so that its frozen fingerprint in a student edition matches a fresh computation.
    const idPrefix = idPrefixArg ?? (flaws.timeBasedDefaultId ? `call_${CLOCK_SECONDS}` : "call");
    let rest = text;
    let reasoningContent: string | null = null;
    const think = /<think>([\s\S]*?)<\/think>/u.exec(rest);
    if (think) {
      reasoningContent = strip(think[1]);
      rest = rest.replace(thinkAll, "");
    } else if (!flaws.needsOpeningTag && rest.includes("</think>")) {
      const at = rest.indexOf("</think>");
      reasoningContent = strip(rest.slice(0, at));
      rest = strip(rest.slice(at + 8));
    }
    if (flaws.emptyReasoningIsNull && reasoningContent === "") reasoningContent = null;
    const calls: ToolCall[] = [];
    [...rest.matchAll(toolCall)].forEach((m, i) => {
      let call: unknown;
      try {
        call = JSON.parse(strip(m[1]));
      } catch {
        return;
      }
      if (call === null || typeof call !== "object" || Array.isArray(call)) return;
      const o = call as Record<string, unknown>;
      const id = `${idPrefix}_${flaws.idsCountParsed ? calls.length : i}`;
      const name = flaws.nullishName ? (o.name ?? "") : "name" in o ? o.name : "";
      const args = flaws.nullishArguments ? (o.arguments ?? {}) : "arguments" in o ? o.arguments : {};
      calls.push({ id, type: "function", function: { name: name as string, arguments: dumps(args) } });
    });
    if (calls.length > 0 || flaws.alwaysRemoveBlocks) rest = rest.replace(toolCall, "");
    return { content: strip(rest), reasoningContent, toolCalls: calls.length > 0 ? calls : null };
  };
}
