/**
 * Progress of a training run: a live bar on a terminal (cli-progress: a maintained bar that redraws
 * one line, with ETA, and gets out of the way of other output), plain lines every `logEvery` steps
 * otherwise (CI logs, pipes, a test reading the output).
 */
import cliProgress from "cli-progress";

export interface StepInfo {
  step: number;
  loss: number;
  lr: number;
  tokensPerSecond: number;
}

export interface Progress {
  update(info: StepInfo): void;
  /** A line that must not be overwritten by the bar (a checkpoint, a held-out loss). */
  log(line: string): void;
  stop(): void;
}

const fmt = (info: StepInfo) => ({ loss: info.loss.toFixed(4), lr: info.lr.toExponential(2), tps: Math.round(info.tokensPerSecond).toString() });

/** A bar when `tty`, else a line every `logEvery` steps (and at `total`). */
export function progress(total: number, startStep: number, logEvery: number, tty = process.stdout.isTTY === true): Progress {
  if (!tty) {
    const started = performance.now();
    return {
      update(info) {
        if (info.step % logEvery !== 0 && info.step !== total) return;
        const f = fmt(info);
        const done = info.step - startStep;
        const eta = done > 0 ? (((performance.now() - started) / 1000) * (total - info.step)) / done : 0;
        console.log(`step ${info.step}/${total}  loss ${f.loss}  lr ${f.lr}  ${f.tps} tokens/s  ETA ${eta.toFixed(0)} s`);
      },
      log: (line) => console.log(line),
      stop: () => undefined,
    };
  }
  const bars = new cliProgress.MultiBar(
    { format: "{bar} {value}/{total} steps | loss {loss} | lr {lr} | {tps} tokens/s | ETA {eta_formatted}", hideCursor: true, etaBuffer: 50, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  const bar = bars.create(total, startStep, { loss: "-", lr: "-", tps: "-" });
  return {
    update: (info) => bar.update(info.step, fmt(info)),
    log: (line) => bars.log(`${line}\n`),
    stop: () => bars.stop(),
  };
}
