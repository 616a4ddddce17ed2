/**
 * Parametrised wrong versions of lesson 26's three functions: each mutant file picks one flaw, so
 * every mutant differs from the reference in exactly one plausible way.
 */
import { PY_WHITESPACE } from "../../solutions/lesson-25/python-text.js";
import { repetitionPenalty } from "../../solutions/lesson-25/reward.js";
import { CHECK_ARGS, type AgentTrajectory, type ToolSchema } from "../../solutions/lesson-26/agent-reward.js";
import type { AgentTurn, PackedTrajectory, ToolCallRequest } from "../../solutions/lesson-26/tool-calls.js";

const STRIP = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, "gu");
const pyStrip = (s: string) => s.replace(STRIP, "");
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const tryJson = (t: string): unknown => {
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
};

export interface ParseFlaws {
  /** `(.*)` instead of `(.*?)`: two calls become one block of broken JSON. */
  greedy?: boolean;
  /** JavaScript's trim() for Python's strip(). */
  jsTrim?: boolean;
  /** A string `arguments` is kept unparsed (so it becomes {}). */
  stringArgsUnparsed?: boolean;
  /** The first block that is not JSON ends the parsing. */
  stopAtBroken?: boolean;
}

export function parseVariant(f: ParseFlaws) {
  const re = f.greedy ? /<tool_call>([\s\S]*)<\/tool_call>/gu : /<tool_call>([\s\S]*?)<\/tool_call>/gu;
  return (text: string): ToolCallRequest[] => {
    const calls: ToolCallRequest[] = [];
    for (const m of text.matchAll(re)) {
      const call = tryJson(f.jsTrim ? m[1].trim() : pyStrip(m[1]));
      if (call === undefined && f.stopAtBroken) break;
      if (!isObject(call)) continue;
      let args = "arguments" in call ? call.arguments : {};
      if (typeof args === "string" && !f.stringArgsUnparsed) args = tryJson(args) ?? {};
      calls.push({ name: typeof call.name === "string" ? call.name : "", arguments: isObject(args) ? args : {} });
    }
    return calls;
  };
}

export interface PackFlaws {
  /** Pad and EOS ids are kept among the generated tokens. */
  keepEos?: boolean;
  /** Observation tokens get mask 1: the model is trained on the tool's words. */
  observationTrained?: boolean;
  /** oldLogps starts with one zero per prompt token, not one fewer: every log-prob is one position late. */
  unshiftedLogps?: boolean;
  /** Truncation keeps the first maxTotalLen ids instead of the last. */
  keepHead?: boolean;
  /** promptLen is the prompt's own length, not the first 1 of the (cut) mask. */
  promptLenFromPrompt?: boolean;
  /** None of the documented checks: bad inputs give a malformed result instead of an error. */
  noInputChecks?: boolean;
  /** maxTotalLen checked as ≥ 1 instead of ≥ 2 (a one-token row has no log-prob to train on). */
  maxLenOneAllowed?: boolean;
  /** Pad and EOS ids dropped from the prompt and the observations too, not only from the generated ids. */
  dropEosEverywhere?: boolean;
  /** Each turn's kept ids and observation appended with push(...ids): a RangeError for some 10^5 ids. */
  spreadPush?: boolean;
}

export function packVariant(f: PackFlaws) {
  return (promptIds: number[], turns: AgentTurn[], padId: number, eosId: number, maxTotalLen: number): PackedTrajectory => {
    if (!f.noInputChecks) {
      if (!(Number.isInteger(maxTotalLen) && maxTotalLen >= (f.maxLenOneAllowed ? 1 : 2))) throw new Error(`maxTotalLen must be an integer ≥ 2, got ${maxTotalLen}`);
      if (promptIds.length === 0) throw new Error("the prompt is empty");
      turns.forEach((t, i) => {
        if (t.ids.length !== t.logps.length) throw new Error(`turn ${i}: ${t.ids.length} ids but ${t.logps.length} log-probs`);
      });
    }
    const ids: number[] = [];
    const mask: number[] = [];
    const logps: number[] = [];
    for (const t of turns) {
      const keep = t.ids.map((id) => f.keepEos || (id !== padId && id !== eosId));
      if (f.spreadPush) {
        const kept = t.ids.filter((_, j) => keep[j]);
        ids.push(...kept);
        mask.push(...kept.map(() => 1));
        logps.push(...t.logps.filter((_, j) => keep[j]));
      } else {
        t.ids.forEach((id, j) => {
          if (!keep[j]) return;
          ids.push(id);
          mask.push(1);
          logps.push(t.logps[j]);
        });
      }
      if (f.spreadPush) {
        ids.push(...t.observation);
        mask.push(...t.observation.map(() => (f.observationTrained ? 1 : 0)));
        logps.push(...t.observation.map(() => 0));
        continue;
      }
      for (const id of t.observation) {
        if (f.dropEosEverywhere && (id === padId || id === eosId)) continue;
        ids.push(id);
        mask.push(f.observationTrained ? 1 : 0);
        logps.push(0);
      }
    }
    const prompt = f.dropEosEverywhere ? promptIds.filter((id) => id !== padId && id !== eosId) : promptIds;
    let inputIds = [...prompt, ...ids];
    let m = [...prompt.map(() => 0), ...mask];
    let old = [...(f.unshiftedLogps ? prompt : prompt.slice(1)).map(() => 0), ...logps];
    if (inputIds.length > maxTotalLen) {
      inputIds = f.keepHead ? inputIds.slice(0, maxTotalLen) : inputIds.slice(-maxTotalLen);
      m = f.keepHead ? m.slice(0, maxTotalLen) : m.slice(-maxTotalLen);
      old = f.keepHead ? old.slice(0, maxTotalLen - 1) : old.slice(-(maxTotalLen - 1));
    }
    const first = m.indexOf(1);
    return { inputIds, mask: m, oldLogps: old, promptLen: f.promptLenFromPrompt ? Math.min(promptIds.length, m.length) : first < 0 ? m.length : first };
  };
}

export interface RewardFlaws {
  /** Unfinished rollouts keep their last text as the final answer (GT credit still given). */
  unfinishedKeepsText?: boolean;
  /** Invalid calls count once in the gap (only as missing valid calls). */
  invalidCountedOnce?: boolean;
  /** The ground truth must appear as text; "3,402" no longer matches "3402". */
  textMatchOnly?: boolean;
  /** The total is not clipped to [−3, 3]. */
  noClip?: boolean;
  /** Tag balance is checked on the last turn only. */
  tagsLastTurnOnly?: boolean;
  /** JavaScript's length (UTF-16 units) for Python's len (code points). */
  utf16Length?: boolean;
  /** Tool calls parsed from each whole turn, thinking included, instead of from the text after </think>. */
  callsFromWholeTurn?: boolean;
  /** Tag balance counted on each whole turn, thinking included, instead of on the text after </think>. */
  tagsOnWholeTurn?: boolean;
  /** The ground truth matched as text case-sensitively ("Paris" is not found in "PARIS"). */
  caseSensitiveMatch?: boolean;
  /** Both sides upper-cased to ignore case: "ß" becomes "SS", so "Straße" is found in "STRASSE". */
  upperCaseMatch?: boolean;
  /** An empty (after strip) ground-truth item counts as found: "" is in every text. */
  emptyGtFound?: boolean;
  /** Length windows without their ends: 5 < len < 800 and 20 < len < 300. */
  strictBounds?: boolean;
}

export function rewardVariant(f: RewardFlaws) {
  const NUMBER = /(?<![\p{L}\p{N}_.])[-+]?[0-9]+(?:\.[0-9]+)?(?![\p{L}\p{N}_.])/gu;
  const count = (s: string, sub: string) => s.split(sub).length - 1;
  const after = (s: string, sep: string) => s.slice(s.indexOf(sep) + sep.length);
  const len = (s: string) => (f.utf16Length ? s.length : [...s].length);
  const clip = (r: number) => (f.noClip ? r : Math.max(Math.min(r, 3), -3));
  const parse = parseVariant({});
  return (tr: AgentTrajectory, gt: string[], tools: ToolSchema[] | null): number => {
    let reward = 0;
    const answers = tr.turnOutputs.map((t) => (t.includes("</think>") ? pyStrip(after(t, "</think>")) : pyStrip(t)));
    let answer = answers.length > 0 ? answers[answers.length - 1] : pyStrip(tr.completion);
    const names = new Set((tools ?? []).map((t) => t.function.name));
    const calls = (f.callsFromWholeTurn ? tr.turnOutputs : answers).flatMap((t) => parse(t));
    const tagged = f.tagsOnWholeTurn ? tr.turnOutputs : answers;
    for (const t of f.tagsLastTurnOnly ? tagged.slice(-1) : tagged) reward -= 0.5 * Math.abs(count(t, "<tool_call>") - count(t, "</tool_call>"));
    if (calls.length === 0) {
      const n = len(pyStrip(tr.completion));
      const inside = (x: number, lo: number, hi: number) => (f.strictBounds ? x > lo && x < hi : x >= lo && x <= hi);
      reward += inside(n, 5, 800) ? 0.5 : -0.5;
      if (tr.completion.includes("</think>")) {
        const k = len(pyStrip(tr.completion.slice(0, tr.completion.indexOf("</think>"))));
        reward += inside(k, 20, 300) ? 1 : -0.5;
        reward += count(tr.completion, "</think>") === 1 ? 0.25 : -0.25;
        answer = pyStrip(after(tr.completion, "</think>"));
      }
      return clip(reward - repetitionPenalty(answer));
    }
    const valid = calls.filter((c) => names.has(c.name) && CHECK_ARGS[c.name]?.(c.arguments)).length;
    const gap = Math.abs(valid - gt.length) + (f.invalidCountedOnce ? 0 : Math.max(0, calls.length - valid));
    reward += gap === 0 ? 0.5 : -0.5 * gap;
    const finalText = tr.unfinished && !f.unfinishedKeepsText ? "" : answer.includes("</tool_call>") ? answer.slice(answer.lastIndexOf("</tool_call>") + 12) : answer;
    const fold = (x: string) => (f.caseSensitiveMatch ? x : f.upperCaseMatch ? x.toUpperCase() : x.toLowerCase());
    const lower = fold(finalText);
    const nums = (finalText.replaceAll(",", "").match(NUMBER) ?? []).map(Number);
    const found = new Set(
      gt.filter((g) => {
        const s = pyStrip(g);
        const asNum = s.replaceAll(",", "");
        return ((s !== "" || f.emptyGtFound) && lower.includes(fold(s))) || (!f.textMatchOnly && /^[-+]?[0-9]+(?:\.[0-9]+)?$/u.test(asNum) && nums.some((x) => Math.abs(Number(asNum) - x) < 1e-6));
      }),
    );
    if (gt.length > 0) reward += (2.5 * found.size) / gt.length;
    if (tr.unfinished) reward -= 0.5;
    return clip(reward - repetitionPenalty(finalText !== "" ? finalText : answer));
  };
}
