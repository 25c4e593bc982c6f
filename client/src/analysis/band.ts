// The diffusion curve over seeds on the analysis page: `/analysis?seeds=<a seeds run>` (or
// `?band=a,b,c`, world names) adds a section with, per topic, the mean of the agents aware at every game
// hour over the worlds, its 95% interval (shaded), and each world's own curve (thin). Self-contained: it
// reads /api/analysis/band and draws with Chart.js (charts.ts registers the parts, Filler included).
import { Chart } from 'chart.js';
import type { DiffusionBand } from '@protocol/band';
import { PALETTE, groupThousands, timeAxis, valueAxis } from './charts';

const charts = new Map<string, Chart>();

/** The band chart of a topic, for the browser tests. */
export function bandChart(topic: string): Chart | undefined {
  return charts.get(topic);
}

/** The URL parameters that ask for a band: what the page keeps when it rewrites its URL. */
export function bandQuery(search: string): Record<string, string> {
  const q = new URLSearchParams(search);
  const out: Record<string, string> = {};
  for (const k of ['seeds', 'band']) {
    const v = q.get(k);
    if (v) out[k] = v;
  }
  return out;
}

export async function fetchBand(query: Record<string, string>): Promise<DiffusionBand> {
  const q = new URLSearchParams(query.seeds ? { seeds: query.seeds } : { worlds: query.band });
  const res = await fetch(`/api/analysis/band?${q}`);
  const body = (await res.json()) as DiffusionBand & { error?: string };
  if (!res.ok) throw new Error(`diffusion over seeds: ${body.error ?? `HTTP ${res.status}`}`);
  return body;
}

/** Draws the band into `box` (emptied first); nothing when the page was not asked for one. */
export async function renderBand(box: HTMLElement, search: string): Promise<DiffusionBand | null> {
  const query = bandQuery(search);
  box.replaceChildren();
  box.hidden = Object.keys(query).length === 0;
  if (box.hidden) return null;
  const band = await fetchBand(query);
  const head = document.createElement('h2');
  head.textContent = `Information diffusion over ${band.worlds.length} seeds`;
  const note = document.createElement('p');
  note.className = 'muted';
  note.textContent =
    `Mean of the agents aware (line), its 95% interval (Student's t, shaded; clamped to 0–${groupThousands(band.agents)}, ` +
    `what is possible) and each world (thin): ${band.worlds.join(', ')}.`;
  box.append(head, note);
  for (const [i, topic] of band.topics.entries()) {
    const wrap = document.createElement('div');
    wrap.className = 'chart';
    const canvas = document.createElement('canvas');
    canvas.id = `band-${topic.name}`;
    wrap.append(canvas);
    const title = document.createElement('h3');
    const last = topic.points.at(-1);
    title.textContent = `${topic.name}: “${topic.phrase}”${last ? ` — at the end ${last.mean.toFixed(1)} ± ${last.sd.toFixed(1)} of ${band.agents}` : ''}`;
    box.append(title, wrap);
    const colour = PALETTE[i % PALETTE.length];
    const at = (y: (p: (typeof topic.points)[number]) => number) => topic.points.map((p) => ({ x: p.ms, y: y(p) }));
    charts.get(topic.name)?.destroy();
    charts.set(
      topic.name,
      new Chart(canvas, {
        type: 'line',
        data: {
          datasets: [
            // The interval's lower edge: the shaded band is filled from the upper edge down to it. Not in the legend.
            { label: '95% interval, low', data: at((p) => p.lo), borderWidth: 0, pointRadius: 0, fill: false },
            { label: '95% interval', data: at((p) => p.hi), borderWidth: 0, pointRadius: 0, backgroundColor: `${colour}44`, fill: '-1' },
            { label: 'mean', data: at((p) => p.mean), borderColor: colour, backgroundColor: colour, pointRadius: 2 },
            ...band.worlds.map((w, k) => ({
              label: w,
              data: at((p) => p.values[k]),
              borderColor: `${colour}66`,
              backgroundColor: `${colour}66`,
              borderWidth: 1,
              pointRadius: 0,
              stepped: true,
            })),
          ],
        },
        options: {
          maintainAspectRatio: false,
          // The run's own span, on the same round game hours as every other chart on the page.
          scales: {
            x: timeAxis(topic.points[0]?.ms ?? 0, topic.points.at(-1)?.ms ?? 0),
            y: valueAxis(
              topic.points.flatMap((p) => [p.hi, ...p.values]),
              { limit: band.agents, integer: true, title: `agents aware (of ${groupThousands(band.agents)})` },
            ),
          },
          plugins: {
            legend: {
              labels: {
                // The band, the mean, and one entry for the worlds' own curves: each legend entry has a swatch that is drawn.
                generateLabels: (chart) =>
                  Chart.defaults.plugins.legend.labels
                    .generateLabels(chart)
                    .filter((item) => item.datasetIndex !== undefined && item.datasetIndex >= 1 && item.datasetIndex <= 3)
                    .map((item) => (item.datasetIndex === 3 ? { ...item, text: 'each world' } : item)),
              },
              // Clicking the "each world" entry would hide only the first world: the legend only names.
              onClick: () => {},
            },
          },
        },
      }),
    );
  }
  return band;
}
