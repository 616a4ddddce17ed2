/**
 * GRPO on the sort task in Chromium's GRPO page (tools/browser/grpo-page.ts), on wasm: steps/s
 * (over the steps' own time, and after the warm-up steps), the mean reward of the first and last
 * steps, and held-out exact match before and after. `npm run bench browser-grpo` prints it;
 * docs/BROWSER.md holds the numbers measured here.
 *
 * The site is built into a temporary folder with the references of every lesson the run needs
 * published (the full course publishes none unless told; a student edition publishes its list).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildBrowserGrading } from "../browser/build.js";
import { startModelConfig } from "../browser/grpo-build.js";
import type { GrpoOptions, GrpoReport } from "../browser/grpo-page.js";
import { grpoFunctionHomes } from "../browser/grpo-plan.js";
import { serveStatic, type RunningServer } from "../site/serve.js";
import { chromiumReady, launchChromium } from "./browser-chromium.js";

/** Every lesson the GRPO page's run takes a function from (grpo-plan.ts's table, as grpo.json lists it). */
export const GRPO_LESSONS: string[] = [...new Set(Object.values(grpoFunctionHomes(startModelConfig())))];

/** A built site served on 127.0.0.1 with Chromium open on its grpo.html. */
export interface GrpoSite {
  dir: string;
  server: RunningServer;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/** Builds the site (the grading of `gradingLessons`, the pages with `publish`'s references) into a temporary folder, serves it and opens grpo.html in Chromium. */
export async function openGrpoSite(publish: readonly string[], gradingLessons: readonly string[] = ["lesson-9"]): Promise<GrpoSite> {
  const dir = mkdtempSync(join(tmpdir(), "course-browser-grpo-"));
  await buildBrowserGrading(join(dir, "site"), gradingLessons, () => undefined, { publish });
  const server = await serveStatic(join(dir, "site"), 0);
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(`${server.url}grpo.html`);
  await page.waitForFunction(() => window.courseGrpo?.ready === true);
  return {
    dir,
    server,
    browser,
    page,
    async close() {
      await browser.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One run of the page's `train` hook (the page draws it as a learner sees it). */
export function grpoInPage(page: Page, opts: GrpoOptions): Promise<GrpoReport> {
  return page.evaluate((o) => window.courseGrpo.train(o), opts);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

/** The bench: `steps` GRPO steps on wasm with the page's defaults otherwise; each line is also passed to `progress`. */
export async function benchBrowserGrpo(steps = 60, progress: (line: string) => void = () => undefined): Promise<string> {
  if (!chromiumReady) return `browser-grpo: no Chromium (set COURSE_CHROMIUM): not measured`;
  const site = await openGrpoSite(GRPO_LESSONS);
  try {
    const r = await grpoInPage(site.page, { backend: "wasm", settings: { steps } });
    if (r.error || r.missing || r.rewards.length === 0) return `browser-grpo: failed: ${r.error ?? r.missing?.message ?? "no steps"}`;
    const rewards = r.rewards.map(([, x]) => x);
    const k = Math.min(10, Math.floor(rewards.length / 2)) || 1;
    const lines = [
      `browser-grpo: GRPO on sort in Chromium's GRPO page, wasm, ${r.rewards.length} steps (page defaults otherwise: 4 prompts × G 8, lr 5e-4)`,
      `  ${(r.stepsPerSecond ?? 0).toFixed(3)} steps/s over the steps, ${(r.steadyStepsPerSecond ?? 0).toFixed(3)} after 2 warm-up steps; ${(r.stepSeconds ?? 0).toFixed(1)} s of steps, ${(r.seconds ?? 0).toFixed(1)} s with the held-out evaluations between them`,
      `  reward (mean of ${k} steps) ${mean(rewards.slice(0, k)).toFixed(3)} → ${mean(rewards.slice(-k)).toFixed(3)}; first step ${rewards[0].toFixed(3)}, last ${rewards.at(-1)!.toFixed(3)}`,
      `  held-out exact match: ${r.heldOut.map(([s, a]) => `step ${s} ${(100 * a).toFixed(1)}%`).join(", ")}`,
      `  KL to the start, last step: ${r.kl.at(-1)?.[1].toFixed(4)}${r.diverged ? `; ${r.diverged}` : ""}`,
    ];
    for (const l of lines) progress(l);
    return lines.join("\n");
  } finally {
    await site.close();
  }
}
