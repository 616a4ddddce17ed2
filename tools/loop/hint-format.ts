/**
 * How a function's hints read, as `npm run hint` prints them and the course's workspace pages
 * show them (tools/browser/workspace-page.ts): a heading, then each tier revealed so far, the
 * newest marked "(new)" and the earlier ones dimmed. Pure: no files, no printing.
 */
import chalk from "chalk";
import { TIERS, type FunctionHints } from "../../grader/engine/hint-types.js";
import { say, TIER_LABELS_ZH, wrapWide, zh } from "../../grader/i18n.js";

/** A tier's label in the learner's language. */
export const tierLabel = (tier: (typeof TIERS)[number]): string => say(tier.label, TIER_LABELS_ZH[tier.key]);

/** Wraps `text` to `width` columns, each line starting with `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join("\n");
}

export interface HintView {
  lesson: string;
  /** The function's name. */
  name: string;
  hints: FunctionHints;
  /** Tiers to show (1 to TIERS.length). */
  showing: number;
  /** Tiers seen before this one (the newest is marked "(new)" when showing > seen). */
  seen: number;
  /** Columns to wrap to. */
  width: number;
}

/** The heading and the tiers revealed so far, each wrapped to `width` columns (Chinese wrapped between characters). */
export function formatHintTiers(v: HintView): string {
  const out = [chalk.bold(say(`${v.lesson} · ${v.name} — hint ${v.showing} of ${TIERS.length}`, `${v.lesson} · ${v.name} — 第 ${v.showing} 条提示（共 ${TIERS.length} 条）`))];
  TIERS.slice(0, v.showing).forEach((tier, i) => {
    const latest = i === v.showing - 1 && v.showing > v.seen;
    out.push("", `  ${i + 1}. ${tierLabel(tier)}${latest ? chalk.cyan(say("  (new)", "  （新）")) : ""}`);
    // Chinese has no spaces between words: wrapWide may break between two CJK characters.
    const body = zh() ? wrapWide(v.hints[tier.key], v.width, "     ") : wrap(v.hints[tier.key], v.width, "     ");
    out.push(latest ? body : chalk.dim(body));
  });
  return out.join("\n");
}
