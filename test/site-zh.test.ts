/**
 * The site in both languages: English pages at the root, Chinese ones (from lessons/zh/) under
 * zh/ with `<html lang="zh-CN">`; every lesson page has a language switch, a link to the other
 * version when it exists and otherwise a note that it is not there yet (never a broken link);
 * the indexes link to each other. In chromium (Debian's, driven by playwright-core) the switch on a
 * lesson with both versions leads to the other version and back. A synthetic pair of lessons checks
 * the untranslated cases whatever lessons/zh/ holds today.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG } from "../lib/catalog.js";
import { paths } from "../grader/engine/paths.js";
import { buildSite, pageName, type BuildResult } from "../tools/site/build.js";
import { serveStatic, type RunningServer } from "../tools/site/serve.js";
import { createMarkdown } from "../tools/site/markdown.js";

const CHROMIUM = process.env.COURSE_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
// Without chromium the browser checks are skipped on a learner's machine, never in CI.
const browserReady = existsSync(CHROMIUM) || process.env.CI !== undefined;
if (!browserReady) console.warn(`site-zh.test.ts: no browser at ${CHROMIUM} (apt-get install -y chromium, or set COURSE_CHROMIUM): browser checks skipped`);
/** The first lesson of the course with both versions, if any is translated yet. */
const translated = CATALOG.find((l) => existsSync(join(paths.lessons, l.file)) && existsSync(join(paths.lessons, "zh", l.file)));

const temp: string[] = [];
const fresh = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temp.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

/** The language switch in a page's header: its href (none for the "not there yet" note) and text. */
function switchOf(html: string): { href?: string; text: string } | undefined {
  const header = /<header class="site-header">([\s\S]*?)<\/header>/.exec(html)?.[1] ?? "";
  const m = /<(a|span) class="lang-switch[^"]*"(?: href="([^"]*)")?[^>]*>([^<]*)<\/\1>/.exec(header);
  return m ? { href: m[2], text: m[3] } : undefined;
}

describe("Chinese text wrapped across lines", () => {
  it("joins without a space between two Chinese characters, and keeps the space next to Latin text or code", () => {
    const html = createMarkdown().render("这是第一行，\n接着第二行。\nEnglish line\nnext 中文\n`code`\n中文");
    expect(html).toBe("<p>这是第一行，接着第二行。\nEnglish line\nnext 中文\n<code>code</code>\n中文</p>\n");
  });
});

describe("the site in two languages (the course's lessons)", () => {
  let site: BuildResult;
  beforeAll(() => {
    site = buildSite({ outDir: join(fresh("course-site-zh-"), "site") });
  });
  const read = (page: string) => readFileSync(join(site.outDir, page), "utf8");

  it("builds the Chinese lessons under zh/ with no broken math or links", () => {
    expect(site.problems).toEqual([]);
    expect(site.pages).toContain("zh/index.html");
    for (const l of site.zhLessons) expect(site.pages).toContain(`zh/${pageName(l)}`);
    for (const page of site.pages.filter((p) => p.startsWith("zh/"))) expect(read(page), page).toContain('<html lang="zh-CN">');
    expect(read("index.html")).toContain('<html lang="en">');
  });

  it("gives every lesson page a switch: to the other version when there is one, else a note", () => {
    const zh = new Set(site.zhLessons.map((l) => l.id));
    for (const l of site.lessons) {
      const s = switchOf(read(pageName(l)));
      if (zh.has(l.id)) expect(s, l.id).toEqual({ href: `zh/${pageName(l)}`, text: "中文" });
      else expect(s, l.id).toEqual({ href: undefined, text: "中文版尚未完成" });
    }
    for (const l of site.zhLessons) expect(switchOf(read(`zh/${pageName(l)}`)), l.id).toEqual({ href: `../${pageName(l)}`, text: "English" });
    expect(switchOf(read("index.html"))).toEqual({ href: "zh/index.html", text: "中文" });
    expect(switchOf(read("zh/index.html"))).toEqual({ href: "../index.html", text: "English" });
  });

  it("every link and resource on the Chinese pages resolves, anchors included", async () => {
    const server: RunningServer = await serveStatic(site.outDir, 0);
    try {
      const broken: string[] = [];
      const seen = new Set<string>();
      for (const name of site.pages.filter((p) => p.startsWith("zh/"))) {
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
      expect(seen.size).toBeGreaterThan(3);
      expect(broken).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe("the site in two languages (a synthetic pair of lessons)", () => {
  const [first, second] = CATALOG;
  let site: BuildResult;
  let server: RunningServer;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    const lessons = fresh("course-lessons-zh-");
    mkdirSync(join(lessons, "zh"));
    const english = (n: number) => `# Lesson ${n} — synthetic\n\n## The idea\n\nLoss 0.125, $x_t$, and [the other lesson](${n === 1 ? second.file : first.file}#the-idea).\n\n## Check yourself\n\n1. Why?\n\n   Answer: because.\n`;
    writeFileSync(join(lessons, first.file), english(1));
    writeFileSync(join(lessons, second.file), english(2));
    // Only the first lesson is translated; its link to the second leads to the English page.
    writeFileSync(join(lessons, "zh", first.file), `# 第 1 课 — 合成课\n\n## 核心思想\n\n损失 0.125、$x_t$，以及[另一课](${second.file}#the-idea)。\n\n## 自测\n\n1. 为什么？\n\n   答：因为。\n`);
    site = buildSite({ outDir: join(fresh("course-site-zh-synthetic-"), "site"), lessonsDir: lessons });
    server = await serveStatic(site.outDir, 0);
    if (browserReady) context = await chromium.launchPersistentContext(fresh("course-chromium-profile-zh-"), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await context?.close();
    await server?.close();
  });

  const read = (page: string) => readFileSync(join(site.outDir, page), "utf8");

  it("keeps the English ids on the Chinese headings, collapses 自测's answers, and links an untranslated lesson to its English page", () => {
    expect(site.problems).toEqual([]);
    expect(site.zhLessons.map((l) => l.id)).toEqual([first.id]);
    const zh = read(`zh/${pageName(first)}`);
    expect(zh).toContain('<h2 id="the-idea">核心思想</h2>');
    expect(zh).toMatch(/<details class="answer"><summary>答案<\/summary>\n<p>因为。/);
    expect(zh).toContain(`href="../${pageName(second)}#the-idea"`);
    expect(zh).toContain(`<title>第 1 课 · 合成课 · `);
    expect(switchOf(read(pageName(second)))).toEqual({ href: undefined, text: "中文版尚未完成" });
    const index = read("zh/index.html");
    expect(index).toContain(`<a href="${pageName(first)}">合成课</a>`);
    expect(index).toMatch(new RegExp(`<a href="\\.\\./${pageName(second)}" hreflang="en" lang="en">[^<]+</a> <span class="soon" lang="zh-CN">（英文版，中文翻译中）</span>`));
  });

  describe.skipIf(!browserReady)("in chromium", () => {
    it("the switch on a lesson with both versions leads to the Chinese version and back", async () => {
      const page = await context!.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("response", (r) => {
        if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
      });
      await page.goto(`${server.url}${pageName(first)}`, { waitUntil: "load" });
      await page.locator("header a.lang-switch", { hasText: "中文" }).click();
      await page.waitForURL(`${server.url}zh/${pageName(first)}`);
      expect(await page.getAttribute("html", "lang")).toBe("zh-CN");
      expect(await page.locator("h1").innerText()).toContain("合成课");
      expect(await page.locator(".katex").count()).toBeGreaterThan(0);
      await page.locator("header a.lang-switch", { hasText: "English" }).click();
      await page.waitForURL(`${server.url}${pageName(first)}`);
      expect(await page.getAttribute("html", "lang")).toBe("en");
      // The index leads to the Chinese index and back.
      await page.goto(server.url, { waitUntil: "load" });
      await page.locator("header a.lang-switch").click();
      await page.waitForURL(`${server.url}zh/index.html`);
      expect(await page.locator("ol.lessons li").count()).toBe(CATALOG.length);
      await page.locator("header a.lang-switch").click();
      await page.waitForURL(`${server.url}index.html`);
      expect(errors).toEqual([]);
      await page.close();
    });

    // Until a lesson is translated, the synthetic pair above covers the switch.
    it.skipIf(!translated)(`on the course's own site too: ${translated?.id ?? "no translated lesson yet"}`, async () => {
      const built = buildSite({ outDir: join(fresh("course-site-zh-real-"), "site") });
      const lesson = translated!;
      const local = await serveStatic(built.outDir, 0);
      const page = await context!.newPage();
      try {
        await page.goto(`${local.url}${pageName(lesson)}`, { waitUntil: "load" });
        await page.locator("header a.lang-switch").click();
        await page.waitForURL(`${local.url}zh/${pageName(lesson)}`);
        expect(await page.getAttribute("html", "lang")).toBe("zh-CN");
        await page.locator("header a.lang-switch").click();
        await page.waitForURL(`${local.url}${pageName(lesson)}`);
        expect(await page.getAttribute("html", "lang")).toBe("en");
      } finally {
        await page.close();
        await local.close();
      }
    });
  });
});
