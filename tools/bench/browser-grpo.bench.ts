/**
 * npm run bench browser-grpo [COURSE_BENCH_STEPS=60]: GRPO on the sort task in Chromium's GRPO page
 * on wasm (tools/bench/browser-grpo.ts).
 */
import { benchBrowserGrpo } from "./browser-grpo.js";

export default function browserGrpoBench(): Promise<string> {
  return benchBrowserGrpo(Number(process.env.COURSE_BENCH_STEPS ?? 60), (line) => console.error(line));
}
