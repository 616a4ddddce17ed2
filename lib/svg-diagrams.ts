/**
 * Diagram primitives for the lessons' figures, beside lib/svg.ts's line chart: a canvas that
 * collects boxes, arrows, text and grids, and plot axes that several panels can share. Dependency
 * free, and deterministic: every number is written with at most two decimals, so regenerating a
 * figure gives the same bytes on any machine.
 */

export const COLORS = {
  blue: "#1f77b4",
  red: "#d62728",
  green: "#2ca02c",
  orange: "#ff7f0e",
  purple: "#9467bd",
  brown: "#8c564b",
  grey: "#7f7f7f",
  text: "#222222",
  muted: "#666666",
  faint: "#e8e8e8",
  lightBlue: "#dbe9f6",
  lightRed: "#f8dcdc",
  lightGreen: "#dcf0dc",
  lightOrange: "#fde8cf",
  lightPurple: "#e9e0f3",
  lightGrey: "#f2f2f2",
} as const;

export const PALETTE = [COLORS.blue, COLORS.red, COLORS.green, COLORS.orange, COLORS.purple, COLORS.brown];

/** A number as SVG text: at most two decimals, no trailing zeros, no "-0". */
export function n(x: number): string {
  const r = Math.round(x * 100) / 100;
  return Object.is(r, -0) || r === 0 ? "0" : String(r);
}

export const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A value for a label: `digits` decimals, a true minus sign. */
export function fmt(x: number, digits = 2): string {
  const s = x.toFixed(digits);
  return (/^-0(\.0*)?$/.test(s) ? s.slice(1) : s).replace("-", "−");
}

/** Tick values between lo and hi at a 1/2/5 step. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  const span = hi - lo || 1;
  const mag = 10 ** Math.floor(Math.log10(span / count));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => span / s <= count) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * span; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

export interface TextOptions {
  anchor?: "start" | "middle" | "end";
  size?: number;
  weight?: "bold" | "normal";
  fill?: string;
  /** Degrees, about (x, y). */
  rotate?: number;
  italic?: boolean;
  family?: "sans-serif" | "monospace";
}

export interface ShapeOptions {
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  dash?: string;
  rx?: number;
  opacity?: number;
}

export interface ArrowOptions {
  color?: string;
  width?: number;
  dash?: string;
  /** Arrowheads at both ends. */
  both?: boolean;
}

/** Rough width of a label in pixels (sans-serif): for laying out, not for typesetting. */
export function textWidth(s: string, size = 12): number {
  return s.length * size * 0.56;
}

/** A drawing surface: call its methods in painting order, then `toString()` for the document. */
export class Canvas {
  private readonly parts: string[] = [];
  private readonly markers = new Set<string>();

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    if (width > 720) throw new Error(`a figure is at most 720 px wide (got ${width})`);
  }

  raw(svg: string): this {
    this.parts.push(svg);
    return this;
  }

  title(text: string, subtitle?: string): this {
    this.text(this.width / 2, 22, text, { anchor: "middle", size: 15, weight: "bold" });
    if (subtitle) this.text(this.width / 2, 40, subtitle, { anchor: "middle", size: 12, fill: COLORS.muted });
    return this;
  }

  text(x: number, y: number, s: string, o: TextOptions = {}): this {
    const attrs = [`x="${n(x)}"`, `y="${n(y)}"`];
    if (o.anchor && o.anchor !== "start") attrs.push(`text-anchor="${o.anchor}"`);
    if (o.size && o.size !== 12) attrs.push(`font-size="${o.size}"`);
    if (o.weight === "bold") attrs.push(`font-weight="bold"`);
    if (o.italic) attrs.push(`font-style="italic"`);
    if (o.family === "monospace") attrs.push(`font-family="monospace"`);
    attrs.push(`fill="${o.fill ?? COLORS.text}"`);
    if (o.rotate) attrs.push(`transform="rotate(${n(o.rotate)} ${n(x)} ${n(y)})"`);
    this.parts.push(`<text ${attrs.join(" ")}>${esc(s)}</text>`);
    return this;
  }

  private shape(o: ShapeOptions): string {
    const a = [`fill="${o.fill ?? "none"}"`];
    if (o.stroke) a.push(`stroke="${o.stroke}"`);
    if (o.stroke && o.strokeWidth !== undefined) a.push(`stroke-width="${n(o.strokeWidth)}"`);
    if (o.dash) a.push(`stroke-dasharray="${o.dash}"`);
    if (o.opacity !== undefined) a.push(`opacity="${n(o.opacity)}"`);
    return a.join(" ");
  }

  rect(x: number, y: number, w: number, h: number, o: ShapeOptions = {}): this {
    const rx = o.rx ? ` rx="${n(o.rx)}"` : "";
    this.parts.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}"${rx} ${this.shape(o)}/>`);
    return this;
  }

  circle(cx: number, cy: number, r: number, o: ShapeOptions = {}): this {
    this.parts.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" ${this.shape(o)}/>`);
    return this;
  }

  line(x1: number, y1: number, x2: number, y2: number, o: ShapeOptions = {}): this {
    this.parts.push(`<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" ${this.shape({ stroke: COLORS.text, ...o })}/>`);
    return this;
  }

  /** A polyline through points, in pixels. */
  polyline(points: ReadonlyArray<readonly [number, number]>, o: ShapeOptions = {}): this {
    const d = points.map(([x, y], i) => `${i === 0 ? "M" : "L"}${n(x)},${n(y)}`).join(" ");
    this.parts.push(`<path d="${d}" ${this.shape({ stroke: COLORS.text, strokeWidth: 2, ...o })}/>`);
    return this;
  }

  /** A closed polygon, in pixels. */
  polygon(points: ReadonlyArray<readonly [number, number]>, o: ShapeOptions = {}): this {
    this.parts.push(`<polygon points="${points.map(([x, y]) => `${n(x)},${n(y)}`).join(" ")}" ${this.shape(o)}/>`);
    return this;
  }

  private marker(color: string): string {
    const id = `arrow-${color.replace(/[^a-zA-Z0-9]/g, "")}`;
    this.markers.add(`<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${color}"/></marker>`);
    return id;
  }

  arrow(x1: number, y1: number, x2: number, y2: number, o: ArrowOptions = {}): this {
    const color = o.color ?? COLORS.text;
    const id = this.marker(color);
    const dash = o.dash ? ` stroke-dasharray="${o.dash}"` : "";
    const start = o.both ? ` marker-start="url(#${id})"` : "";
    this.parts.push(`<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${color}" stroke-width="${n(o.width ?? 1.5)}"${dash} marker-end="url(#${id})"${start}/>`);
    return this;
  }

  /** A quadratic curve from (x1, y1) to (x2, y2) bent by `bend` pixels, with an arrowhead. */
  curvedArrow(x1: number, y1: number, x2: number, y2: number, bend: number, o: ArrowOptions = {}): this {
    const color = o.color ?? COLORS.text;
    const id = this.marker(color);
    const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [cx, cy] = [mx + (-(y2 - y1) / len) * bend, my + ((x2 - x1) / len) * bend];
    const dash = o.dash ? ` stroke-dasharray="${o.dash}"` : "";
    this.parts.push(`<path d="M${n(x1)},${n(y1)} Q${n(cx)},${n(cy)} ${n(x2)},${n(y2)}" fill="none" stroke="${color}" stroke-width="${n(o.width ?? 1.5)}"${dash} marker-end="url(#${id})"/>`);
    return this;
  }

  /** A rounded box with one or more centred lines of text. */
  box(x: number, y: number, w: number, h: number, label: string | string[], o: ShapeOptions & { text?: TextOptions } = {}): this {
    this.rect(x, y, w, h, { fill: COLORS.lightGrey, stroke: "#555555", rx: 4, ...o });
    const lines = Array.isArray(label) ? label : [label];
    const size = o.text?.size ?? 12;
    const top = y + h / 2 - ((lines.length - 1) * (size + 3)) / 2 + size * 0.35;
    lines.forEach((l, i) => this.text(x + w / 2, top + i * (size + 3), l, { anchor: "middle", ...o.text }));
    return this;
  }

  /** A legend: one swatch (box, line or dashed line) a row. */
  legend(x: number, y: number, items: ReadonlyArray<{ label: string; color: string; kind?: "box" | "line" | "dashed" | "dot" }>, rowHeight = 18): this {
    items.forEach((it, i) => {
      const cy = y + i * rowHeight;
      const kind = it.kind ?? "box";
      if (kind === "box") this.rect(x, cy - 6, 14, 12, { fill: it.color, stroke: "#555555" });
      else if (kind === "dot") this.circle(x + 7, cy, 4.5, { fill: it.color });
      else this.line(x, cy, x + 22, cy, { stroke: it.color, strokeWidth: 2.5, dash: kind === "dashed" ? "6 4" : undefined });
      this.text(x + (kind === "box" || kind === "dot" ? 20 : 28), cy + 4, it.label);
    });
    return this;
  }

  toString(): string {
    const defs = this.markers.size ? `<defs>${[...this.markers].sort().join("")}</defs>\n` : "";
    return [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" viewBox="0 0 ${this.width} ${this.height}" font-family="sans-serif" font-size="12">`,
      `${defs}<rect width="${this.width}" height="${this.height}" fill="white"/>`,
      ...this.parts,
      "</svg>",
      "",
    ].join("\n");
  }
}

export interface AxesSpec {
  /** The plotting area, in pixels. */
  left: number;
  top: number;
  width: number;
  height: number;
  x: readonly [number, number];
  y: readonly [number, number];
  xLabel?: string;
  yLabel?: string;
  /** Ticks, or a count for nice ticks. */
  xTicks?: number[] | number;
  yTicks?: number[] | number;
  /** Tick label text; the value with up to two decimals by default. */
  xTickFormat?: (v: number) => string;
  yTickFormat?: (v: number) => string;
  title?: string;
}

export interface Axes {
  sx: (x: number) => number;
  sy: (y: number) => number;
  spec: AxesSpec;
}

/** Draws grid lines, ticks, a frame and axis labels; returns the data-to-pixel maps. */
export function axes(c: Canvas, spec: AxesSpec): Axes {
  const { left, top, width, height } = spec;
  const [x0, x1] = spec.x;
  const [y0, y1] = spec.y;
  const sx = (x: number) => left + ((x - x0) / (x1 - x0)) * width;
  const sy = (y: number) => top + height - ((y - y0) / (y1 - y0)) * height;
  const xt = Array.isArray(spec.xTicks) ? spec.xTicks : niceTicks(x0, x1, spec.xTicks ?? 5);
  const yt = Array.isArray(spec.yTicks) ? spec.yTicks : niceTicks(y0, y1, spec.yTicks ?? 5);
  const fx = spec.xTickFormat ?? ((v: number) => fmtTick(v));
  const fy = spec.yTickFormat ?? ((v: number) => fmtTick(v));
  for (const t of xt) {
    c.line(sx(t), top, sx(t), top + height, { stroke: COLORS.faint });
    c.text(sx(t), top + height + 15, fx(t), { anchor: "middle", fill: COLORS.muted });
  }
  for (const t of yt) {
    c.line(left, sy(t), left + width, sy(t), { stroke: COLORS.faint });
    c.text(left - 6, sy(t) + 4, fy(t), { anchor: "end", fill: COLORS.muted });
  }
  c.rect(left, top, width, height, { stroke: "#333333" });
  if (spec.xLabel) c.text(left + width / 2, top + height + 34, spec.xLabel, { anchor: "middle" });
  if (spec.yLabel) c.text(left - 40, top + height / 2, spec.yLabel, { anchor: "middle", rotate: -90 });
  if (spec.title) c.text(left + width / 2, top - 8, spec.title, { anchor: "middle", weight: "bold", size: 13 });
  return { sx, sy, spec };
}

function fmtTick(v: number): string {
  return n(v).replace("-", "−");
}

/** A data series on axes, in data coordinates. */
export function plotLine(c: Canvas, ax: Axes, points: ReadonlyArray<readonly [number, number]>, o: ShapeOptions = {}): void {
  c.polyline(points.map(([x, y]) => [ax.sx(x), ax.sy(y)] as const), o);
}

/** Evenly spaced values from lo to hi inclusive. */
export function linspace(lo: number, hi: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => lo + ((hi - lo) * i) / (count - 1));
}

/** A colour between white and `rgb` (each 0-255) for a value in [0, 1]. */
export function shade(t: number, rgb: readonly [number, number, number] = [31, 119, 180]): string {
  const u = Math.max(0, Math.min(1, t));
  const ch = (c: number) => Math.round(255 + (c - 255) * u).toString(16).padStart(2, "0");
  return `#${ch(rgb[0])}${ch(rgb[1])}${ch(rgb[2])}`;
}

/** Well-formedness of an SVG document: one <svg> root, tags balanced, attributes quoted. */
export function svgProblems(text: string): string[] {
  const problems: string[] = [];
  const body = text.replace(/<\?xml[^>]*\?>/, "").replace(/<!--[\s\S]*?-->/g, "").trim();
  if (!body.startsWith("<svg")) problems.push("does not start with <svg");
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(body))) {
    const between = body.slice(last, m.index);
    if (between.includes("<")) problems.push(`malformed markup near "${between.slice(between.indexOf("<"), between.indexOf("<") + 40)}"`);
    if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(between)) problems.push(`unescaped & in text near "${between.slice(0, 40)}"`);
    last = tag.lastIndex;
    const [, close, name, , selfClose] = m;
    if (close) {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open ?? "nothing"}>`);
    } else if (!selfClose) stack.push(name!);
    if (stack.length === 0 && !close && !selfClose && name !== "svg") problems.push(`<${name}> outside <svg>`);
  }
  if (body.slice(last).trim() !== "") problems.push("text after the last tag");
  if (stack.length) problems.push(`unclosed <${stack.join(">, <")}>`);
  return problems;
}
