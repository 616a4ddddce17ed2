/**
 * Lesson 4's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { chatVariant, decodeVariant, encodeVariant, trainVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "bpeDecode",
    name: "default-decoder",
    mistake: "new TextDecoder() with its defaults strips a leading U+FEFF (byte-order mark); Hugging Face's decoder keeps it: pass { ignoreBOM: true }",
    fn: decodeVariant("default-decoder"),
  },
  {
    exercise: "bpeDecode",
    name: "drops-broken",
    mistake: "drops broken UTF-8 instead of writing U+FFFD",
    fn: decodeVariant("drops-broken"),
  },
  {
    exercise: "bpeDecode",
    name: "latin1",
    mistake: "reads the bytes one character each instead of as UTF-8",
    fn: decodeVariant("latin1"),
  },
  {
    exercise: "bpeDecode",
    name: "no-byte-table",
    mistake: "joins the tokens without mapping byte characters back (Ġ stays Ġ)",
    fn: decodeVariant("no-byte-table"),
  },
  {
    exercise: "bpeDecode",
    name: "per-token",
    mistake: "decodes each token alone, so characters split across tokens become U+FFFD",
    fn: decodeVariant("per-token"),
  },
  {
    exercise: "bpeDecode",
    name: "spread-bytes",
    mistake: "all the bytes were passed as arguments (Uint8Array.of(...bytes)): a long id list exceeds the call stack and throws a RangeError; build the array without spreading",
    fn: decodeVariant("spread-bytes"),
  },
  {
    exercise: "bpeEncode",
    name: "leftmost-mergeable",
    mistake: "merges the leftmost mergeable pair instead of the lowest-ranked one",
    fn: encodeVariant("leftmost-mergeable"),
  },
  {
    exercise: "bpeEncode",
    name: "longest-match",
    mistake: "takes the longest vocabulary entry from the left instead of applying merges",
    fn: encodeVariant("longest-match"),
  },
  {
    exercise: "bpeEncode",
    name: "no-pretokenize",
    mistake: "merges across pre-token boundaries (the whole text is one word)",
    fn: encodeVariant("no-pretokenize"),
  },
  {
    exercise: "bpeEncode",
    name: "no-specials",
    mistake: "encodes special-token strings as ordinary text",
    fn: encodeVariant("no-specials"),
  },
  {
    exercise: "bpeEncode",
    name: "shortest-special",
    mistake: "matches the shortest special token where a longer one starts at the same place",
    fn: encodeVariant("shortest-special"),
  },
  {
    exercise: "bpeTrain",
    name: "largest-pair-tie",
    mistake: "breaks a tie between equally frequent pairs toward the larger ids",
    fn: trainVariant("largest-pair-tie"),
  },
  {
    exercise: "bpeTrain",
    name: "no-pretokenize",
    mistake: "counts pairs across the whole text, so merges cross spaces and punctuation",
    fn: trainVariant("no-pretokenize"),
  },
  {
    exercise: "bpeTrain",
    name: "no-size-check",
    mistake: "a vocabSize smaller than the special tokens plus the 256 bytes was accepted; throw a RangeError instead of returning a model that cannot hold every byte",
    fn: trainVariant("no-size-check"),
  },
  {
    exercise: "bpeTrain",
    name: "seen-bytes-only",
    mistake: "puts only the bytes seen in training in the alphabet, so ids shift and unseen bytes cannot be encoded",
    fn: trainVariant("seen-bytes-only"),
  },
  {
    exercise: "bpeTrain",
    name: "specials-last",
    mistake: "gives the special tokens the last ids instead of the first",
    fn: trainVariant("specials-last"),
  },
  {
    exercise: "bpeTrain",
    name: "specials-not-counted",
    mistake: "does not count the special tokens in vocabSize and learns too many merges",
    fn: trainVariant("specials-not-counted"),
  },
  {
    exercise: "renderChat",
    name: "compact-tools-json",
    mistake: "writes tool schemas with JSON.stringify's compact separators instead of Python's json.dumps",
    fn: chatVariant("compact-tools-json"),
  },
  {
    exercise: "renderChat",
    name: "no-empty-think",
    mistake: "renders no think block for an assistant turn without reasoning",
    fn: chatVariant("no-empty-think"),
  },
  {
    exercise: "renderChat",
    name: "open-thinking-ignored",
    mistake: "ignores openThinking and always closes the think block of the generation prompt",
    fn: chatVariant("open-thinking-ignored"),
  },
  {
    exercise: "renderChat",
    name: "string-args-quoted",
    mistake: "writes string tool-call arguments as a JSON string (quoted) instead of as given",
    fn: chatVariant("string-args-quoted"),
  },
  {
    exercise: "renderChat",
    name: "tool-turn-each",
    mistake: "puts each tool response in a user turn of its own instead of one turn for a run of them",
    fn: chatVariant("tool-turn-each"),
  },
];
