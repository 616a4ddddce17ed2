/**
 * The agent runs' environment: the course's one tool, `calculate`, and how a tool call is executed.
 *
 * MiniMind evaluates `calculate_math` with Python's `eval` and no builtins
 * (trainer/train_agent.py:57-58, run under a one-second alarm at 84-95). The course parses the
 * expression instead: numbers, + - * / (and the × ÷ − a model writes), unary signs and
 * parentheses, nothing else, so no model output can run code. A hand-written parser of 40 lines,
 * not a library: the grammar is this small, and a general math library (mathjs) would accept far
 * more than the tool's description promises. The result is the bare value, as the course's SFT
 * conversations show it (`{"role": "tool", "content": "56832"}`), where MiniMind sends
 * `{"result": "…"}`; an unknown tool or a bad expression gives MiniMind's error object (143).
 */

/** The course's calculator, as the agent corpus declares it (datasets/corpus/agent.jsonl). */
export const CALCULATOR_TOOL = {
  type: "function",
  function: {
    name: "calculate",
    description: "Evaluate an arithmetic expression with + - × / and parentheses",
    parameters: { type: "object", properties: { expression: { type: "string", description: "for example 17*23" } }, required: ["expression"] },
  },
} as const;

/** Evaluates an arithmetic expression; throws an Error naming the position of the first problem. */
export function calculate(expression: string): number {
  const src = expression.replace(/×/g, "*").replace(/÷/g, "/").replace(/−/g, "-");
  let pos = 0;
  const skip = () => {
    while (src[pos] === " ") pos++;
  };
  const fail = (what: string): never => {
    throw new Error(`${what} at character ${pos + 1} of ${JSON.stringify(expression)}`);
  };
  const primary = (): number => {
    skip();
    if (src[pos] === "(") {
      pos++;
      const v = sum();
      skip();
      if (src[pos] !== ")") fail("expected )");
      pos++;
      return v;
    }
    if (src[pos] === "-" || src[pos] === "+") return src[pos++] === "-" ? -primary() : primary();
    const m = /^\d+(?:\.\d+)?/.exec(src.slice(pos));
    if (!m) fail("expected a number");
    pos += m![0].length;
    return Number(m![0]);
  };
  const product = (): number => {
    let v = primary();
    for (skip(); src[pos] === "*" || src[pos] === "/"; skip()) {
      const op = src[pos++];
      const r = primary();
      v = op === "*" ? v * r : v / r;
    }
    return v;
  };
  function sum(): number {
    let v = product();
    for (skip(); src[pos] === "+" || src[pos] === "-"; skip()) {
      const op = src[pos++];
      const r = product();
      v = op === "+" ? v + r : v - r;
    }
    return v;
  }
  if (src.length > 200) fail("longer than 200 characters");
  const value = sum();
  skip();
  if (pos < src.length) fail("unexpected text");
  if (!Number.isFinite(value)) fail("not a finite number (division by zero?)");
  return value;
}

/** A number as the tool writes it: integers exactly, other values rounded to 6 decimals. */
export function formatNumber(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(6)));
}

/**
 * The tool message for one call: the calculator's value, or MiniMind's `{"error": "tool not
 * found"}` for an unknown tool and for a call that fails (MiniMind maps both to None, 143).
 */
export function executeTool(name: string, args: Record<string, unknown>): string {
  if (name !== CALCULATOR_TOOL.function.name || typeof args.expression !== "string") return '{"error": "tool not found"}';
  try {
    return formatNumber(calculate(args.expression)).slice(0, 2048);
  } catch {
    return '{"error": "tool not found"}';
  }
}

/** Whether `text` states `answer` as a number (digits not glued to other digits, letters or a decimal point). */
export function statesNumber(text: string, answer: string): boolean {
  const found = text.replaceAll(",", "").match(/(?<![\p{L}\p{N}_.])-?\d+(?:\.\d+)?(?![\p{N}_]|\.\d)/gu) ?? [];
  return found.some((n) => Math.abs(Number(n) - Number(answer)) < 1e-6);
}
