/**
 * The text of a student edition fits the edition: its README, lessons, hints and stubs name only files
 * the edition ships and `npm run` scripts its package.json has.
 *
 * - `courseMentions` finds what a text points at: markdown links (relative to the file), course
 *   paths (`lib/…`, `test/…`, `exercises/lesson-23/ppo.ts:12`, `tools/parity/`) and `npm run X`.
 *   Paths of the cited projects (`trainer/train_ppo.py:36-48` @ d65ef2c, AReaL's `docs/en/…`
 *   @ 4aef98d8), placeholders (`lesson-NN/`) and what the course writes when it runs (`labs/*\/out/`,
 *   `runs/`, `site/`) are not mentions.
 * - `adaptText` rewrites a text for an edition: a code line naming something absent goes, a code
 *   span or link naming it becomes words ("the course's test suite", "lesson 23 (not released
 *   yet)").
 * - `editionTextProblems` lists what still points nowhere in a built edition (the release's test).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/** Top-level names of the course: a path mention starts with one of them. */
const COURSE_TOP = new Set(["lessons", "exercises", "solutions", "grader", "datasets", "lib", "labs", "tools", "test", "docs", "stubs", ".ci"]);

/** What the course writes when it runs: named in texts, never shipped. */
const RUN_OUTPUT = [/^datasets\/corpus\/pretrain\.jsonl$/, /(^|\/)out(\/|$)/, /^runs\//, /^site\//, /^capstone\//, /^\.backups\//, /^\.grader-build\//, /NN/, /[<>{}]/];

export type Mention =
  | { kind: "link"; target: string; path: string; line: number }
  | { kind: "path"; path: string; line: number }
  | { kind: "script"; script: string; line: number };

const LINK = /\[([^\]]*)\]\(([^)\s]+)\)/g;
const PATH = /(?<![\w.\/@-])((?:\.{1,2}\/)?[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.*-]+)*\/?)(:\d+(?:-\d+)?)?/g;
const SCRIPT = /\bnpm run(?: -s| --silent)? ([a-z][\w:-]*)/g;
const UPSTREAM = /^`?\s*@\s*[0-9a-f]{7}/;

/** A path-like token's course path (no line suffix, no leading ./), or undefined when it is not one. */
function coursePath(token: string): string | undefined {
  const p = token.replace(/^\.\//, "").replace(/\.+$/, "");
  const top = p.split("/")[0];
  if (!COURSE_TOP.has(top) || !p.includes("/") && !COURSE_TOP.has(p)) return undefined;
  if (!p.includes("/")) return undefined;
  if (RUN_OUTPUT.some((r) => r.test(p))) return undefined;
  return p;
}

/**
 * What `text` (the file `file`, relative to the edition's root) points at: links, course paths
 * and npm scripts, each with its 1-based line.
 */
export function courseMentions(text: string, file: string): Mention[] {
  const out: Mention[] = [];
  const isMarkdown = file.endsWith(".md");
  text.split("\n").forEach((lineText, i) => {
    const line = i + 1;
    const linked = new Set<string>();
    if (isMarkdown) {
      for (const m of lineText.matchAll(LINK)) {
        const target = m[2];
        if (/^[a-z][\w+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("/")) continue;
        const path = normalize(join(dirname(file), target.split("#")[0])).split("\\").join("/");
        linked.add(m[2]);
        if (path !== "" && path !== ".") out.push({ kind: "link", target, path, line });
      }
    }
    for (const m of lineText.matchAll(SCRIPT)) out.push({ kind: "script", script: m[1], line });
    for (const m of lineText.matchAll(PATH)) {
      if (linked.has(m[1])) continue;
      const after = lineText.slice((m.index ?? 0) + m[0].length);
      if (UPSTREAM.test(after)) continue;
      const path = coursePath(m[1]);
      if (path) out.push({ kind: "path", path, line });
    }
  });
  return out;
}

/** What an edition has: a file test, and its package.json's scripts. */
export interface EditionShape {
  exists(path: string): boolean;
  scripts: ReadonlySet<string>;
}

/** Whether a path (maybe a directory, maybe a glob like test/*.ts) is in the edition. */
function pathPresent(path: string, shape: EditionShape): boolean {
  const star = path.indexOf("*");
  const p = (star >= 0 ? path.slice(0, path.lastIndexOf("/", star)) : path).replace(/\/$/, "");
  return p === "" || shape.exists(p);
}

/** Whether a mention points at something the edition has. */
export function mentionPresent(m: Mention, shape: EditionShape): boolean {
  if (m.kind === "script") return shape.scripts.has(m.script);
  return pathPresent(m.path, shape);
}

/** Words for something the edition does not have, to stand where its path or command stood. */
export function describeAbsent(what: string, shape?: EditionShape): string {
  if (/^test\//.test(what)) return "the full course's test suite";
  if (/^docs\/AUTHORING/.test(what)) return "the course's authoring guide";
  if (/parity/.test(what)) return "the full course's PyTorch parity scripts";
  if (/mutants|variants/.test(what)) return "the full course's known wrong versions";
  if (/^tools\/bench/.test(what) || /^npm run bench/.test(what)) return "the full course's benchmarks";
  if (/^npm run /.test(what)) return `the full course's ${what.split(" ")[2]} command`;
  const lessonText = /^lessons\/(\d+)-[\w-]+\.md/.exec(what);
  if (lessonText) return `lesson ${Number(lessonText[1])} (not released yet)`;
  const lessonFolder = /^(exercises|grader|stubs)\/lesson-(\d+)/.exec(what);
  if (lessonFolder && !shape?.exists(`exercises/lesson-${lessonFolder[2]}`)) return `lesson ${lessonFolder[2]}'s ${lessonFolder[1] === "grader" ? "grading" : "exercises"} (not released yet)`;
  if (/^solutions\/lesson-(\d+)/.test(what)) return `the reference solution of ${/lesson-\d+/.exec(what)![0]} (not published in this edition)`;
  if (/^solutions\/?$/.test(what)) return "the reference solutions";
  return "a file of the full course";
}

const FENCE = /^\s*(```|~~~)/;

/**
 * `text` rewritten for an edition of shape `shape`: in code blocks a line naming something absent
 * is dropped (a command the edition lacks); elsewhere a table row whose first cell names it goes,
 * and a code span, link or bare path naming it becomes words (`describeAbsent`).
 */
export function adaptText(text: string, file: string, shape: EditionShape): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let fenced = false;
  for (const lineText of lines) {
    if (FENCE.test(lineText)) {
      fenced = !fenced;
      out.push(lineText);
      continue;
    }
    const missing = courseMentions(lineText, file).filter((m) => !mentionPresent(m, shape));
    if (missing.length === 0) {
      out.push(lineText);
      continue;
    }
    if (fenced) continue;
    if (file.endsWith(".md") && /^\s*\|/.test(lineText) && missing.some((m) => firstCell(lineText).includes(m.kind === "script" ? m.script : m.kind === "link" ? m.target : m.path))) continue;
    out.push(rewriteLine(lineText, file, shape));
  }
  return out.join("\n");
}

function firstCell(row: string): string {
  return row.split("|")[1] ?? "";
}

/** One line with every absent link, code span, script and path replaced by words. */
function rewriteLine(lineText: string, file: string, shape: EditionShape): string {
  const absent = (s: string) => courseMentions(s, file).some((m) => !mentionPresent(m, shape));
  // Links: keep the text, drop the target.
  let s = lineText.replace(LINK, (whole, label: string, target: string) => {
    if (!file.endsWith(".md") || !absent(whole)) return whole;
    const path = normalize(join(dirname(file), target.split("#")[0])).split("\\").join("/");
    if (/^lessons\/zh\/\d+-/.test(path)) return `${label}（尚未发布）`;
    return /^lessons\/\d+-/.test(path) ? `${label} (not released yet)` : label;
  });
  // Code spans that name something absent become words.
  s = s.replace(/`([^`]+)`/g, (whole, inner: string) => {
    if (!absent(inner)) return whole;
    const m = courseMentions(inner, file).find((x) => !mentionPresent(x, shape))!;
    return describeAbsent(m.kind === "script" ? `npm run ${m.script}` : m.path, shape);
  });
  // Bare commands and paths left outside code spans.
  s = s.replace(SCRIPT, (whole, script: string) => (shape.scripts.has(script) ? whole : describeAbsent(`npm run ${script}`, shape)));
  s = s.replace(PATH, (whole, token: string, _suffix: string | undefined, offset: number) => {
    const path = coursePath(token);
    if (!path || pathPresent(path, shape)) return whole;
    if (UPSTREAM.test(s.slice(offset + whole.length))) return whole;
    return describeAbsent(path, shape) + (/\.+$/.exec(token)?.[0] ?? "");
  });
  // "(the full course's test suite, the full course's test suite)": once is enough.
  return s.replace(/(the full course's [\w ]+?)(, \1)+(?=\W)/g, "$1");
}

/** An edition folder's shape: its files, and its package.json's scripts. */
export function folderShape(dir: string): EditionShape {
  let scripts: string[] = [];
  try {
    scripts = Object.keys((JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts?: Record<string, string> }).scripts ?? {});
  } catch {
    /* no package.json: no scripts */
  }
  return { exists: (p) => existsSync(join(dir, p)), scripts: new Set(scripts) };
}

/** The files of an edition whose text is checked: README.md, lessons/*.md and lessons/zh/*.md, the hints, exercises/ and stubs/ .ts files. */
export function checkedTextFiles(dir: string): string[] {
  const files = existsSync(join(dir, "README.md")) ? ["README.md"] : [];
  const lessons = join(dir, "lessons");
  if (existsSync(lessons)) files.push(...readdirSync(lessons).filter((f) => f.endsWith(".md")).sort().map((f) => `lessons/${f}`));
  // The Chinese lessons (lessons/zh/) are checked like the English ones.
  const zh = join(lessons, "zh");
  if (existsSync(zh)) files.push(...readdirSync(zh).filter((f) => f.endsWith(".md")).sort().map((f) => `lessons/zh/${f}`));
  const grader = join(dir, "grader");
  if (existsSync(grader)) files.push(...readdirSync(grader).filter((d) => /^lesson-\d+$/.test(d) && existsSync(join(grader, d, "hints.ts"))).sort().map((d) => `grader/${d}/hints.ts`));
  for (const top of ["exercises", "stubs"]) {
    const root = join(dir, top);
    if (!existsSync(root)) continue;
    for (const f of readdirSync(root, { recursive: true }).map(String).sort()) {
      const full = join(root, f);
      if (f.endsWith(".ts") && statSync(full).isFile()) files.push(relative(dir, full).split("\\").join("/"));
    }
  }
  return files;
}

/** Every mention in an edition's README, lessons and stubs that points at nothing there: "file:line: what". */
export function editionTextProblems(dir: string): string[] {
  const shape = folderShape(dir);
  const problems: string[] = [];
  for (const file of checkedTextFiles(dir)) {
    for (const m of courseMentions(readFileSync(join(dir, file), "utf8"), file)) {
      if (mentionPresent(m, shape)) continue;
      const what = m.kind === "script" ? `\`npm run ${m.script}\`: no such script in package.json` : m.kind === "link" ? `link ${m.target}: ${m.path} is not in the edition` : `${m.path} is not in the edition`;
      problems.push(`${file}:${m.line}: ${what}`);
    }
  }
  return problems;
}
