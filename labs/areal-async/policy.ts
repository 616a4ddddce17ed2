/**
 * A toy policy whose per-token log-probabilities move as training publishes new versions.
 *
 * Every token position of every answer has a logit z that takes one step per version: a push the
 * training keeps applying (drawn once per token) plus fresh noise. The log-probability of the
 * sampled token at version v is log σ(z_v). It is not a language model, only something with the
 * property that matters here: the further apart two versions are, the further apart their
 * log-probabilities tend to be, and not along a straight line.
 */
import { Rng } from "../../lib/random.js";

export interface PolicyDrift {
  /** Std of each token's persistent per-version push on its logit. */
  trend: number;
  /** Std of the fresh per-version noise on the logit. */
  noise: number;
}

/** log σ(z), computed without overflow. */
function logSigmoid(z: number): number {
  return z >= 0 ? -Math.log1p(Math.exp(-z)) : z - Math.log1p(Math.exp(z));
}

export class ToyPolicy {
  /** answer id → token position → log π_v for v = 0..maxVersion. */
  private readonly answers = new Map<number, Float64Array[]>();

  constructor(
    private readonly seed: number,
    private readonly width: number,
    private readonly maxVersion: number,
    private readonly drift: PolicyDrift,
  ) {}

  /** log π_v(token t of answer `sampleId`), 0 ≤ t < width, 0 ≤ v ≤ maxVersion. */
  logp(sampleId: number, token: number, version: number): number {
    return this.answer(sampleId)[token][version];
  }

  /** The answer's log-probability trajectories, built once from a seed of its own. */
  private answer(sampleId: number): Float64Array[] {
    const cached = this.answers.get(sampleId);
    if (cached) return cached;
    const rng = new Rng(this.seed * 1_000_003 + sampleId);
    const tokens = Array.from({ length: this.width }, () => {
      const push = rng.normal(0, this.drift.trend);
      const z = new Float64Array(this.maxVersion + 1);
      z[0] = rng.normal(1, 1);
      for (let v = 1; v <= this.maxVersion; v++) z[v] = z[v - 1] + push + rng.normal(0, this.drift.noise);
      return z.map(logSigmoid);
    });
    this.answers.set(sampleId, tokens);
    return tokens;
  }
}
