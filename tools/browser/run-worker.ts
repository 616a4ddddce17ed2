/**
 * The message loop both training workers (train-worker.ts, grpo-worker.ts) run: `probe` answers
 * which backends start here (backends.ts), the first other message starts the run, `stop` asks it
 * to end after the step in flight. A run that throws is reported as `fatal`.
 */
import { probeBackends } from "./backends.js";

const scope = self as unknown as { postMessage(m: unknown): void; onmessage: ((e: MessageEvent<{ type: string }>) => void) | null };

/** Posts `message` to the page. */
export const postToPage = (message: unknown) => scope.postMessage(message);

/** Resolves on the next task: lets a `stop` message in between steps. */
export const nextTask = () => new Promise<void>((r) => setTimeout(r, 0));

let stopAsked = false;

/** Whether the page has asked the run to stop. */
export const stopRequested = () => stopAsked;

/** Serves the page: `run` takes the first message that is neither `probe` nor `stop`; `what` names the worker in a fatal error. */
export function serveRun<Job extends { type: string }>(what: string, run: (job: Job) => Promise<void>): void {
  let started = false;
  scope.onmessage = (e) => {
    if (e.data.type === "stop") stopAsked = true;
    else if (e.data.type === "probe") void probeBackends().then((backends) => postToPage({ type: "probe", backends }));
    else if (!started) {
      started = true;
      run(e.data as Job).catch((err: unknown) => postToPage({ type: "fatal", message: `the ${what} worker failed: ${err instanceof Error ? err.message : String(err)}` }));
    }
  };
}
