/**
 * Lab 7's tiny pretraining in Chromium's training page (tools/browser/train-page.ts), on every
 * backend that starts here: steps/s (over the run, as the lab prints, and after the warm-up steps),
 * the loss's first and last value, and the page's weight (bytes the page and its worker fetched,
 * first load to the end of a run) and first-load time. `npm run bench browser-train` prints it;
 * docs/BROWSER.md holds the numbers measured here.
 *
 * The site is built into a temporary folder with the references of every lesson the run needs
 * published (the full course publishes none unless told; a student edition publishes its list).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildBrowserGrading } from "../browser/build.js";
import type { BackendAvailability } from "../browser/backend-choice.js";
import type { TrainOptions, TrainReport } from "../browser/train-page.js";
import { serveStatic, type RunningServer } from "../site/serve.js";
import { chromiumReady, launchChromium } from "./browser-chromium.js";

/** Every lesson lab 7's run takes a function from (tools/browser/train-plan.ts's table, as train.json lists it). */
export const TRAIN_LESSONS = ["lesson-3", "lesson-6", "lesson-9", "lesson-10", "lesson-11", "lesson-12", "lesson-13", "lesson-14"];

/** A built site served on 127.0.0.1 with Chromium open on its train.html. */
export interface TrainingSite {
  dir: string;
  server: RunningServer;
  browser: Browser;
  page: Page;
  /** Bytes of every response the page and its workers received so far. */
  fetchedBytes(): number;
  /** Milliseconds from navigation to the page's hook being ready and its backends probed. */
  firstLoadMs: number;
  backends: BackendAvailability[];
  close(): Promise<void>;
}

/**
 * Builds the site (the grading of `gradingLessons`, and the training page with `publish`'s
 * references) into a temporary folder, serves it and opens train.html in Chromium.
 */
export async function openTrainingSite(publish: readonly string[], gradingLessons: readonly string[] = ["lesson-9"]): Promise<TrainingSite> {
  const dir = mkdtempSync(join(tmpdir(), "course-browser-train-"));
  await buildBrowserGrading(join(dir, "site"), gradingLessons, () => undefined, { publish });
  const server = await serveStatic(join(dir, "site"), 0);
  const browser = await launchChromium();
  const context = await browser.newContext();
  let bytes = 0;
  context.on("response", (r) => {
    void r.body().then((b) => (bytes += b.length)).catch(() => undefined);
  });
  const page = await context.newPage();
  const t0 = performance.now();
  await page.goto(`${server.url}train.html`);
  await page.waitForFunction(() => window.courseTraining?.ready === true);
  const backends = await page.evaluate(() => window.courseTraining.backends());
  const firstLoadMs = performance.now() - t0;
  return {
    dir,
    server,
    browser,
    page,
    fetchedBytes: () => bytes,
    firstLoadMs,
    backends,
    async close() {
      await browser.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One run of the page's `train` hook (the page draws it as a learner sees it). */
export function trainInPage(page: Page, opts: Omit<TrainOptions, "learner"> & { learner?: TrainOptions["learner"] }): Promise<TrainReport> {
  return page.evaluate((o) => window.courseTraining.train(o), opts);
}

function folderBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((n, d) => n + (d.isDirectory() ? folderBytes(join(dir, d.name)) : statSync(join(dir, d.name)).size), 0);
}

const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;

/** Steps the bench runs on the cpu backend (fewer than on the others: each takes seconds). */
const CPU_STEPS = 4;

/** The bench: `steps` steps of lab 7's run on each backend that starts here (CPU_STEPS on cpu), in one page; each line is also passed to `progress` as it is measured. */
export async function benchBrowserTraining(steps = 20, progress: (line: string) => void = () => undefined): Promise<string> {
  if (!chromiumReady) return `browser-train: no Chromium (set COURSE_CHROMIUM): not measured`;
  const site = await openTrainingSite(TRAIN_LESSONS);
  try {
    const lines: string[] = [];
    const push = (line: string) => {
      lines.push(line);
      progress(line);
    };
    push(`browser-train: lab 7's tiny pretraining in Chromium's training page, ${steps} steps a backend (lab defaults otherwise)`);
    push(`  first load (page, hook, backend probe): ${(site.firstLoadMs / 1000).toFixed(1)} s; ${mib(site.fetchedBytes())} fetched`);
    for (const b of site.backends) {
      if (b.why) {
        push(`  ${b.backend.padEnd(7)} not here: ${b.why}`);
        continue;
      }
      // TensorFlow.js's cpu backend is plain JavaScript, seconds a step: a few steps measure its rate.
      const these = b.backend === "cpu" ? Math.min(steps, CPU_STEPS) : steps;
      const r = await trainInPage(site.page, { backend: b.backend, settings: { steps: these }, heldOutEvery: these });
      if (r.error || r.missing || r.losses.length === 0) {
        push(`  ${b.backend.padEnd(7)} failed: ${r.error ?? r.missing?.message ?? "no steps"}`);
        continue;
      }
      const first = r.losses[0][1];
      const last = r.losses[r.losses.length - 1][1];
      const how = r.step === "on-device" ? "AdamW on the GPU" : "AdamW on typed arrays";
      push(`  ${b.backend.padEnd(7)} ${(r.stepsPerSecond ?? 0).toFixed(3)} steps/s over the run, ${(r.steadyStepsPerSecond ?? 0).toFixed(3)} after 2 warm-up steps; loss ${first.toFixed(3)} → ${last.toFixed(3)} in ${r.losses.length} steps, ${(r.seconds ?? 0).toFixed(1)} s (${how}${b.syncRead ? "; no synchronous read-back here, so no samples" : ""})`);
    }
    const manifest = JSON.parse(readFileSync(join(site.dir, "site", "train.json"), "utf8")) as { references: Record<string, string> };
    push(`  fetched by the page and its workers, first load and every run: ${mib(site.fetchedBytes())}; the whole built folder (grading of lesson-9, training, ${Object.keys(manifest.references).length} references): ${mib(folderBytes(join(site.dir, "site")))}`);
    return lines.join("\n");
  } finally {
    await site.close();
  }
}
