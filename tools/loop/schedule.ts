/**
 * When to re-grade in `npm run watch`: once the saves settle (editors write a file in several
 * steps), never two gradings at once, and a save during a grading queues exactly one more.
 */
export interface Scheduler {
  /** A file changed: run the task once the changes settle. */
  trigger(): void;
  /** Run the task now (the first grading when watching starts). */
  runNow(): void;
  /** True while a run is waiting or in progress. */
  busy(): boolean;
  /** No more runs: a waiting one is dropped, a running one finishes. */
  stop(): void;
}

export function debouncedRunner(task: () => Promise<void>, settleMs: number): Scheduler {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  const run = async () => {
    timer = undefined;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await task();
    } finally {
      running = false;
      if (again) {
        again = false;
        trigger();
      }
    }
  };
  const trigger = () => {
    clearTimeout(timer);
    timer = setTimeout(run, settleMs);
  };
  return {
    trigger,
    runNow: () => void run(),
    busy: () => running || timer !== undefined,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
