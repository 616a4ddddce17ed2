/**
 * A small, dependency-free SVG line chart for labs: several named series on shared axes, with
 * ticks, a legend and optional vertical guide lines. Output is a standalone .svg document.
 */
export interface Series {
  name: string;
  points: ReadonlyArray<readonly [number, number]>;
  /** CSS colour; a palette colour when omitted. */
  color?: string;
  dashed?: boolean;
  /** A dot at every point: for series measured now and then (evaluations), so each one shows. */
  markers?: boolean;
}

export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Vertical guide lines, e.g. the clip bounds 1 − ε and 1 + ε. */
  guides?: Array<{ x: number; label: string }>;
  width?: number;
  height?: number;
}

const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

function niceTicks(lo: number, hi: number, count = 5): number[] {
  const span = hi - lo || 1;
  const step0 = span / count;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => span / s <= count) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-12; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function lineChart(spec: ChartSpec): string {
  const W = spec.width ?? 640;
  const H = spec.height ?? 400;
  const m = { left: 64, right: 160, top: 40, bottom: 52 };
  const all = spec.series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const pad = (Math.max(...ys) - Math.min(...ys)) * 0.05 || 1;
  const [y0, y1] = [Math.min(...ys) - pad, Math.max(...ys) + pad];
  const sx = (x: number) => m.left + ((x - x0) / (x1 - x0 || 1)) * (W - m.left - m.right);
  const sy = (y: number) => H - m.bottom - ((y - y0) / (y1 - y0 || 1)) * (H - m.top - m.bottom);
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  parts.push(`<text x="${W / 2 - m.right / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(spec.title)}</text>`);
  for (const t of niceTicks(x0, x1)) {
    parts.push(`<line x1="${sx(t)}" y1="${m.top}" x2="${sx(t)}" y2="${H - m.bottom}" stroke="#eee"/>`);
    parts.push(`<text x="${sx(t)}" y="${H - m.bottom + 16}" text-anchor="middle">${t}</text>`);
  }
  for (const t of niceTicks(y0, y1)) {
    parts.push(`<line x1="${m.left}" y1="${sy(t)}" x2="${W - m.right}" y2="${sy(t)}" stroke="#eee"/>`);
    parts.push(`<text x="${m.left - 6}" y="${sy(t) + 4}" text-anchor="end">${t}</text>`);
  }
  parts.push(`<rect x="${m.left}" y="${m.top}" width="${W - m.left - m.right}" height="${H - m.top - m.bottom}" fill="none" stroke="#333"/>`);
  for (const g of spec.guides ?? []) {
    parts.push(`<line x1="${sx(g.x)}" y1="${m.top}" x2="${sx(g.x)}" y2="${H - m.bottom}" stroke="#999" stroke-dasharray="4 3"/>`);
    parts.push(`<text x="${sx(g.x) + 3}" y="${m.top + 12}" fill="#666">${esc(g.label)}</text>`);
  }
  spec.series.forEach((s, i) => {
    const color = s.color ?? PALETTE[i % PALETTE.length];
    const d = s.points.map((p, j) => `${j === 0 ? "M" : "L"}${sx(p[0]).toFixed(2)},${sy(p[1]).toFixed(2)}`).join(" ");
    parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ""}/>`);
    if (s.markers) for (const p of s.points) parts.push(`<circle cx="${sx(p[0]).toFixed(2)}" cy="${sy(p[1]).toFixed(2)}" r="3" fill="${color}"/>`);
    const ly = m.top + 10 + i * 20;
    parts.push(`<line x1="${W - m.right + 12}" y1="${ly}" x2="${W - m.right + 36}" y2="${ly}" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ""}/>`);
    parts.push(`<text x="${W - m.right + 40}" y="${ly + 4}">${esc(s.name)}</text>`);
  });
  parts.push(`<text x="${m.left + (W - m.left - m.right) / 2}" y="${H - 12}" text-anchor="middle">${esc(spec.xLabel)}</text>`);
  parts.push(`<text transform="translate(16 ${m.top + (H - m.top - m.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(spec.yLabel)}</text>`);
  parts.push("</svg>");
  return parts.join("\n");
}
