/**
 * Continuous batching, what vLLM does beyond MiniMind's one-request-at-a-time server: the
 * generations in flight are the rows of one batch and share every decoding step, one forward pass
 * of the model for all of them; rows join and leave between steps, so a new request does not wait
 * for the others to finish, and a finished one frees its row at once.
 *
 * The rows' key/value caches are one tensor per layer, [B, T, Hkv, D]: every row's cache has the
 * batch's length T, and a row whose sequence is shorter (length L) sits at the right, after T − L
 * padding columns that the attention mask hides (MiniMind's padding mask, (1 − mask)·(−1e9)). Its
 * tokens are therefore at positions T − L … T − 1, not 0 … L − 1: RoPE makes attention depend only
 * on the distance between a query and a key, so a row shifted by a constant attends exactly as it
 * would alone (up to float rounding). That lets the model's own forward pass (one position for the
 * whole batch) serve rows of different lengths, where vLLM's paged attention keeps a position per
 * token instead.
 *
 * A row joins with a prefill: its sequence through the model (with the others joining at the same
 * step), on T − L masked zero keys, so that its cache comes out T long and concatenates onto the
 * batch's. The batch's position grows by one every step while it is not empty, but its cache need
 * not: when rows leave, the columns that are padding in every remaining row are cut off at the
 * left, and the batch remembers the position of its first column (`base`), so the cache stays as
 * wide as its longest row instead of the number of steps since the batch began (a busy server would
 * otherwise attend over ever more padding). A row longer than T joins by putting columns back at
 * the left, as far as `base` allows; otherwise it waits, first in line, until the batch empties and
 * a new one starts. When the batch's position reaches the end of the RoPE table, every row is
 * preempted: its cache is dropped and it waits again with its prompt and what it generated so far,
 * to be prefilled anew (vLLM's preemption by recomputation). A row whose own next token would fall
 * past the table ends there ("length"), as it would alone.
 */
import * as tf from "../tf.js";
import type { MiniMindTS } from "../model/model.js";
import type { KvEntry } from "../model/types.js";

/** One generation as the batcher sees it. */
export interface BatchJob {
  id: string;
  promptIds: number[];
  maxNewTokens: number;
  /** Chooses the next token from this row's last logits [V] (greedy, or a sampler with its own seed). */
  pick: (logits: Float32Array) => number;
}

export type RowEnd = "eos" | "length" | "cancelled";

/** Where the batcher's results go: every token as it is chosen (with its logits row), and every row's end. */
export interface BatchSink {
  token: (id: string, token: number, logits: Float32Array) => void;
  end: (id: string, reason: RowEnd) => void;
}

interface Row {
  job: BatchJob;
  /** Prompt and generated tokens; the last one is not in the cache yet. */
  tokens: number[];
  produced: number;
}

/** Index of the largest value (the first one when tied): greedy decoding. */
export function argmax(values: Float32Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

export class ContinuousBatcher {
  private rows: Row[] = [];
  private readonly waiting: Row[] = [];
  private readonly cancelled = new Set<string>();
  /** Per layer, the rows' caches [B, T, Hkv, D]; null while the batch is empty. */
  private kv: KvEntry[] | null = null;
  /** Per row, 1 for a real position and 0 for padding, over the T cached positions. */
  private keep: number[][] = [];
  private T = 0;
  /** The position of the cache's first column (the columns cut off at the left so far): the next token goes at base + T. */
  private base = 0;

  constructor(
    private readonly model: MiniMindTS,
    private readonly maxBatch: number,
    private readonly sink: BatchSink,
  ) {}

  /** Rows in the batch and rows waiting to join. */
  get size(): { running: number; waiting: number } {
    return { running: this.rows.length, waiting: this.waiting.length };
  }

  /** T: the cache's width (the longest running row's tokens less its last, at most; 0 when empty). */
  get width(): number {
    return this.T;
  }

  get busy(): boolean {
    return this.rows.length > 0 || this.waiting.length > 0;
  }

  add(job: BatchJob): void {
    this.waiting.push({ job, tokens: [...job.promptIds], produced: 0 });
  }

  /** Stops a generation before the next step (its end is reported then). */
  cancel(id: string): void {
    const i = this.waiting.findIndex((r) => r.job.id === id);
    if (i >= 0) {
      this.waiting.splice(i, 1);
      this.sink.end(id, "cancelled");
    } else if (this.rows.some((r) => r.job.id === id)) this.cancelled.add(id);
  }

  /** One scheduling step: drop cancelled rows, let waiting rows join, then decode one token for every row (or preempt them all at the end of the RoPE table). */
  step(): void {
    if (this.cancelled.size > 0) {
      const gone = this.rows.filter((r) => this.cancelled.has(r.job.id));
      this.cancelled.clear();
      this.removeRows(gone.map((r) => r.job.id));
      for (const r of gone) this.sink.end(r.job.id, "cancelled");
    }
    // Joining first: a new row's first token (from its prefill) does not wait for the others' step.
    this.admit();
    if (this.rows.length > 0 && this.base + this.T >= this.model.config.maxPositionEmbeddings) this.preemptAll();
    else if (this.rows.length > 0) this.decode();
  }

  /** Forgets every row, waiting or not, without reporting their ends (after a step failed). */
  reset(): void {
    this.rows = [];
    this.waiting.length = 0;
    this.cancelled.clear();
    this.keep = [];
    this.dispose();
    this.T = 0;
    this.base = 0;
  }

  /** Frees the caches. */
  dispose(): void {
    if (this.kv) tf.dispose(this.kv.flatMap((e) => [e.k, e.v]));
    this.kv = null;
  }

  /** The next token of every row in one forward pass: each row's last token at position base + T. */
  private decode(): void {
    const B = this.rows.length;
    const { logits, kv } = tf.tidy(() => {
      const ids = tf.tensor2d(this.rows.map((r) => [r.tokens[r.tokens.length - 1]]), [B, 1], "int32");
      const mask = tf.tensor2d(this.keep.map((k) => [...k, 1]), [B, this.T + 1], "int32");
      const out = this.model.forward(ids, { pastKv: this.kv, attentionMask: mask, useCache: true, startPosition: this.base + this.T });
      return { logits: out.logits.dataSync() as Float32Array, kv: out.pastKv! };
    });
    this.dispose();
    this.kv = kv;
    this.T++;
    for (const k of this.keep) k.push(1);
    const V = this.model.config.vocabSize;
    const finished: string[] = [];
    this.rows.forEach((row, i) => {
      if (!this.emit(row, logits.subarray(i * V, (i + 1) * V))) finished.push(row.job.id);
    });
    this.removeRows(finished);
  }

  /** Chooses and reports `row`'s next token; false when the row has ended (EOS, its budget, or the end of the RoPE table). */
  private emit(row: Row, logits: Float32Array): boolean {
    const token = row.job.pick(logits);
    row.tokens.push(token);
    row.produced++;
    this.sink.token(row.job.id, token, logits);
    // Its last token would be decoded at position tokens.length − 1 even alone: past the table, it cannot be.
    const full = row.tokens.length > this.model.config.maxPositionEmbeddings;
    const end: RowEnd | null = token === this.model.config.eosTokenId ? "eos" : row.produced >= row.job.maxNewTokens || full ? "length" : null;
    if (end) this.sink.end(row.job.id, end);
    return end === null;
  }

  /**
   * Waiting rows join, in order, while there is room and the first fits (L ≤ T, after widening the
   * cache by up to `base` columns); an empty batch starts as long as the rows it takes. Rows joining
   * at the same step are prefilled together.
   */
  private admit(): void {
    if (this.rows.length === 0 && this.waiting.length > 0) {
      this.dispose();
      this.keep = [];
      this.base = 0;
      this.T = Math.max(...this.waiting.slice(0, this.maxBatch).map((r) => r.tokens.length));
    }
    const group: Row[] = [];
    while (this.waiting.length > 0 && this.rows.length + group.length < this.maxBatch) {
      const short = this.waiting[0].tokens.length - this.T;
      if (short > 0 && short <= this.base) this.widen(short);
      else if (short > 0) break;
      group.push(this.waiting.shift()!);
    }
    if (group.length > 0) this.join(group);
  }

  /**
   * Puts `pad` padding columns back at the left of the running rows' cache and mask (rows chosen to
   * join at this step get theirs in join(), from the final T): T grows and base shrinks by `pad`.
   */
  private widen(pad: number): void {
    if (this.kv) {
      const before = this.kv;
      const left: [number, number][] = [[0, 0], [pad, 0], [0, 0], [0, 0]];
      this.kv = before.map((e) => tf.tidy(() => ({ k: tf.pad(e.k, left), v: tf.pad(e.v, left) })));
      tf.dispose(before.flatMap((e) => [e.k, e.v]));
    }
    this.keep = this.keep.map((k) => [...new Array<number>(pad).fill(0), ...k]);
    this.T += pad;
    this.base -= pad;
  }

  /** Cuts off the columns at the left that are padding in every row: T shrinks and base grows by as many. */
  private compact(): void {
    const cut = Math.min(...this.keep.map((k) => k.indexOf(1)));
    if (cut <= 0) return;
    const before = this.kv!;
    this.kv = before.map((e) => tf.tidy(() => ({ k: tf.slice(e.k, [0, cut, 0, 0], [-1, -1, -1, -1]), v: tf.slice(e.v, [0, cut, 0, 0], [-1, -1, -1, -1]) })));
    tf.dispose(before.flatMap((e) => [e.k, e.v]));
    this.keep = this.keep.map((k) => k.slice(cut));
    this.T -= cut;
    this.base += cut;
  }

  /**
   * Prefills `group` in one forward pass: row i's L_i tokens at positions T − L_i … T − 1 (its
   * input left-padded to the group's longest, on masked zero keys before that), chooses each row's
   * next token and adds the rows' caches to the batch.
   */
  private join(group: Row[]): void {
    const c = this.model.config;
    const k = group.length;
    const S = Math.max(...group.map((r) => r.tokens.length));
    const keep = group.map((r) => [...new Array<number>(this.T - r.tokens.length).fill(0), ...new Array<number>(r.tokens.length).fill(1)]);
    const { logits, kv } = tf.tidy(() => {
      const past = this.T > S ? tf.zeros([k, this.T - S, c.numKeyValueHeads, c.headDim]) as tf.Tensor4D : null;
      const ids = tf.tensor2d(group.map((r) => [...new Array<number>(S - r.tokens.length).fill(0), ...r.tokens]), [k, S], "int32");
      const masked = keep.some((row) => row.includes(0));
      const out = this.model.forward(ids, {
        pastKv: past && Array.from({ length: c.numHiddenLayers }, () => ({ k: past, v: past })),
        attentionMask: masked ? tf.tensor2d(keep, [k, this.T], "int32") : null,
        useCache: true,
        startPosition: this.base + this.T - S,
      });
      return { logits: tf.slice(out.logits, [0, S - 1, 0], [k, 1, -1]).dataSync() as Float32Array, kv: out.pastKv! };
    });
    const before = this.kv;
    this.kv = before ? before.map((e, l) => tf.tidy(() => ({ k: tf.concat([e.k, kv[l].k], 0), v: tf.concat([e.v, kv[l].v], 0) }))) : kv;
    if (before) tf.dispose([...before, ...kv].flatMap((e) => [e.k, e.v]));
    this.keep.push(...keep);
    this.rows.push(...group);
    const V = c.vocabSize;
    const finished = group.filter((row, i) => !this.emit(row, logits.subarray(i * V, (i + 1) * V))).map((r) => r.job.id);
    this.removeRows(finished);
  }

  /** Takes the rows `ids` out of the batch (their caches with them), then cuts the padding no row needs. */
  private removeRows(ids: string[]): void {
    if (ids.length === 0) return;
    const stay = this.rows.map((r, i) => (ids.includes(r.job.id) ? -1 : i)).filter((i) => i >= 0);
    this.rows = stay.map((i) => this.rows[i]);
    this.keep = stay.map((i) => this.keep[i]);
    if (stay.length === 0) {
      this.dispose();
      this.T = 0;
      this.base = 0;
      return;
    }
    const before = this.kv!;
    this.kv = before.map((e) => tf.tidy(() => ({ k: tf.gather(e.k, stay), v: tf.gather(e.v, stay) })));
    tf.dispose(before.flatMap((e) => [e.k, e.v]));
    this.compact();
  }

  /** Every row back to the front of the line, with its tokens so far, its cache dropped. */
  private preemptAll(): void {
    this.waiting.unshift(...this.rows);
    this.rows = [];
    this.keep = [];
    this.dispose();
    this.T = 0;
    this.base = 0;
  }
}
