/**
 * The grading folder of the site's workspace pages (workspace.ts), `<site>/grading/`: tools/browser's
 * build (the worker, each lesson's cases, data, frozen expectations and stubs; no solutions) with
 * the workspace page's script (tools/browser/workspace-page.ts) bundled beside grade.html's, and
 * workspace.json (the graded lessons and the built lessons' hints). Slow (it freezes each lesson's
 * expectations from its reference and mutants, or reads a student edition's grader/expected/),
 * so buildSite leaves it to `npm run site` unless --no-workspace.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gradedLessons, ROOT } from "../../grader/engine/paths.js";
import { chineseMistakes, loadLessonZh, localHints } from "../../grader/i18n.js";
import { buildBrowserGrading, type BrowserBuild } from "../browser/build.js";
import { BROWSER_LESSONS } from "../browser/lessons.js";
import type { WorkspaceInfo } from "../browser/workspace-page.js";
import { loadHints } from "../loop/hints.js";
import { GRADING_DIR } from "./workspace.js";

/** grading/workspace.json: the graded lessons and each built lesson's hints (English, and Chinese where it has them) and named mistakes' Chinese texts. */
async function workspaceInfo(lessons: readonly string[]): Promise<WorkspaceInfo> {
  const hints: WorkspaceInfo["hints"] = {};
  const zhMistakes: NonNullable<WorkspaceInfo["zhMistakes"]> = {};
  for (const l of lessons) {
    const mistakes = await chineseMistakes(l);
    if (Object.keys(mistakes).length > 0) zhMistakes[l] = mistakes;
    const en = await loadHints(l);
    if (!en) continue;
    const texts = await loadLessonZh(l);
    hints[l] = texts ? { en, zh: localHints(en, texts) } : { en };
  }
  return { graded: gradedLessons(), hints, zhMistakes };
}

/** The script the workspace pages load, bundled into grading/workspace.js. */
const WORKSPACE_SCRIPT = join(ROOT, "tools", "browser", "workspace-page.ts");

export interface WorkspaceBuild {
  grading: BrowserBuild;
}

/**
 * Builds the grading folder the workspace pages use into `<outDir>/grading/`: tools/browser's
 * build for `lessons` (default every lesson the browser grades) with the workspace page's script,
 * and workspace.json. The site's pages (buildSite with `workspace: workspacePlan(lessons)`) are
 * written first. `publish` names the lessons whose references the training pages ship (build.ts).
 */
export async function buildWorkspaceGrading(outDir: string, lessons: readonly string[] = BROWSER_LESSONS, log: (line: string) => void = () => undefined, publish?: readonly string[] | "all"): Promise<WorkspaceBuild> {
  const out = join(resolve(outDir), GRADING_DIR);
  const grading = await buildBrowserGrading(out, lessons, log, { pages: { workspace: WORKSPACE_SCRIPT }, publish });
  writeFileSync(join(out, "workspace.json"), JSON.stringify(await workspaceInfo(lessons)));
  return { grading };
}

