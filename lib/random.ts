/**
 * Seeded randomness (grader cases, data generators, training): the same seed gives the same numbers on every machine.
 * mulberry32 for uniforms, Box–Muller for normals.
 */
/** The salt every new Rng's seed is mixed with while `withSeedSalt` runs (0: none). */
let seedSalt = 0;

/** `seed` mixed with a non-zero `salt` (murmur3's finaliser over both): another stream for every seed. */
function salted(seed: number, salt: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ salt) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Runs `f` with every `new Rng(seed)` made inside it seeded from `seed` mixed with `salt`: the same
 * seeded generators, other numbers (the gradebook's hidden cases). Synchronous only; a salt of 0
 * changes nothing.
 */
export function withSeedSalt<T>(salt: number, f: () => T): T {
  const before = seedSalt;
  seedSalt = salt >>> 0;
  try {
    return f();
  } finally {
    seedSalt = before;
  }
}

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seedSalt === 0 ? seed >>> 0 : salted(seed, seedSalt);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  normal(mean = 0, std = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + std * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  normals(n: number, mean = 0, std = 1): Float32Array {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.normal(mean, std);
    return out;
  }

  uniforms(n: number, lo: number, hi: number): Float32Array {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.uniform(lo, hi);
    return out;
  }
}
