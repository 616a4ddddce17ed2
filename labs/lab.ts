/** What a lab's default export receives from `npm run lab`. */
export interface LabContext {
  /** labs/<lesson>/out/, ignored by git: write plots and traces here. */
  outDir: string;
  /** The TensorFlow.js backend in use (COURSE_BACKEND, default cpu). */
  backend: string;
  /** Arguments after the lesson name. */
  args: string[];
  /** A path as the learner should see it (relative to the repository root). */
  show: (file: string) => string;
}

export type Lab = (ctx: LabContext) => Promise<void> | void;
