/**
 * npm run bench browser-train [COURSE_BENCH_STEPS=20]: lab 7's tiny pretraining in Chromium's
 * training page on every backend that starts here (tools/bench/browser-train.ts).
 */
import { benchBrowserTraining } from "./browser-train.js";

export default function browserTrainBench(): Promise<string> {
  // Each backend's line on stderr as it is measured: the cpu and SwiftShader runs take minutes.
  return benchBrowserTraining(Number(process.env.COURSE_BENCH_STEPS ?? 20), (line) => console.error(line));
}
