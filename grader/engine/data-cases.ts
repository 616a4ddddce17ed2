/**
 * Fixture cases of the data lessons (5, 6, 21): the Python side stores its random draws as a list
 * and tokenizes character by character, so each case's inputs get `random` as a replaying source
 * and a `tokenizer` (the character-level stand-in) before the call.
 */
import { charTokenizer, replay } from "./datasets.js";
import { fixtureCases } from "./fixtures.js";
import type { CaseDef, Inputs } from "./types.js";

/** fixtureCases with `random: number[]` replayed and, when `withTokenizer`, the char tokenizer added. */
export function dataFixtureCases(lesson: string, exercise: string, withTokenizer: boolean): CaseDef[] {
  return fixtureCases(lesson, exercise).map((c) => ({
    ...c,
    name: withTokenizer ? `${c.name} (character-level tokenizer)` : c.name,
    inputs: (): Inputs => {
      const x = c.inputs();
      const out: Inputs = { ...x };
      if (Array.isArray(x.random)) out.random = replay(x.random as number[]);
      if (withTokenizer) out.tokenizer = charTokenizer();
      return out;
    },
  }));
}
