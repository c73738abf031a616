import { MARK_PREFIX } from '../../../contract/bookmark';

/** Loads a chart part's XML by its relationship id from the main part (null when there is none). */
export type ChartLoader = (relId: string) => Promise<string | null>;

const SVG = 'http://www.w3.org/2000/svg';
const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const COLORS = ['#4472c4', '#ed7d31', '#a5a5a5', '#ffc000', '#5b9bd5', '#70ad47', '#264478', '#9e480e'];

/**
 * Nothing blank: each drawing docx-preview leaves empty (the render variant names it, see
 * docx/render/objects.ts) becomes a chart drawn from its part's cached values, as a static SVG,
 * or a visible placeholder of the drawing's size that says what it is ("Chart: Revenue by
 * quarter", "Text box: ..."). Runs before layout (the size counts in the page).
 */
export async function showObjects(root: HTMLElement, loadChart: ChartLoader): Promise<void> {
  const jobs: Promise<void>[] = [];
  for (const span of root.querySelectorAll<HTMLElement>(`span[id^="${MARK_PREFIX.chart}"]`)) {
    const [, kind = 'Object', relId = '', w = '0', h = '0', ...rest] = span.id.slice(MARK_PREFIX.chart.length).split('_');
    const label = decodeURIComponent(rest.join('_'));
    const run = span.nextElementSibling;
    const drawing = run?.querySelector<HTMLElement>('div') ?? null;
    // Drawn after all (a picture docx-preview did render): leave it.
    if (!drawing || drawing.querySelector('img, svg')) continue;
    const width = Math.max(Number(w), 24);
    const height = Math.max(Number(h), 16);
    const box = document.createElement('div');
    box.className = 'rl-object';
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', label);
    box.style.width = `${width}px`;
    box.style.height = `${height}px`;
    box.textContent = label;
    drawing.replaceChildren(box);
    drawing.style.width = `${width}px`;
    drawing.style.height = `${height}px`;
    if (kind === 'chart' && relId) {
      jobs.push(
        loadChart(relId)
          .then((xml) => {
            const svg = xml ? chartSvg(xml, width, height) : null;
            if (!svg) return;
            box.replaceChildren(svg);
            box.classList.add('rl-chart');
            if (svg.dataset.title) box.setAttribute('aria-label', `Chart: ${svg.dataset.title}`);
          })
          .catch(() => undefined),
      );
    }
  }
  await Promise.all(jobs);
}

interface Series {
  name: string;
  values: number[];
}

const texts = (el: Element | null | undefined, ns: string, local: string) => (el ? [...el.getElementsByTagNameNS(ns, local)].map((e) => e.textContent ?? '') : []);

/** A bar, line, area or pie chart from the chart part's caches (the values Word last saved). */
export function chartSvg(xml: string, width: number, height: number): SVGSVGElement | null {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const plot = doc.getElementsByTagNameNS(C, 'plotArea')[0];
  if (!plot) return null;
  const chart = [...plot.children].find((c) => c.namespaceURI === C && c.localName.endsWith('Chart'));
  if (!chart) return null;
  const type = chart.localName;
  const series: Series[] = [...chart.getElementsByTagNameNS(C, 'ser')].map((ser, i) => ({
    name: texts(ser.getElementsByTagNameNS(C, 'tx')[0], C, 'v')[0] ?? `Series ${i + 1}`,
    values: texts(ser.getElementsByTagNameNS(C, 'val')[0] ?? ser.getElementsByTagNameNS(C, 'yVal')[0], C, 'v').map(Number),
  }));
  const first = chart.getElementsByTagNameNS(C, 'ser')[0];
  const categories = texts(first?.getElementsByTagNameNS(C, 'cat')[0] ?? first?.getElementsByTagNameNS(C, 'xVal')[0], C, 'v');
  const titleEl = doc.getElementsByTagNameNS(C, 'title')[0];
  const title = titleEl ? texts(titleEl, A, 't').join('') : series.length === 1 ? series[0]!.name : '';
  if (series.length === 0 || series.every((s) => s.values.length === 0)) return null;

  const svg = document.createElementNS(SVG, 'svg');
  svg.dataset.title = title;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  const add = (tag: string, attrs: Record<string, string | number>, text?: string) => {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (text !== undefined) el.textContent = text;
    svg.append(el);
    return el;
  };
  add('rect', { x: 0, y: 0, width, height, fill: '#fff', stroke: '#d4d4d4' });
  const top = title ? 28 : 10;
  if (title) add('text', { x: width / 2, y: 19, 'text-anchor': 'middle', 'font-size': 14, fill: '#404040' }, title);
  const legendH = series.length > 1 || type.startsWith('pie') ? 20 : 0;
  const bottom = height - 24 - legendH;
  const left = 40;
  const right = width - 10;
  series.forEach((s, i) => {
    if (!legendH) return;
    const x = left + i * 110;
    add('rect', { x, y: height - 16, width: 10, height: 10, fill: COLORS[i % COLORS.length]! });
    add('text', { x: x + 14, y: height - 7, 'font-size': 11, fill: '#404040' }, s.name);
  });

  if (type.startsWith('pie') || type.startsWith('doughnut')) {
    const values = series[0]!.values;
    const total = values.reduce((a, b) => a + Math.max(0, b), 0) || 1;
    const cx = width / 2;
    const cy = (top + bottom + 20) / 2;
    const r = Math.max(10, Math.min(width / 2 - 20, (bottom + 20 - top) / 2));
    let angle = -Math.PI / 2;
    values.forEach((v, i) => {
      const a = (Math.max(0, v) / total) * Math.PI * 2;
      const x1 = cx + r * Math.cos(angle);
      const y1 = cy + r * Math.sin(angle);
      angle += a;
      const x2 = cx + r * Math.cos(angle);
      const y2 = cy + r * Math.sin(angle);
      add('path', { d: `M${cx},${cy} L${x1},${y1} A${r},${r} 0 ${a > Math.PI ? 1 : 0} 1 ${x2},${y2} Z`, fill: COLORS[i % COLORS.length]!, stroke: '#fff' });
    });
    return svg;
  }

  const all = series.flatMap((s) => s.values).filter(Number.isFinite);
  const max = Math.max(0, ...all);
  const min = Math.min(0, ...all);
  const span = max - min || 1;
  const y = (v: number) => bottom - ((v - min) / span) * (bottom - top);
  const n = Math.max(categories.length, ...series.map((s) => s.values.length));
  const slot = (right - left) / Math.max(1, n);
  add('line', { x1: left, y1: y(0), x2: right, y2: y(0), stroke: '#a3a3a3' });
  for (const tick of [min, min + span / 2, max]) add('text', { x: left - 4, y: y(tick) + 4, 'text-anchor': 'end', 'font-size': 10, fill: '#595959' }, formatTick(tick));
  categories.forEach((cat, k) => add('text', { x: left + slot * (k + 0.5), y: bottom + 14, 'text-anchor': 'middle', 'font-size': 10, fill: '#595959' }, cat.slice(0, 14)));
  if (type.startsWith('bar')) {
    const horizontal = chart.getElementsByTagNameNS(C, 'barDir')[0]?.getAttribute('val') === 'bar';
    const bw = (slot * 0.7) / series.length;
    series.forEach((s, i) =>
      s.values.forEach((v, k) => {
        const x = left + slot * k + slot * 0.15 + bw * i;
        add('rect', { x, y: Math.min(y(v), y(0)), width: bw, height: Math.abs(y(v) - y(0)), fill: COLORS[i % COLORS.length]!, 'data-horizontal': horizontal ? 1 : 0 });
      }),
    );
  } else {
    series.forEach((s, i) =>
      add('polyline', { points: s.values.map((v, k) => `${left + slot * (k + 0.5)},${y(v)}`).join(' '), fill: 'none', stroke: COLORS[i % COLORS.length]!, 'stroke-width': 2 }),
    );
  }
  return svg;
}

function formatTick(v: number): string {
  return Math.abs(v) >= 1000 ? `${Math.round(v / 100) / 10}k` : String(Math.round(v * 10) / 10);
}
