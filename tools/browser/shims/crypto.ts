/**
 * node:crypto for the browser bundles of tools/browser/: `createHash("sha256")`, synchronous, as
 * the grader hashes a case's inputs (encoded.ts) and the frozen expectations store the same hex
 * digest. Plain JavaScript SHA-256 (FIPS 180-4); Web Crypto's digest is asynchronous, which the
 * grader's synchronous hashing cannot wait for.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

class Sha256 {
  private h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  private block = new Uint8Array(64);
  private used = 0;
  private bytes = 0;
  private w = new Uint32Array(64);

  update(data: string | ArrayBufferView | ArrayBuffer): this {
    const b = typeof data === "string" ? new TextEncoder().encode(data) : data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.bytes += b.length;
    let i = 0;
    while (i < b.length) {
      const n = Math.min(64 - this.used, b.length - i);
      this.block.set(b.subarray(i, i + n), this.used);
      this.used += n;
      i += n;
      if (this.used === 64) {
        this.compress();
        this.used = 0;
      }
    }
    return this;
  }

  digest(encoding?: "hex"): string | Uint8Array {
    const bits = this.bytes * 8;
    this.update(new Uint8Array([0x80]));
    while (this.used !== 56) this.update(new Uint8Array([0]));
    const len = new Uint8Array(8);
    new DataView(len.buffer).setUint32(0, Math.floor(bits / 2 ** 32));
    new DataView(len.buffer).setUint32(4, bits >>> 0);
    this.update(len);
    const out = new Uint8Array(32);
    const view = new DataView(out.buffer);
    this.h.forEach((x, i) => view.setUint32(i * 4, x));
    return encoding === "hex" ? Array.from(out, (x) => x.toString(16).padStart(2, "0")).join("") : out;
  }

  private compress(): void {
    const w = this.w;
    const view = new DataView(this.block.buffer);
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(t * 4);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15];
      const b = w[t - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, h] = this.h;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[t] + w[t]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    const H = this.h;
    H[0] += a;
    H[1] += b;
    H[2] += c;
    H[3] += d;
    H[4] += e;
    H[5] += f;
    H[6] += g;
    H[7] += h;
  }
}

/** A synchronous hash: only "sha256", with `update(text | bytes)` and `digest("hex")`. */
export function createHash(algorithm: string): Sha256 {
  if (algorithm !== "sha256") throw new Error(`the browser's node:crypto stand-in has sha256 only, not ${algorithm}`);
  return new Sha256();
}

export default { createHash };
