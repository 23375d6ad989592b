import { describe, expect, it } from 'vitest';
import { escapeXml, lineChartSvg, niceStep } from './svg-plot.ts';

/** The polyline points of the n-th series, as numbers. */
function polyline(svg: string, n = 0): Array<[number, number]> {
  const lines = [...svg.matchAll(/<polyline[^>]* points="([^"]*)"/g)].map((m) => m[1]!);
  return lines[n]!.split(' ').map((p) => p.split(',').map(Number) as [number, number]);
}

describe('scale curve charts (SVG)', () => {
  it('places points left to right by x and higher y higher on the page, on a log x axis with decade ticks', () => {
    const svg = lineChartSvg({ title: 'RSS', xLabel: 'sprites', yLabel: 'MiB', logX: true, series: [{ name: 'rss', points: [[10, 1], [100, 2], [1000, 4], [10000, 8]] }] });
    const pts = polyline(svg);
    expect(pts).toHaveLength(4);
    // Equal decades are equal distances on a log axis.
    const dx = pts.slice(1).map((p, i) => p[0] - pts[i]![0]);
    for (const d of dx) expect(d).toBeCloseTo(dx[0]!, 0);
    for (let i = 1; i < pts.length; i++) expect(pts[i]![1]).toBeLessThan(pts[i - 1]![1]);
    for (const tick of ['>10<', '>100<', '>1,000<', '>1e+4<']) expect(svg).toContain(tick);
    expect(svg).toContain('sprites (log scale)');
  });

  it('draws one line and one legend entry per series, and escapes text', () => {
    const svg = lineChartSvg({ title: 'a <b> & "c"', xLabel: 'x', yLabel: 'y', series: [{ name: 'p50', points: [[1, 1], [2, 3]] }, { name: 'p99 <all>', points: [[1, 2], [2, 5]] }] });
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg).toContain('a &lt;b&gt; &amp; &quot;c&quot;');
    expect(svg).toContain('p99 &lt;all&gt;');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  it('leaves out non-finite points and refuses a chart with nothing to draw or a log axis at 0', () => {
    const svg = lineChartSvg({ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 's', points: [[1, 1], [2, Number.NaN], [3, 2]] }] });
    expect(polyline(svg)).toHaveLength(2);
    expect(() => lineChartSvg({ title: 'empty', xLabel: 'x', yLabel: 'y', series: [{ name: 's', points: [[1, Number.NaN]] }] })).toThrow(/no finite point/);
    expect(() => lineChartSvg({ title: 'log0', xLabel: 'x', yLabel: 'y', logX: true, series: [{ name: 's', points: [[0, 1], [10, 2]] }] })).toThrow(/x > 0/);
  });

  it('picks 1-2-5 steps and escapes XML', () => {
    expect(niceStep(10)).toBe(2);
    expect(niceStep(7)).toBe(2);
    expect(niceStep(23)).toBe(5);
    expect(niceStep(0.9)).toBeCloseTo(0.2);
    expect(niceStep(0)).toBe(1);
    expect(escapeXml('<&>"')).toBe('&lt;&amp;&gt;&quot;');
  });
});
