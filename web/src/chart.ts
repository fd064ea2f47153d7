// The score progression of a match as an SVG line chart (no library): one line per side of
// its running total after each deal, deal numbers along the bottom, and a legend beside the
// chart (HTML, so it never overlaps the lines), with a text summary for screen readers.
import { formatNumber, t } from "./i18n";
import { h, type VNode } from "./ui";

export const SIDE_COLOURS = ["#1f6fb2", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#555"];

export interface ChartGeometry {
  /** one polyline "x,y x,y …" per side, starting at 0 before the first deal */
  lines: string[];
  /** the value axis' bounds (0 is always inside) */
  low: number;
  high: number;
  /** y of the zero line */
  zeroY: number;
  /** x of each deal number (0 = the start) */
  xs: number[];
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
  const count = totals[0]?.length ?? 1;
  const steps = Math.max(1, count - 1);
  const x = (i: number) => pad + 12 + (i * (width - 2 * pad - 12)) / steps;
  const y = (v: number) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low);
  const lines = totals.map((series) => series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  return { lines, low, high, zeroY: y(0), xs: Array.from({ length: count }, (_v, i) => x(i)) };
}

/** The chart of a match so far; `sideNames[s]` labels side s. */
export function scoreChart(deals: number[][], sideNames: string[], width = 360, height = 180): VNode {
  const totals = runningTotals(deals, sideNames.length);
  const geo = chartGeometry(totals, width, height);
  const summary = t("Score after deal {n}: {totals}", {
    n: deals.length,
    totals: sideNames.map((name, s) => `${name} ${formatNumber(totals[s][totals[s].length - 1])}`).join(", "),
  });
  const colour = (s: number) => SIDE_COLOURS[s % SIDE_COLOURS.length];
  const every = Math.ceil(geo.xs.length / 12);
  return h("figure", { class: "chart-box" },
    h("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart", "aria-label": summary },
      h("title", {}, summary),
      h("line", { x1: geo.xs[0], x2: width - 28, y1: geo.zeroY, y2: geo.zeroY, class: "axis" }),
      ...[[geo.high, 28], [geo.low, height - 28]].map(([value, y]) => h("text", { x: 4, y: y + 4, class: "tick" }, formatNumber(value))),
      ...geo.xs.map((x, i) => (i > 0 && (i % every === 0 || i === geo.xs.length - 1)
        ? h("text", { x, y: height - 8, class: "tick deal-no", "text-anchor": "middle" }, formatNumber(i)) : null)),
      ...geo.lines.map((points, s) => {
        const last = points.split(" ").pop()!.split(",");
        return h("g", {}, h("polyline", { points, fill: "none", stroke: colour(s), "stroke-width": 2.5 }),
          h("circle", { cx: last[0], cy: last[1], r: 3.5, fill: colour(s) }));
      })),
    h("figcaption", {}, h("p", { class: "chart-caption" }, t("Running totals after each deal")), h("ul", { class: "legend" }, ...sideNames.map((name, s) =>
      h("li", {}, h("span", { class: "swatch", style: `background:${colour(s)}` }), name)))));
}
