/**
 * Errors of `npm run train` that are the user's input, not a bug: the command prints the message
 * alone (no stack trace) and exits with `exitCode` (2 for usage, 1 for a bad file).
 */
export class TrainError extends Error {
  constructor(message: string, readonly exitCode: 1 | 2 = 1) {
    super(message);
    this.name = "TrainError";
  }
}
