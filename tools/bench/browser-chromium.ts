/**
 * Debian's Chromium for the browser measurements and tests of tools/browser/ (the training bench,
 * test/browser-backends.test.ts, test/browser-train.test.ts), driven by playwright-core: headless,
 * with WebGPU allowed (`--enable-unsafe-webgpu`: on Linux Chromium offers no adapter without it)
 * and the GPU process left on, so WebGL2 and WebGPU run where the machine has them (SwiftShader,
 * on the CPU, where it has none).
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** The browser: COURSE_CHROMIUM, else Debian's. */
export const CHROMIUM = process.env.COURSE_CHROMIUM ?? "/usr/bin/chromium";

/** The site tests' flags without --disable-gpu, and WebGPU allowed. */
export const GPU_CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--enable-unsafe-webgpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Whether a Chromium is there to launch (in CI it must be: a missing one fails there, never skips). */
export const chromiumReady = existsSync(CHROMIUM) || process.env.CI !== undefined;

/** Launches the browser with GPU_CHROMIUM_ARGS. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: GPU_CHROMIUM_ARGS });
}
