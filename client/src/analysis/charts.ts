// Charts with Chart.js (canvas; line, stacked bar and floating-bar timelines from one library, with
// click events that give the data point). Time runs along x as game ms on a linear scale, labelled
// "13 Feb 14:00", so no date adapter is needed. Each chart is kept by name for the browser tests.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartEvent,
  type ActiveElement,
} from 'chart.js';
import { formatClock, minuteOfDay } from '@protocol/time';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, BarController, BarElement, Tooltip, Legend, Filler);
Chart.defaults.color = '#d8d4cc';
Chart.defaults.borderColor = '#33405a';
Chart.defaults.animation = false;

export const PALETTE = ['#6fb1ff', '#ffb85c', '#7ddc8a', '#ff7b8a', '#c79bff', '#5fd6d0', '#f2e36b', '#ff9f6b', '#9aa7c7', '#e28bd6'];
const charts = new Map<string, Chart>();

export function chartByName(name: string): Chart | undefined {
  return charts.get(name);
}

export function chartNames(): string[] {
  return [...charts.keys()];
}

/** Destroys a kept chart (its section has nothing to show for this window or world). */
export function dropChart(name: string): void {
  charts.get(name)?.destroy();
  charts.delete(name);
}

/** Makes a chart in place of the one kept by that name: Chart.js takes a canvas only once the old chart on it is destroyed. */
function keep(name: string, canvas: HTMLCanvasElement, make: () => Chart): Chart {
  charts.get(name)?.destroy();
  Chart.getChart(canvas)?.destroy();
  charts.delete(name);
  const chart = make();
  charts.set(name, chart);
  return chart;
}

const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export function shortTime(gameMs: number): string {
  const d = new Date(gameMs);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${formatClock(minuteOfDay(gameMs))}`;
}

const HOUR_MS = 3_600_000;
/** The room a tick's label takes along x, in CSS px ("06:00" over "13 Feb", and a gap). */
export const TICK_SPACING_PX = 64;
/** Whole game hours between ticks: the smallest of these that fits the axis's width. */
const TICK_HOURS = [1, 2, 3, 6, 12, 24, 48, 96, 168];

/** How many game hours apart the ticks of an axis `widthPx` wide over [min, max] are, so that their labels never touch. */
export function tickStepHours(min: number, max: number, widthPx: number): number {
  const fit = Math.max(2, Math.floor(widthPx / TICK_SPACING_PX));
  const hours = (max - min) / HOUR_MS;
  return TICK_HOURS.find((h) => hours / h + 1 <= fit) ?? Math.ceil(hours / (fit - 1) / 24) * 24;
}

/** A time axis from min to max with ticks on whole game hours, as many as its width has room for; each label is the time over the date. */
export const timeAxis = (min: number, max: number) => ({
  type: 'linear' as const,
  min,
  max,
  afterBuildTicks: (axis: { width: number; ticks: Array<{ value: number }> }) => {
    const step = tickStepHours(min, max, axis.width || 600) * HOUR_MS;
    axis.ticks = [];
    for (let t = Math.ceil(min / step) * step; t <= max; t += step) axis.ticks.push({ value: t });
  },
  ticks: {
    callback: (v: string | number) => [formatClock(minuteOfDay(Number(v))), shortTime(Number(v)).split(' ').slice(0, 2).join(' ')],
    maxRotation: 0,
    autoSkip: true,
    autoSkipPadding: 8,
  },
});

/**
 * A value axis that fits its data: from 0 to a little over the largest value (Chart.js rounds it to a nice
 * tick), never past `limit` (what is possible: every agent, a density of 1); whole numbers only for counts.
 * Tick labels are formatted here, to as many decimals as the step between ticks needs.
 */
export function valueAxis(values: number[], o: { limit?: number; integer?: boolean; title: string; stacked?: boolean }) {
  const top = Math.max(0, ...values.filter(Number.isFinite));
  const limit = o.limit ?? Infinity;
  // Near the limit the limit is the top (a curve that reaches everyone ends at the top of the chart); an empty chart shows 0–1.
  const max = top === 0 ? (o.integer ? Math.min(limit, 5) : Math.min(limit, 1)) : top * 1.15 >= limit ? limit : undefined;
  return {
    beginAtZero: true,
    min: 0,
    max,
    stacked: o.stacked,
    grace: max === undefined ? '10%' : undefined,
    title: { display: true, text: o.title },
    ticks: {
      precision: o.integer ? 0 : undefined,
      callback: (v: string | number, i: number, ticks: Array<{ value: number }>) =>
        formatTick(Number(v), ticks.length > 1 ? Math.abs(ticks[1].value - ticks[0].value) : 1),
    },
  };
}

/** A tick's number with the decimals its step needs (0.002 steps: "0.006"; steps of 50: "150"), thousands grouped. */
export function formatTick(value: number, step: number): string {
  const decimals = step > 0 && step < 1 ? Math.min(6, Math.ceil(-Math.log10(step) - 1e-9)) : 0;
  const [whole, frac] = value.toFixed(decimals).split('.');
  return frac ? `${groupThousands(whole)}.${frac}` : groupThousands(whole);
}

/**
 * A whole number with its thousands grouped ("3,482"). Not toLocaleString: the first Intl number format a
 * page makes takes tens of ms (hundreds on a busy machine), a long task while the page loads.
 */
export function groupThousands(n: number | string): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The game time at a click: the nearest point's x, or the x under the pointer. */
function clickedTime(chart: Chart, event: ChartEvent, elements: ActiveElement[]): number | null {
  const el = elements[0];
  if (el) {
    const raw = chart.data.datasets[el.datasetIndex].data[el.index] as { x: number } | number;
    if (typeof raw === 'object' && raw && 'x' in raw) return raw.x;
  }
  if (event.x === null) return null;
  const x = chart.scales.x.getValueForPixel(event.x);
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

export interface Series {
  label: string;
  points: Array<{ x: number; y: number }>;
}

export function lineChart(
  name: string,
  canvas: HTMLCanvasElement,
  series: Series[],
  o: { yLimit?: number; integer?: boolean; yLabel: string; onClick(gameMs: number): void },
): Chart {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  return keep(
    name,
    canvas,
    () =>
      new Chart(canvas, {
        type: 'line',
        data: {
          datasets: series.map((s, i) => ({
            label: s.label,
            data: s.points,
            borderColor: PALETTE[i % PALETTE.length],
            backgroundColor: PALETTE[i % PALETTE.length],
            stepped: true,
            pointRadius: 2,
            pointHoverRadius: 5,
          })),
        },
        options: {
          maintainAspectRatio: false,
          interaction: { mode: 'nearest', intersect: false, axis: 'x' },
          scales: {
            x: timeAxis(Math.min(...xs), Math.max(...xs)),
            y: valueAxis(
              series.flatMap((s) => s.points.map((p) => p.y)),
              { limit: o.yLimit, integer: o.integer, title: o.yLabel },
            ),
          },
          plugins: { tooltip: { callbacks: { title: (items) => shortTime(Number((items[0]?.raw as { x: number }).x)) } } },
          onClick: (event, elements, chart) => {
            const t = clickedTime(chart, event, elements);
            if (t !== null) o.onClick(t);
          },
        },
      }),
  );
}

/** Stacked bars per game hour, one dataset per key (purposes or agents). */
export function hourlyBars(
  name: string,
  canvas: HTMLCanvasElement,
  hours: number[],
  stacks: Array<{ label: string; values: number[] }>,
  onClick: (gameMs: number) => void,
): Chart {
  return keep(
    name,
    canvas,
    () =>
      new Chart(canvas, {
        type: 'bar',
        data: {
          datasets: stacks.map((s, i) => ({
            label: s.label,
            data: hours.map((h, k) => ({ x: h + 1_800_000, y: s.values[k] })),
            backgroundColor: PALETTE[i % PALETTE.length],
            barPercentage: 1,
            categoryPercentage: 1,
          })),
        },
        options: {
          maintainAspectRatio: false,
          scales: {
            x: { ...timeAxis(hours[0], (hours.at(-1) ?? 0) + 3_600_000), stacked: true },
            y: valueAxis(
              hours.map((_, k) => stacks.reduce((sum, s) => sum + (s.values[k] ?? 0), 0)),
              { integer: true, stacked: true, title: 'calls per game hour' },
            ),
          },
          onClick: (event, elements, chart) => {
            const t = clickedTime(chart, event, elements);
            if (t !== null) onClick(Math.floor(t / 3_600_000) * 3_600_000);
          },
        },
      }),
  );
}

export interface TimelineBar {
  row: string;
  startGameMs: number;
  endGameMs: number;
  label: string;
}

/** A day as floating horizontal bars: one row per place, one bar per action. */
export function timeline(name: string, canvas: HTMLCanvasElement, bars: TimelineBar[], dayStart: number, onClick: (bar: TimelineBar) => void): Chart {
  const rows = [...new Set(bars.map((b) => b.row))];
  return keep(
    name,
    canvas,
    () =>
      new Chart(canvas, {
        type: 'bar',
        data: {
          labels: rows,
          datasets: [
            {
              label: 'actions',
              data: bars.map((b) => ({ x: [b.startGameMs, b.endGameMs], y: b.row })) as unknown as number[],
              backgroundColor: bars.map((b) => PALETTE[rows.indexOf(b.row) % PALETTE.length]),
              borderSkipped: false,
              barPercentage: 0.8,
            },
          ],
        },
        options: {
          indexAxis: 'y',
          maintainAspectRatio: false,
          scales: { x: timeAxis(dayStart, dayStart + DAY_MS), y: { type: 'category' } },
          plugins: { legend: { display: false }, tooltip: { callbacks: { label: (item) => bars[item.dataIndex]?.label ?? '' } } },
          onClick: (_event, elements) => {
            const el = elements[0];
            if (el) onClick(bars[el.index]);
          },
        },
      }),
  );
}
