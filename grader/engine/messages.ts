/**
 * What the parent accepts from the learner's process: every message is checked against a schema
 * before anything reads it. The learner's code owns that process and its IPC channel, so a message
 * may be anything Node's serialisation can carry (a tensor whose data is null, a shape that does
 * not match its data, a cycle, a getter): such a message is refused here with a plain reason,
 * never passed on to a comparison that would crash on it. No TensorFlow.js here.
 */
import { z } from "zod";
import type { Encoded } from "./encoded.js";
import type { CaseOutput } from "./outputs.js";
import type { LearnerMessage, ProbeOutput } from "./protocol.js";

const name = z.string().max(1_000);
const dims = z.array(z.number().int().nonnegative()).max(16);
const tensorData = z.union([z.instanceof(Float32Array), z.instanceof(Int32Array), z.instanceof(Uint8Array), z.array(z.number())]);

// Discriminated on `t` (one lookup a node, no failing branches to build errors for: a plain union
// made grading a large case seconds slower). zod 3's discriminatedUnion takes no refined members,
// so the checks between fields (data against shape, keys against values) follow in consistent().
const encodedNode: z.ZodType<Encoded> = z.lazy(() =>
  z.discriminatedUnion("t", [
    z.object({ t: z.literal("tensor"), shape: dims, dtype: z.string().max(20), data: tensorData }),
    z.object({ t: z.literal("disposed-tensor"), shape: dims, dtype: z.string().max(20) }),
    z.object({ t: z.literal("number"), v: z.number() }),
    z.object({ t: z.literal("string"), v: z.string() }),
    z.object({ t: z.literal("boolean"), v: z.boolean() }),
    z.object({ t: z.literal("undefined") }),
    z.object({ t: z.literal("null") }),
    z.object({ t: z.literal("promise") }),
    z.object({ t: z.literal("array"), items: z.array(encodedNode) }),
    z.object({ t: z.literal("object"), keys: z.array(z.string()), values: z.array(encodedNode), ordered: z.literal(true).optional() }),
    z.object({ t: z.literal("other"), what: z.string().max(1_000) }),
  ]),
) as z.ZodType<Encoded>;

/** Why an encoded value's fields disagree with each other (a tensor's data and shape, an object's keys and values), or undefined. */
function inconsistency(e: Encoded, path: string): string | undefined {
  switch (e.t) {
    case "tensor":
      return e.data.length === e.shape.reduce((a, b) => a * b, 1) ? undefined : `a tensor's data does not match its shape at ${path || "the result"}`;
    case "array":
      for (let i = 0; i < e.items.length; i++) {
        const why = inconsistency(e.items[i], `${path}[${i}]`);
        if (why) return why;
      }
      return undefined;
    case "object":
      if (e.keys.length !== e.values.length) return `an object's keys do not match its values at ${path || "the result"}`;
      for (let i = 0; i < e.values.length; i++) {
        const why = inconsistency(e.values[i], path ? `${path}.${e.keys[i]}` : e.keys[i]);
        if (why) return why;
      }
      return undefined;
    default:
      return undefined;
  }
}

const encoded = encodedNode.superRefine((e, ctx) => {
  const why = inconsistency(e, "");
  if (why) ctx.addIssue({ code: z.ZodIssueCode.custom, message: why });
}) as unknown as z.ZodType<Encoded>;

const ms = z.number();
const inputsHash = z.string().max(200).optional();
const inputs = z.array(z.string().max(4_000)).max(100).optional();
const caseOutput: z.ZodType<CaseOutput> = z.discriminatedUnion("status", [
  z.object({ status: z.literal("ok"), value: encoded, leaked: z.number().int(), mutated: z.array(z.string().max(2_000)).max(1_000), ms, inputsHash, inputs }),
  z.object({ status: z.literal("not-implemented"), message: z.string(), ms, inputsHash, inputs }),
  z.object({
    status: z.literal("error"),
    message: z.string(),
    location: z.string().optional(),
    details: z.array(z.string()).max(100).optional(),
    loadError: z.boolean().optional(),
    ms,
    inputsHash,
    inputs,
  }),
]) as z.ZodType<CaseOutput>;

const probeOutput: z.ZodType<ProbeOutput> = z.object({ label: z.string().max(1_000), output: caseOutput });

const learnerMessage: z.ZodType<LearnerMessage> = z.discriminatedUnion("type", [
  z.object({ type: z.literal("loaded"), backend: z.string().max(50) }),
  z.object({ type: z.literal("start"), exercise: name, case: name }),
  z.object({ type: z.literal("output"), exercise: name, case: name, output: caseOutput }),
  z.object({ type: z.literal("done") }),
  z.object({ type: z.literal("probe"), exercise: name, case: name, outputs: z.array(probeOutput).max(1_000) }),
]) as z.ZodType<LearnerMessage>;

/** A learner message that failed its schema, and which case it named when that much could be read. */
export interface MalformedMessage {
  malformed: string;
  /** The case it names, when its `type` is "output" and its exercise and case are plain strings. */
  exercise?: string;
  case?: string;
}

/**
 * The message, when it fits the protocol exactly; otherwise why not (one line), with the case it
 * names when that is readable, so that case can fail with a plain message.
 */
export function checkLearnerMessage(raw: unknown): { message: LearnerMessage } | MalformedMessage {
  let parsed: ReturnType<typeof learnerMessage.safeParse>;
  try {
    parsed = learnerMessage.safeParse(raw);
  } catch (err) {
    // A getter that throws, a structure too deep for the validator: unreadable, whatever it says.
    return { malformed: `it could not be read (${err instanceof Error ? err.message.split("\n")[0] : String(err)})`, ...namedCase(raw) };
  }
  if (parsed.success) return { message: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return { malformed: `${issue.message}${where}`, ...namedCase(raw) };
}

function namedCase(raw: unknown): { exercise?: string; case?: string } {
  try {
    if (raw === null || typeof raw !== "object") return {};
    const m = raw as Record<string, unknown>;
    if (m.type === "output" && typeof m.exercise === "string" && typeof m.case === "string") return { exercise: m.exercise, case: m.case };
  } catch {
    // unreadable
  }
  return {};
}

/**
 * Learner output as a terminal may show it: control characters (cursor moves, erase-line, hidden
 * text, bells, carriage returns) become visible `\xNN` / `\u{…}` escapes; newline and tab stay.
 */
export function visibleControl(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

/** A learner's case output with every text the learner's code decides (messages, details, locations) passed through visibleControl. */
export function plainOutput(raw: CaseOutput): CaseOutput {
  const o = raw.inputs ? { ...raw, inputs: raw.inputs.map(visibleControl) } : raw;
  switch (o.status) {
    case "ok":
      return { ...o, mutated: o.mutated.map(visibleControl) };
    case "not-implemented":
      return { ...o, message: visibleControl(o.message) };
    case "error":
      return { ...o, message: visibleControl(o.message), ...(o.location !== undefined ? { location: visibleControl(o.location) } : {}), ...(o.details ? { details: o.details.map(visibleControl) } : {}) };
  }
}
