/**
 * The lessons' figures (labs/figures/, written by `npm run lab figures` to lessons/figures/):
 * every written lesson embeds one, every embedded file exists and is well-formed SVG, and
 * regenerating a figure gives the committed bytes.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIGURES } from "../labs/figures/index.js";
import { svgProblems } from "../lib/svg-diagrams.js";

const ROOT = join(import.meta.dirname, "..");
const LESSONS = join(ROOT, "lessons");
const FIGURES_DIR = join(LESSONS, "figures");
const lessonFiles = readdirSync(LESSONS).filter((f) => /^\d\d-.*\.md$/.test(f)).sort();
const IMAGE = /!\[([^\]]*)\]\((figures\/[^)\s]+)\)/g;

function embedded(file: string): Array<{ alt: string; src: string }> {
  return [...readFileSync(join(LESSONS, file), "utf8").matchAll(IMAGE)].map((m) => ({ alt: m[1]!, src: m[2]! }));
}

describe("lesson figures", () => {
  it.each(lessonFiles)("%s embeds at least one figure, with alt text, that exists and is valid SVG", (file) => {
    const images = embedded(file);
    expect(images.length, `${file} embeds no figures/… image`).toBeGreaterThan(0);
    for (const { alt, src } of images) {
      expect(alt.trim().length, `${src} needs alt text that describes it`).toBeGreaterThan(20);
      const path = join(LESSONS, src);
      expect(existsSync(path), `${file} embeds ${src}, which does not exist: npm run lab figures`).toBe(true);
      const svg = readFileSync(path, "utf8");
      expect(svgProblems(svg), src).toEqual([]);
      const width = Number(/<svg[^>]*\swidth="(\d+)"/.exec(svg)?.[1]);
      expect(width, `${src} width`).toBeLessThanOrEqual(720);
    }
  });

  it("every figure the labs draw is embedded, and every committed figure is drawn by a lab", () => {
    const drawn = FIGURES.map((f) => f.file).sort();
    const used = new Set(lessonFiles.flatMap((f) => embedded(f).map((i) => i.src.replace(/^figures\//, ""))));
    expect(drawn.filter((f) => !used.has(f)), "drawn but not embedded").toEqual([]);
    const committed = readdirSync(FIGURES_DIR).filter((f) => f.endsWith(".svg")).sort();
    expect(committed).toEqual(drawn);
    for (const f of FIGURES) expect(f.file.startsWith(`lesson-${String(f.lesson).padStart(2, "0")}-`), f.file).toBe(true);
  });

  // Every figure is regenerated (all of them together take about a second on the cpu backend).
  it.each(FIGURES.map((f) => [f.file, f] as const))("regenerating %s gives the committed bytes", async (file, fig) => {
    const svg = await fig.render();
    expect(svgProblems(svg)).toEqual([]);
    expect(svg === readFileSync(join(FIGURES_DIR, file), "utf8"), `${file} is out of date: npm run lab figures, then commit lessons/figures/`).toBe(true);
  });
});

describe("svgProblems", () => {
  it("accepts a well-formed document and names what is wrong in a broken one", () => {
    expect(svgProblems('<svg xmlns="http://www.w3.org/2000/svg"><g><text x="1">a &amp; b</text></g></svg>')).toEqual([]);
    expect(svgProblems('<svg><g><text>a</text></svg>').join()).toMatch(/closes/);
    expect(svgProblems('<svg><text>a & b</text></svg>').join()).toMatch(/unescaped &/);
    expect(svgProblems("<svg><rect x=1/></svg>").length).toBeGreaterThan(0);
  });
});
