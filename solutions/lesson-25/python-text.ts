/**
 * Lesson 25 — a fact, not an exercise: the whitespace characters of Python 3.11 (Unicode 14),
 * which MiniMind's reward rules rely on through `str.strip()` and the `\s` of `re`.
 *
 * JavaScript disagrees on six characters: Python's whitespace includes U+001C–U+001F and NEL
 * (U+0085), which JavaScript's `\s` and `trim()` leave alone, and excludes the byte-order mark
 * U+FEFF, which JavaScript treats as whitespace.
 */

/** Python's whitespace as the body of a RegExp character class: use it as `[${PY_WHITESPACE}]` with the `u` flag. */
export const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
