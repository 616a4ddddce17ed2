/**
 * The chat page of `npm run serve` (lib/serve/page/), in Debian's chromium through playwright-core
 * as test/site.test.ts drives it: type a message, see the streamed reply arrive in pieces, toggle
 * the thinking, and see a tool call drawn as a card. The model is the course's tiny chat
 * checkpoint, which repeats its memorised exchanges under greedy decoding (lib/serve/demo.ts).
 * Writes site-screenshots/chat-page.png for review.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelServer, type ModelServer } from "../lib/serve/app.js";
import { TINY_CHAT_CHECKPOINT } from "../lib/serve/checkpoints.js";
import { DEMO_EXCHANGES } from "../lib/serve/demo.js";
import { ROOT } from "../grader/engine/paths.js";

const CHROMIUM = process.env.COURSE_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
// Without chromium the browser checks are skipped on a learner's machine, never in CI.
const browserReady = existsSync(CHROMIUM) || process.env.CI !== undefined;
if (!browserReady) console.warn(`chat-page.test.ts: no browser at ${CHROMIUM} (apt-get install -y chromium, or set COURSE_CHROMIUM): chat page checks skipped`);

const SCREENSHOTS = join(ROOT, "site-screenshots");
const replyTo = (user: string, tools: boolean, thinking: boolean) => DEMO_EXCHANGES.find((e) => e.user === user && e.tools === tools && e.thinking === thinking)!.reply;

let server: ModelServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!browserReady) return;
  server = await createModelServer({ checkpoint: TINY_CHAT_CHECKPOINT, useReference: ["all"] });
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = server.app.server.address() as { port: number };
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => document.getElementById("model")?.textContent === "model: tiny-chat");
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
});

/** Sends `text` from the message box with Enter and waits for the reply to finish. */
async function send(text: string): Promise<void> {
  const before = await page.locator(".msg.assistant .meta").count();
  await page.fill("#message", text);
  await page.press("#message", "Enter");
  await page.waitForFunction((n) => {
    const metas = document.querySelectorAll(".msg.assistant .meta");
    return metas.length > n && /finished/.test(metas[metas.length - 1].textContent ?? "");
  }, before, { timeout: 60_000 });
}

describe.skipIf(!browserReady)("the chat page", { timeout: 120_000 }, () => {
  it("streams a reply into the page, piece by piece", async () => {
    // Record every state of the answer while it arrives.
    await page.evaluate(() => {
      const w = window as unknown as { seen: string[] };
      w.seen = [];
      new MutationObserver(() => {
        const answers = document.querySelectorAll(".msg.assistant .answer");
        const last = answers[answers.length - 1];
        if (last) w.seen.push(last.textContent ?? "");
      }).observe(document.getElementById("log")!, { subtree: true, childList: true, characterData: true });
    });
    await send("Hello");
    const answer = await page.locator(".msg.assistant .answer").last().textContent();
    expect(answer).toBe(replyTo("Hello", false, false));
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    const partial = new Set(seen.filter((s) => s.length > 0 && s.length < answer!.length));
    expect(partial.size).toBeGreaterThan(3); // the text grew in several steps, not at once
    expect(await page.locator(".msg.user").last().textContent()).toBe("Hello");
    expect(await page.locator(".msg.assistant .meta").last().textContent()).toMatch(/finished: stop.*prompt \+ \d+ generated tokens/);
  });

  it("shows the thinking in a fold that the toggle hides", async () => {
    await page.click("#clear");
    await page.check("#open-thinking");
    await send("What is 2 + 3?");
    await page.uncheck("#open-thinking");
    const thinking = page.locator(".msg.assistant details.thinking").last();
    expect(await thinking.locator("div").textContent()).toBe("Two plus three makes five.");
    expect(await page.locator(".msg.assistant .answer").last().textContent()).toBe("The answer is 5.");
    expect(await thinking.isVisible()).toBe(true);
    await page.uncheck("#show-thinking");
    expect(await thinking.isVisible()).toBe(false);
    await page.check("#show-thinking");
    expect(await thinking.isVisible()).toBe(true);
  });

  it("draws a tool call as a card", async () => {
    await page.click("#clear");
    await page.check("#offer-tools");
    await send("What is the weather in Paris?");
    const card = page.locator(".msg.assistant .tool-card").last();
    expect(await card.locator(".name").textContent()).toBe("get_weather");
    expect(await card.locator(".args").textContent()).toBe('({"city": "Paris"})');
    expect(await page.locator(".msg.assistant .answer").last().textContent()).toBe("");
    expect(await page.locator(".msg.assistant .meta").last().textContent()).toMatch(/finished: tool_calls/);
    expect(replyTo("What is the weather in Paris?", true, false)).toContain("get_weather");
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, "chat-page.png"), fullPage: true });
  });
});
