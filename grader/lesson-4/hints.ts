/** Hints for lesson 4 (the tokenizer): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-4",
  functions: {
    bpeTrain: {
      nudge: "Before any merge, what is the vocabulary? Count it: the special tokens, then every possible byte. Where may a merge never reach across?",
      keyIdea:
        "Pre-tokenize each text (pretokenize), turn each piece into byte characters (toByteLevel), and count each distinct piece once with its frequency. " +
        "Then loop: count adjacent pairs over all pieces (weighted by frequency), take the most frequent (ties: smaller left id, then smaller right id), append left+right as a new token, and replace the pair inside every piece, left to right. " +
        "Stop at vocabSize entries or when no pair is left. Recounting every step is correct; updating only the pieces that held the pair is what makes 10 MB fast.",
      formula:
        "ids: specials 0…S−1, then the 256 byte characters sorted by code point, then merges in order. best = argmax_pair (count, −leftId, −rightId). " +
        "MiniMind: trainer/train_tokenizer.py:24-50 @ d65ef2c (tokenizers' BpeTrainer with the ByteLevel alphabet and 36 special tokens).",
    },
    bpeEncode: {
      nudge: "A special token such as <|im_start|> must come out as one id even though its characters could be merged otherwise. What has to happen before anything else?",
      keyIdea:
        "Scan the text for special-token strings (longest first where two start at one place) and emit their ids; encode the text between them. " +
        "For that text: pretokenize, toByteLevel, then inside each piece repeatedly find the adjacent pair with the lowest merge rank and merge all its left-to-right occurrences, until no pair has a rank.",
      formula:
        "rank(a, b) = index of [a, b] in model.merges; per piece: while some pair has a rank, merge the min-rank pair; ids = vocab[token]. " +
        "MiniMind: trainer/train_tokenizer.py:25-26 (BPE model, ByteLevel pre-tokenizer) @ d65ef2c.",
    },
    bpeDecode: {
      nudge: "A Chinese character is three bytes; can one token hold only part of it? Then can you decode token by token?",
      keyIdea: "Map ids to tokens, every token character back to its byte (CHAR_TO_BYTE), concatenate ALL bytes, and decode the byte array as UTF-8 once, with replacement for broken sequences.",
      formula: "bytes = concat_t [CHAR_TO_BYTE[c] for c in token_t]; text = new TextDecoder('utf-8').decode(bytes). MiniMind: decoders.ByteLevel(), trainer/train_tokenizer.py:51 @ d65ef2c.",
    },
    renderChat: {
      nudge: "Read the jinja template in model/tokenizer_config.json one branch at a time: what does it print for a system message, a user message, an assistant message, a tool message?",
      keyIdea:
        "Header: with tools, one system turn with the system text, the tools block (one JSON line per tool) and the tool-call instructions; without tools, the first system message alone. " +
        "Then each message: user (and later system) as <|im_start|>role\\ncontent<|im_end|>\\n; assistant always with a think block (reasoning_content, or the part of content before </think>), then its tool calls; a run of tool messages in ONE user turn. Finally the generation prompt.",
      formula:
        "assistant = '<|im_start|>assistant\\n<think>\\n' + reasoning.strip('\\n') + '\\n</think>\\n\\n' + content.lstrip('\\n') + calls + '<|im_end|>\\n'. " +
        "JSON as Python's json.dumps: ', ' and ': ' separators. MiniMind: model/tokenizer_config.json:333 @ d65ef2c.",
    },
  },
};

export default hints;
