/**
 * A line chart as a self-contained SVG document: one or more series of (x, y) points, a logarithmic or linear x
 * axis, a linear y axis from 0, ticks, a legend. Enough for the benchmark's scale curves, where the reader wants
 * the slope; it draws nothing else and depends on nothing.
 */

/** One line of the chart. Points are drawn in the order given; non-finite values are left out. */
export interface Series {
  name: string;
  points: Array<[x: number, y: number]>;
}

/** A chart: its title, axis labels and series. */
export interface Chart {
  title: string;
  xLabel: string;
  yLabel: string;
  /** A base-10 logarithmic x axis (every x must be > 0). Default false. */
  logX?: boolean;
  series: Series[];
}

const W = 640;
const H = 400;
const M = { left: 70, right: 160, top: 40, bottom: 50 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];

/** `&`, `<`, `>` and `"` as XML entities. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A "nice" step (1, 2 or 5 × 10^k) that splits `span` into about `count` intervals. */
export function niceStep(span: number, count = 5): number {
  if (!(span > 0)) return 1;
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

function label(x: number): string {
  return Math.abs(x) >= 10_000 ? x.toExponential(0) : Number(x.toPrecision(4)).toLocaleString('en-US');
}

/**
 * The chart as an SVG document (UTF-8 text). Throws when there is no finite point to draw, or when `logX` is set and
 * an x is not positive.
 */
export function lineChartSvg(chart: Chart): string {
  const pts = chart.series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (!pts.length) throw new Error(`chart "${chart.title}" has no finite point`);
  if (chart.logX && pts.some(([x]) => x <= 0)) throw new Error(`chart "${chart.title}": a log x axis needs x > 0`);
  const fx = (x: number) => (chart.logX ? Math.log10(x) : x);
  const xs = pts.map(([x]) => fx(x));
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
  const yMax = Math.max(...pts.map(([, y]) => y), 0);
  const yStep = niceStep(yMax || 1);
  const y1 = Math.ceil((yMax || 1) / yStep) * yStep;
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const px = (x: number) => M.left + ((fx(x) - x0) / (x1 - x0)) * pw;
  const py = (y: number) => M.top + ph - (y / y1) * ph;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${M.left}" y="24" font-size="15" font-weight="bold">${escapeXml(chart.title)}</text>`,
    `<line x1="${M.left}" y1="${M.top + ph}" x2="${M.left + pw}" y2="${M.top + ph}" stroke="black"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${M.top + ph}" stroke="black"/>`,
  ];
  for (let y = 0; y <= y1 + yStep / 2; y += yStep) {
    out.push(`<line x1="${M.left}" y1="${py(y).toFixed(1)}" x2="${M.left + pw}" y2="${py(y).toFixed(1)}" stroke="#ddd"/>`);
    out.push(`<text x="${M.left - 6}" y="${(py(y) + 4).toFixed(1)}" text-anchor="end">${label(y)}</text>`);
  }
  const xTicks = chart.logX
    ? Array.from({ length: Math.floor(x1) - Math.ceil(x0) + 1 }, (_, i) => 10 ** (Math.ceil(x0) + i))
    : [...new Set(pts.map(([x]) => x))].sort((a, b) => a - b);
  for (const x of xTicks) {
    out.push(`<line x1="${px(x).toFixed(1)}" y1="${M.top + ph}" x2="${px(x).toFixed(1)}" y2="${M.top + ph + 5}" stroke="black"/>`);
    out.push(`<text x="${px(x).toFixed(1)}" y="${M.top + ph + 18}" text-anchor="middle">${label(x)}</text>`);
  }
  out.push(`<text x="${M.left + pw / 2}" y="${H - 10}" text-anchor="middle">${escapeXml(chart.xLabel)}${chart.logX ? ' (log scale)' : ''}</text>`);
  out.push(`<text transform="translate(16 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`);
  chart.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const line = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y)).map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`);
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${line.join(' ')}"/>`);
    for (const p of line) {
      const [cx, cy] = p.split(',');
      out.push(`<circle cx="${cx}" cy="${cy}" r="3" fill="${color}"/>`);
    }
    const ly = M.top + 10 + i * 18;
    out.push(`<line x1="${W - M.right + 12}" y1="${ly}" x2="${W - M.right + 32}" y2="${ly}" stroke="${color}" stroke-width="2"/>`);
    out.push(`<text x="${W - M.right + 38}" y="${ly + 4}">${escapeXml(s.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
