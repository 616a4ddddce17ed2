/**
 * The course website, checked in a real browser (Debian's chromium driven by playwright-core):
 * the site is built into a temporary folder and served on localhost; every written lesson loads
 * without console errors, its math is rendered by KaTeX, every internal link resolves, and the
 * default build publishes no solution code. A screenshot of lesson 23 is kept in site-screenshots/
 * for review. Lessons are discovered, so the checks follow whatever lessons exist.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG, MODULE_TITLES, findLesson } from "../lib/catalog.js";
import { ROOT, paths } from "../grader/engine/paths.js";
import { generateStub } from "../lib/stubs.js";
import { buildSite, pageName, type BuildResult } from "../tools/site/build.js";
import { serveStatic, type RunningServer } from "../tools/site/serve.js";

const CHROMIUM = process.env.COURSE_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const SCREENSHOTS = join(ROOT, "site-screenshots");
const written = CATALOG.filter((l) => existsSync(join(paths.lessons, l.file)));
// Without chromium the browser checks are skipped on a learner's machine, never in CI.
const browserReady = existsSync(CHROMIUM) || process.env.CI !== undefined;
if (!browserReady) console.warn(`site.test.ts: no browser at ${CHROMIUM} (apt-get install -y chromium, or set COURSE_CHROMIUM): browser checks skipped`);

/** The text a reader sees in an HTML document: tags removed, entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

function siteText(dir: string): string {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".html"))
    .map((f) => visibleText(readFileSync(join(dir, f), "utf8")))
    .join("\n");
}

/**
 * Lines only a reference solution contains: inside its BEGIN/END SOLUTION regions, long enough to
 * be distinctive, and in neither the stub nor any lesson's text (a lesson may quote a line).
 */
function solutionOnlyLines(): string[] {
  const lessonText = written.map((l) => readFileSync(join(paths.lessons, l.file), "utf8")).join("\n");
  const out: string[] = [];
  for (const lesson of existsSync(paths.solutions) ? readdirSync(paths.solutions) : []) {
    for (const f of readdirSync(join(paths.solutions, lesson)).filter((n) => n.endsWith(".ts"))) {
      const text = readFileSync(join(paths.solutions, lesson, f), "utf8");
      const stub = generateStub(text, lesson, f);
      let inside = false;
      for (const line of text.split("\n")) {
        if (/\/\/ BEGIN SOLUTION/.test(line)) inside = true;
        else if (/\/\/ END SOLUTION/.test(line)) inside = false;
        else if (inside && line.trim().length >= 16 && !stub.includes(line.trim()) && !lessonText.includes(line.trim())) out.push(line.trim());
      }
    }
  }
  return out;
}

describe("the course website", () => {
  let site: BuildResult;
  let withSolutions: BuildResult;
  let server: RunningServer;
  let context: BrowserContext | undefined;
  const temp: string[] = [];
  const fresh = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    temp.push(dir);
    return dir;
  };

  beforeAll(async () => {
    site = buildSite({ outDir: join(fresh("course-site-"), "site") });
    withSolutions = buildSite({ outDir: join(fresh("course-site-solutions-"), "site"), withSolutions: true });
    server = await serveStatic(site.outDir, 0);
    if (browserReady) {
      context = await chromium.launchPersistentContext(fresh("course-chromium-profile-"), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    }
  });

  afterAll(async () => {
    await context?.close();
    await server?.close();
    for (const dir of temp) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a page and collects everything that went wrong while it loaded. */
  async function open(url: string): Promise<{ page: Page; errors: string[] }> {
    const page = await context!.newPage();
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`console: ${m.text()}`);
    });
    page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
    page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()}`));
    page.on("response", (r) => {
      if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    await page.goto(url, { waitUntil: "load" });
    return { page, errors };
  }

  it("builds with no broken math and no link to a missing file", () => {
    expect(site.problems).toEqual([]);
    expect(site.lessons.map((l) => l.id)).toEqual(written.map((l) => l.id));
  });

  it("publishes no solution code by default, and all of it with --with-solutions, collapsed", () => {
    const lines = solutionOnlyLines();
    const plain = siteText(site.outDir);
    expect(lines.filter((l) => plain.includes(l))).toEqual([]);
    const published = siteText(withSolutions.outDir);
    const writtenWithSolutions = written.filter((l) => existsSync(join(paths.solutions, l.id)));
    if (writtenWithSolutions.length > 0) {
      const shownLines = writtenWithSolutions.flatMap((l) =>
        readdirSync(join(paths.solutions, l.id)).flatMap((f) => readFileSync(join(paths.solutions, l.id, f), "utf8").split("\n").map((x) => x.trim())),
      );
      const expected = lines.filter((l) => shownLines.includes(l));
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.filter((l) => !published.includes(l))).toEqual([]);
      const html = readFileSync(join(withSolutions.outDir, pageName(writtenWithSolutions[0])), "utf8");
      expect(html).toMatch(/<details class="solution"><summary>/);
    }
    for (const f of readdirSync(withSolutions.outDir).filter((n) => n.endsWith(".html"))) {
      expect(readFileSync(join(withSolutions.outDir, f), "utf8"), f).not.toMatch(/<details[^>]*\bopen\b/);
    }
    for (const f of readdirSync(site.outDir).filter((n) => n.endsWith(".html"))) {
      expect(readFileSync(join(site.outDir, f), "utf8"), f).not.toContain('class="solution"');
    }
  });

  it("every internal link and resource on every page resolves, anchors included", async () => {
    // The pages are static (no script changes the DOM), so their HTML names every link.
    const broken: string[] = [];
    const seen = new Set<string>();
    for (const name of site.pages) {
      const html = await (await fetch(`${server.url}${name}`)).text();
      const urls = [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => new URL(m[1].replace(/&amp;/g, "&"), `${server.url}${name}`).href);
      for (const url of urls.filter((u) => u.startsWith(server.url))) {
        if (seen.has(url)) continue;
        seen.add(url);
        const [file, anchor] = url.split("#", 2);
        const res = await fetch(file);
        if (res.status !== 200) broken.push(`${name}: ${url} → HTTP ${res.status}`);
        else if (anchor && !(await res.text()).includes(`id="${anchor}"`)) broken.push(`${name}: ${url} → no element with id "${anchor}"`);
      }
    }
    expect(seen.size).toBeGreaterThan(site.pages.length);
    expect(broken).toEqual([]);
  });

  it("shows Common mistakes collapsed, and every Check-yourself question with its answer collapsed under it", () => {
    const problems: string[] = [];
    for (const lesson of written) {
      const html = readFileSync(join(site.outDir, pageName(lesson)), "utf8");
      // A section runs from its <h2> to the next <h2> (or the generated exercises section).
      const section = (id: string) => {
        const start = html.indexOf(`<h2 id="${id}"`);
        if (start < 0) return undefined;
        const rest = html.slice(html.indexOf("</h2>", start) + 5);
        const end = rest.search(/<h2[\s>]|<section class="exercise-files">/);
        return (end < 0 ? rest : rest.slice(0, end)).trim();
      };
      const mistakes = section("common-mistakes");
      if (mistakes === undefined) problems.push(`${lesson.id}: no Common mistakes section`);
      else if (!/^<details class="mistakes"><summary>[^<]+<\/summary>/.test(mistakes) || !mistakes.endsWith("</details>")) problems.push(`${lesson.id}: Common mistakes is not wholly inside <details>`);
      const check = section("check-yourself");
      if (check === undefined) {
        problems.push(`${lesson.id}: no Check yourself section`);
        continue;
      }
      const list = /<ol>([\s\S]*)<\/ol>/.exec(check)?.[1] ?? "";
      const items = list.split(/<li>/).slice(1);
      if (items.length < 3) problems.push(`${lesson.id}: Check yourself has ${items.length} questions`);
      items.forEach((item, n) => {
        const answers = item.match(/<details class="answer"><summary>Answer<\/summary>/g) ?? [];
        if (answers.length !== 1) problems.push(`${lesson.id}: question ${n + 1} has ${answers.length} collapsed answers`);
        // The question itself stays visible: text before the answer.
        if (visibleText(item.split("<details")[0]).trim().length < 10) problems.push(`${lesson.id}: question ${n + 1} has no visible question`);
      });
      if (/Answer[.:]/.test(visibleText(check.replace(/<details class="answer">[\s\S]*?<\/details>/g, "")))) problems.push(`${lesson.id}: an answer is not collapsed`);
    }
    expect(problems).toEqual([]);
  });

  it("gives code blocks their own horizontal scroll, so a long line cannot widen the page", () => {
    const css = readFileSync(join(site.outDir, "assets", "style.css"), "utf8");
    expect(css).toMatch(/pre\.hljs \{[^}]*overflow-x: auto/);
    expect(css).toMatch(/table \{[^}]*overflow-x: auto/);
    expect(css).toMatch(/\.math-display \{[^}]*overflow-x: auto/);
    // The grid column that holds the text may shrink below its content's width (min-width: 0).
    expect(css).toMatch(/minmax\(0, 1fr\)/);
    expect(css).toMatch(/main \{[^}]*min-width: 0/);
  });

  describe.skipIf(!browserReady)("in chromium", () => {
    it("the index lists every lesson by module, linking the written ones and marking the rest coming soon", async () => {
      const { page, errors } = await open(server.url);
      const modules = await page.locator("section.module h2").allTextContents();
      expect(modules).toEqual([...new Set(CATALOG.map((l) => MODULE_TITLES[l.module]))]);
      const items = await page.locator("ol.lessons li").allTextContents();
      expect(items.length).toBe(CATALOG.length);
      for (const [i, l] of CATALOG.entries()) {
        if (written.includes(l)) expect(await page.locator(`a[href="${pageName(l)}"]`).count(), l.id).toBeGreaterThan(0);
        else expect(items[i], l.id).toContain("coming soon");
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it.each(written.map((l) => [l.id, l] as const))("%s loads without errors, math rendered by KaTeX, with its table of contents", async (_id, lesson) => {
      const { page, errors } = await open(`${server.url}${pageName(lesson)}`);
      expect(await page.locator(".katex").count()).toBeGreaterThan(0);
      expect(await page.locator(".katex-error").count()).toBe(0);
      // What a reader sees outside code and rendered math must hold no TeX source.
      const prose = await page.evaluate(() => {
        const body = document.body.cloneNode(true) as HTMLElement;
        body.querySelectorAll("pre, code, .katex").forEach((e) => e.remove());
        return body.textContent ?? "";
      });
      expect(prose).not.toContain("$$");
      expect(prose.match(/\$[^$\n]*\\[a-zA-Z]+[^$\n]*\$/g) ?? []).toEqual([]);
      expect(await page.locator("nav.toc a").count()).toBeGreaterThan(3);
      const ids = await page.evaluate(() => [...document.querySelectorAll("[id]")].map((e) => e.id));
      expect(ids.filter((id, i) => ids.indexOf(id) !== i), "duplicate ids").toEqual([]);
      expect(await page.title()).toContain(lesson.title);
      // Collapsed on load: no mistake or answer is visible until the reader opens it.
      expect(await page.locator("details.mistakes[open], details.answer[open]").count()).toBe(0);
      expect(await page.locator("details.mistakes li").first().isVisible()).toBe(false);
      // Nothing widens the page, at a desktop and at a phone width: long code lines scroll inside their block.
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        const overflow = await page.evaluate(() => {
          const page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
          const pres = [...document.querySelectorAll("pre")].filter((p) => p.scrollWidth > p.clientWidth && !["auto", "scroll"].includes(getComputedStyle(p).overflowX));
          return { page, clippedPres: pres.length };
        });
        expect(overflow, `width ${width}`).toEqual({ page: 0, clippedPres: 0 });
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it("writes a screenshot of lesson 23 (or of the index until lesson 23 exists) to site-screenshots/", async () => {
      const lesson = findLesson("lesson-23")!;
      const has23 = written.includes(lesson);
      const { page } = await open(`${server.url}${has23 ? pageName(lesson) : ""}`);
      mkdirSync(SCREENSHOTS, { recursive: true });
      const file = join(SCREENSHOTS, has23 ? "lesson-23.png" : "index.png");
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: file, fullPage: true });
      await page.close();
      expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG");
    });

    it("renders a synthetic lesson: inline and display math, money, code, citations and links", async () => {
      const lessons = fresh("course-lessons-");
      const [first, second, unwritten] = CATALOG;
      writeFileSync(
        join(lessons, first.file),
        [
          `# Lesson ${first.number} — synthetic`,
          "## The idea",
          "Inline $\\rho = \\exp(a - b)$, money like $5 and $6, and a display block:",
          "",
          "$$",
          "\\frac{\\sum_t m_t x_t}{\\max(\\sum_t m_t, 1)}",
          "$$",
          "",
          "```ts",
          "const price = `$${cost}`; // $not math$",
          "```",
          "",
          `See \`trainer/train_ppo.py:139-150\` @ d65ef2c, [the next lesson](${second.file}#the-idea) and [a later one](${unwritten.file}).`,
        ].join("\n"),
      );
      writeFileSync(join(lessons, second.file), `# Lesson ${second.number}\n## The idea\n$$x^2$$\n`);
      const built = buildSite({ outDir: join(fresh("course-site-synthetic-"), "site"), lessonsDir: lessons });
      expect(built.problems).toEqual([]);
      const local = await serveStatic(built.outDir, 0);
      try {
        const { page, errors } = await open(`${local.url}${pageName(first)}`);
        expect(await page.locator("main .katex").count()).toBe(2);
        expect(await page.locator(".katex-display").count()).toBe(1);
        const prose = await page.locator("article").innerText();
        expect(prose).toContain("money like $5 and $6");
        expect(await page.locator("pre code").first().innerText()).toContain("$not math$");
        expect(await page.locator("a.citation").getAttribute("href")).toBe(
          "https://github.com/jingyaogong/minimind/blob/d65ef2c00ebc6082f9df11541e1b191655eddb00/trainer/train_ppo.py#L139-L150",
        );
        expect(await page.locator(`a[href="${pageName(second)}#the-idea"]`).count()).toBe(1);
        expect(await page.locator("span.repo-path").count()).toBe(1);
        expect(await page.locator('nav.pager a[rel="next"]').first().getAttribute("href")).toBe(pageName(second));
        expect(errors).toEqual([]);
        await page.close();
      } finally {
        await local.close();
      }
    });
  });

  it("`npm run site -- --serve` prints its URL and serves the site; bad options exit 2", async () => {
    const out = join(fresh("course-site-cli-"), "site");
    const child = spawn(process.execPath, ["--import", "tsx", "tools/site/cli.ts", "--out", out, "--serve", "--port", "0", "--no-workspace"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = "";
        child.stdout.on("data", (d: Buffer) => {
          text += d.toString();
          const m = /serving .* at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(text);
          if (m) resolve(m[1]);
        });
        child.on("exit", (code) => reject(new Error(`site --serve exited with ${code}: ${text}`)));
      });
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("<ol class=\"lessons\">");
    } finally {
      child.kill("SIGINT");
    }
    const bad = spawn(process.execPath, ["--import", "tsx", "tools/site/cli.ts", "--port", "x"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    bad.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => bad.on("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain("--port needs a port number");
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
