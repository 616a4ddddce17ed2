"""Golden fixtures for lesson 6: MiniMind's pretraining sample (dataset/lm_dataset.py:47-55 @ d65ef2c),
restated in minimind_data.py with a character-level tokenizer (bos 1, eos 2, pad 0).
Run: npm run fixtures lesson-6
"""
from common import MINIMIND, write_fixture
from minimind_data import pretrain_sample

TEXTS = [
    ("a short text, padded", "The cat sat.", 20),
    ("a text longer than maxLength - 2, cut", "Tokens beyond the window are dropped before bos and eos are added.", 16),
    ("exactly maxLength - 2 characters: no padding", "abcdefgh", 10),
    ("Chinese text", "小模型也能学会语言。", 14),
    ("a pad id inside the text is also -100", "a\u0000b", 8),
    ("the empty text", "", 4),
]


def main():
    cases = [{"name": name, "inputs": {"text": text, "maxLength": n}, "expected": pretrain_sample(text, n)} for name, text, n in TEXTS]
    write_fixture("lesson-6", f"{MINIMIND} dataset/lm_dataset.py:47-55 (character-level tokenizer)", {"pretrainSample": cases})


if __name__ == "__main__":
    main()
