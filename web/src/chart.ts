// The score progression of a match as an SVG line chart (no library): one line per side of
// its running total after each deal, with a text summary for screen readers.
import { formatNumber, t } from "./i18n";

const SVG = "http://www.w3.org/2000/svg";
export const SIDE_COLOURS = ["#1f6fb2", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#555"];

export interface ChartGeometry {
  /** one polyline "x,y x,y …" per side, starting at 0 before the first deal */
  lines: string[];
  /** the value axis' bounds (0 is always inside) */
  low: number;
  high: number;
  /** y of the zero line */
  zeroY: number;
}

/** Running totals per side after each deal: deals[d][side] are one deal's scores. */
export function runningTotals(deals: number[][], sides: number): number[][] {
  const out: number[][] = Array.from({ length: sides }, () => [0]);
  for (const scores of deals) {
    for (let s = 0; s < sides; s++) out[s].push(out[s][out[s].length - 1] + (scores[s] ?? 0));
  }
  return out;
}

export function chartGeometry(totals: number[][], width: number, height: number, pad = 28): ChartGeometry {
  const values = totals.flat();
  const low = Math.min(0, ...values);
  const high = Math.max(1, ...values);
  const steps = Math.max(1, (totals[0]?.length ?? 1) - 1);
  const x = (i: number) => pad + (i * (width - 2 * pad)) / steps;
  const y = (v: number) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low);
  const lines = totals.map((series) => series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  return { lines, low, high, zeroY: y(0) };
}

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The chart of a match so far; `sideNames[s]` labels side s. */
export function scoreChart(deals: number[][], sideNames: string[], width = 360, height = 180): SVGSVGElement {
  const totals = runningTotals(deals, sideNames.length);
  const geo = chartGeometry(totals, width, height);
  const summary = t("Score after deal {n}: {totals}", {
    n: deals.length,
    totals: sideNames.map((name, s) => `${name} ${formatNumber(totals[s][totals[s].length - 1])}`).join(", "),
  });
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart", "aria-label": summary });
  const title = el("title", {});
  title.textContent = summary;
  svg.append(title);
  svg.append(el("line", { x1: 28, x2: width - 28, y1: geo.zeroY, y2: geo.zeroY, class: "axis" }));
  for (const [value, y] of [[geo.high, 28], [geo.low, height - 28]] as const) {
    const label = el("text", { x: 4, y: y + 4, class: "tick" });
    label.textContent = formatNumber(value);
    svg.append(label);
  }
  geo.lines.forEach((points, s) => {
    svg.append(el("polyline", { points, fill: "none", stroke: SIDE_COLOURS[s % SIDE_COLOURS.length], "stroke-width": 2.5 }));
    const last = points.split(" ").pop()!.split(",");
    svg.append(el("circle", { cx: last[0], cy: last[1], r: 3.5, fill: SIDE_COLOURS[s % SIDE_COLOURS.length] }));
  });
  sideNames.forEach((name, s) => {
    const label = el("text", { x: 34 + s * 110, y: 16, class: "legend", fill: SIDE_COLOURS[s % SIDE_COLOURS.length] });
    label.textContent = name;
    svg.append(label);
  });
  return svg;
}
