/**
 * The instructor's secret (`--secret <file>`): 32 random bytes in a file outside the course, made on
 * first use. From it come the hidden cases' salts, one a lesson (HMAC-SHA256, so no salt tells the
 * secret or another lesson's salt), and the hash the grading cache is keyed on (never the secret).
 * Neither the secret nor its file ever goes into a course folder, an edition or a submission.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";

export interface Secret {
  /** The file it was read from. */
  file: string;
  /** Whether this run made the file. */
  created: boolean;
  /** sha256 of the secret, hex: what the cache keys on. */
  hash: string;
  /** The hidden-case salt of one lesson: a non-zero 32-bit number. */
  salt(lesson: string): number;
}

/** Where the secret lives when --secret is not given: the user's config folder, outside every course. */
export function defaultSecretFile(): string {
  const base = process.env.XDG_CONFIG_HOME && process.env.XDG_CONFIG_HOME !== "" ? process.env.XDG_CONFIG_HOME : join(homedir(), ".config");
  return join(base, "minimind-rl-course", "gradebook-secret");
}

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !rel.startsWith(sep));
}

/** The real path of `p`, or of its nearest existing folder joined with the rest. */
function realish(p: string): string {
  if (existsSync(p)) return realpathSync(p);
  const up = dirname(p);
  return up === p ? p : join(realish(up), relative(up, p));
}

/**
 * Reads the secret in `file`, making it (32 random bytes, readable by its owner only) when absent.
 * Throws an Error with a one-line message for a file inside one of `forbidden` (the course, the
 * submissions, the output folder), an empty or unreadable one.
 */
export function loadSecret(file: string, forbidden: ReadonlyArray<{ dir: string; what: string }>): Secret {
  const path = resolve(file);
  for (const f of forbidden) {
    if (inside(realish(path), realish(f.dir))) throw new Error(`--secret ${file} lies inside ${f.what}: keep the secret outside every course folder, edition and submission (e.g. ${defaultSecretFile()})`);
  }
  let created = false;
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(path, 0o600);
    created = true;
  }
  if (!statSync(path).isFile()) throw new Error(`--secret ${file}: that is not a file`);
  const key = readFileSync(path);
  if (key.toString("utf8").trim().length < 16) throw new Error(`--secret ${file}: the secret is shorter than 16 characters; delete the file and a new one is made`);
  return {
    file: path,
    created,
    hash: createHash("sha256").update(key).digest("hex"),
    salt(lesson: string): number {
      const n = createHmac("sha256", key).update(`hidden-cases/${lesson}`).digest().readUInt32BE(0);
      return n === 0 ? 1 : n;
    },
  };
}
