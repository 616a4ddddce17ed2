/**
 * The HTML of the two training pages (train.html, grpo.html: train-build.ts and grpo-build.ts
 * write them): a title, what the run is, the backend / steps form and the elements run-page.ts
 * fills (backends, status, missing, whose, rate, the charts, samples), then the page's script.
 */

/** What differs between the training pages. */
export interface RunPageContent {
  title: string;
  /** The paragraph under the title, as HTML (the page's own words: what runs, whose functions, self-study only). */
  intro: string;
  /** The steps box's starting value. */
  steps: number;
  /** The ids of the chart boxes, top to bottom. */
  charts: readonly string[];
  /** The page's script, a path of the built site (e.g. "./train-page.js"). */
  script: string;
}

/** The page's whole HTML. */
export function runPageHtml(c: RunPageContent): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${c.title}</title>
<link rel="icon" href="data:,">
<style>
body { font: 15px/1.45 system-ui, sans-serif; max-width: 72rem; margin: 1.5rem auto; padding: 0 1rem; }
pre { background: #f6f6f6; padding: .75rem; white-space: pre-wrap; }
.note { color: #555; font-size: 13px; }
#missing { color: #a40000; font-weight: 600; white-space: pre-wrap; }
.chart svg { max-width: 100%; height: auto; }
</style>
</head>
<body>
<h1>${c.title}</h1>
<p class="note">${c.intro}</p>
<p><label for="backend">Backend</label> <select id="backend"><option value="best">best available</option></select>
<label for="steps">Steps</label> <input id="steps" type="number" min="1" value="${c.steps}" size="6">
<button id="start" type="button">Train</button> <button id="stop" type="button" disabled>Stop</button></p>
<pre id="backends" class="note"></pre>
<pre id="status"></pre>
<p id="missing"></p>
<pre id="whose"></pre>
<p id="rate"></p>
${c.charts.map((id) => `<div id="${id}" class="chart"></div>`).join("\n")}
<pre id="samples"></pre>
<script type="module" src="${c.script}"></script>
</body>
</html>
`;
}
