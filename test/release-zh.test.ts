/**
 * A student edition carries the Chinese lessons (lessons/zh/) of the lessons it releases and
 * treats those of the lessons it does not release as it treats their English text: a zh file
 * belongs to its lesson (so it ships only with it, and `npm run release -- --check` lists it as a
 * leftover otherwise), a link to an unreleased lesson becomes words (in Chinese), and the edition's
 * text check reads the Chinese lessons too. No edition is built: the rules are checked directly.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { heldBackProblems } from "../tools/release/check.js";
import { lessonOfFile } from "../tools/release/edition.js";
import { adaptText, checkedTextFiles, editionTextProblems } from "../tools/release/text.js";

const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding `files` (path → text). */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "course-release-zh-"));
  temp.push(dir);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

describe("the student edition and lessons/zh/", () => {
  it("a Chinese lesson belongs to its lesson, like the English one", () => {
    expect(lessonOfFile("lessons/zh/23-ppo-training-flow.md")).toBe("lesson-23");
    expect(lessonOfFile("lessons/zh/01-project-map.md")).toBe(lessonOfFile("lessons/01-project-map.md"));
    expect(lessonOfFile("lessons/zh/README.md")).toBeUndefined();
  });

  it("the edition check lists an unreleased lesson's Chinese file as a leftover, not a released one's", () => {
    const dir = folder({
      "lessons/01-project-map.md": "# Lesson 1\n",
      "lessons/zh/01-project-map.md": "# 第 1 课\n",
      "lessons/zh/23-ppo-training-flow.md": "# 第 23 课\n",
    });
    const info = { version: 1 as const, published: [], released: ["lesson-1"], commit: "x", builtAt: "now" };
    expect(heldBackProblems(dir, info)).toEqual(["lessons/zh/23-ppo-training-flow.md belongs to lesson-23, which the edition does not release"]);
  });

  it("a Chinese link to a lesson the edition lacks becomes its label, marked 尚未发布", () => {
    const shape = { exists: (p: string) => p === "lessons/zh/01-project-map.md" || p === "lessons/01-project-map.md", scripts: new Set<string>() };
    expect(adaptText("见[第 1 课](01-project-map.md)和[第 24 课](24-grpo-and-cispo.md)。", "lessons/zh/02-environment-data-weights.md", shape)).toBe(
      "见[第 1 课](01-project-map.md)和第 24 课（尚未发布）。",
    );
    expect(adaptText("See [lesson 24](24-grpo-and-cispo.md).", "lessons/02-environment-data-weights.md", shape)).toBe("See lesson 24 (not released yet).");
  });

  it("the edition's text check reads the Chinese lessons and names what they point at that is not there", () => {
    const dir = folder({ "README.md": "# x\n", "lessons/01-project-map.md": "# Lesson 1\n", "lessons/zh/01-project-map.md": "# 第 1 课\n\n见[第 24 课](24-grpo-and-cispo.md)。\n" });
    expect(checkedTextFiles(dir)).toEqual(["README.md", "lessons/01-project-map.md", "lessons/zh/01-project-map.md"]);
    expect(editionTextProblems(dir)).toEqual(["lessons/zh/01-project-map.md:3: link 24-grpo-and-cispo.md: lessons/zh/24-grpo-and-cispo.md is not in the edition"]);
  });
});
