/**
 * Ctrl-C during a training run: the first one asks the run to stop at its next safe point (after
 * the current step, having saved), a second one leaves at once. A run takes Ctrl-C over from its very
 * start, so one that comes while data loads or the "before" evaluation runs is answered in words
 * too, never by Node's silent exit.
 */

/** What a run checks between steps: `stop` turns true at the first Ctrl-C. */
export interface StopSignal {
  stop: boolean;
}

/** Runs `run` with Ctrl-C handled as the module comment says; the handler is removed afterwards. */
export async function withCtrlC<T>(run: (signal: StopSignal) => Promise<T>): Promise<T> {
  const signal: StopSignal = { stop: false };
  const onSigint = () => {
    if (signal.stop) {
      console.log("Ctrl-C again: leaving now (the last checkpoint, if any, is intact)");
      process.exit(130);
    }
    signal.stop = true;
  };
  process.on("SIGINT", onSigint);
  try {
    return await run(signal);
  } finally {
    process.off("SIGINT", onSigint);
  }
}
