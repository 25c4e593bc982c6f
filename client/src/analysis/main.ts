// The analysis page (/analysis): any world file, live or recorded, over any window of game time. It
// shows the relationship graph, diffusion curves with the who-told-whom trees, network density and
// attendance, a conversation browser, one agent's day, and LLM use; every chart links to the replay.
import type { AnalysisReport, ConversationView, WorldListing } from '@protocol/analysis';
import { formatIsoMinute, parseIsoMinute } from '@protocol/time';
import { api, type Selection } from './api';
import { chartByName, chartNames, dropChart, groupThousands, hourlyBars, lineChart, shortTime, timeline } from './charts';
import { diffusionTree, dropGraphs, graphByName, relationshipGraph, type DrawnGraph } from './graph';
import { bandChart, bandQuery, renderBand } from './band';
import { lastReplayLink, linkTo, setLinkWorld, showReplayLink } from './links';

declare global {
  interface Window {
    /** Test hooks for the browser tests: read-only views of what is on screen. */
    __analysis?: {
      ready: boolean;
      error: string | null;
      graph(name: string): { nodes: number; edges: number } | null;
      /** The relationship graph's data: every agent and tie, drawn or not yet. */
      graphTotals(): { nodes: number; edges: number };
      /** Data points of each dataset of a chart. */
      chartPoints(name: string): number[];
      charts(): string[];
      /** Page coordinates of a chart's data point, for a real click. */
      pointPosition(name: string, dataset: number, index: number): { x: number; y: number } | null;
      /** Page coordinates of the middle of a graph's edge, for a real click. */
      edgePosition(name: string, index: number): { x: number; y: number } | null;
      lastLink(): string | null;
      /** The x-axis labels a chart draws, left to right (canvas px), and how many legend entries it shows. */
      axisLabels(name: string): { ticks: Array<{ left: number; right: number; text: string }>; legend: number };
      /** Each who-told-whom tree: its topic, nodes, and its names' size on screen (px). */
      trees(): Array<{ name: string; nodes: number; labelPx: number }>;
      /** Pairs of a graph's node labels whose drawn boxes overlap. */
      labelOverlaps(name: string): string[];
    };
  }
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $('status');
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Array<Node | string>) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

const hooks: NonNullable<Window['__analysis']> = {
  ready: false,
  error: null,
  graph(name) {
    const g = graphByName(name);
    return g ? { nodes: g.nodes(), edges: g.edges() } : null;
  },
  graphTotals() {
    return { nodes: drawnGraph?.agents ?? 0, edges: drawnGraph?.total ?? 0 };
  },
  chartPoints(name) {
    return chartByName(name)?.data.datasets.map((d) => d.data.length) ?? [];
  },
  charts: chartNames,
  pointPosition(name, dataset, index) {
    const chart = chartByName(name);
    const point = chart?.getDatasetMeta(dataset).data[index];
    if (!chart || !point) return null;
    const box = chart.canvas.getBoundingClientRect();
    return { x: box.left + point.x, y: box.top + point.y };
  },
  edgePosition(name, index) {
    return graphByName(name)?.edgeMidpoint(index) ?? null;
  },
  lastLink: lastReplayLink,
  trees: () =>
    (report?.topics ?? []).flatMap((t) => {
      const g = graphByName(`tree-${t.name}`);
      return g ? [{ name: t.name, nodes: g.nodes(), labelPx: g.labelPx() }] : [];
    }),
  axisLabels(name) {
    const chart = chartByName(name) ?? bandChart(name.replace(/^band-/, ''));
    if (!chart) return { ticks: [], legend: 0 };
    const ctx = chart.ctx;
    const ticks = chart.scales.x.getLabelItems().map((item) => {
      ctx.font = item.font.string;
      const lines = Array.isArray(item.label) ? item.label : [item.label];
      const width = Math.max(...lines.map((l) => ctx.measureText(String(l)).width));
      const x = item.options.translation![0];
      const left = item.options.textAlign === 'left' ? x : item.options.textAlign === 'right' ? x - width : x - width / 2;
      return { left, right: left + width, text: lines.join(' ') };
    });
    const legend = chart.options.plugins?.legend?.display === false ? 0 : (chart.legend?.legendItems?.length ?? 0);
    return { ticks: ticks.sort((a, b) => a.left - b.left), legend };
  },
  labelOverlaps(name) {
    const boxes = graphByName(name)?.labelBoxes() ?? [];
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [p, q] = [boxes[i], boxes[j]];
        if (p.x1 < q.x2 && q.x1 < p.x2 && p.y1 < q.y2 && q.y1 < p.y2) out.push(`${boxes[i].id}/${boxes[j].id}`);
      }
    return out;
  },
};
window.__analysis = hooks;

let sel: Selection = { world: null, from: '', to: '' };
let report: AnalysisReport | null = null;
let listing: WorldListing | null = null;
let drawnGraph: DrawnGraph | null = null;

/** By name, by code point: localeCompare's first use loads a collator, a long task on a page that lists a thousand names. */
const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function names(): Map<string, string> {
  return new Map((report?.agents ?? []).map((a) => [a.id, a.name]));
}

async function loadWorlds(): Promise<void> {
  listing = await api.worlds();
  const select = $<HTMLSelectElement>('world');
  select.replaceChildren(
    ...listing.worlds.map((w) =>
      el('option', {
        value: w.id === listing!.live ? '' : w.id,
        textContent: `${w.id}${w.id === listing!.live ? ' (live)' : ''}${w.error ? ' — unreadable' : ` — ${w.agents} agents`}`,
        disabled: !!w.error,
      }),
    ),
  );
  if (!listing.worlds.some((w) => w.id === listing!.live)) select.prepend(el('option', { value: '', textContent: `${listing.live} (live)` }));
  select.value = sel.world ?? '';
}

function readUrl(): void {
  const q = new URLSearchParams(location.search);
  sel = { world: q.get('world') || null, from: q.get('from') ?? '', to: q.get('to') ?? '' };
}

/** The band over seeds the page was opened with (`?seeds=` or `?band=`), kept in the URL it rewrites. */
const band = bandQuery(location.search);

function writeUrl(): void {
  const q = new URLSearchParams(band);
  if (sel.world) q.set('world', sel.world);
  if (sel.from) q.set('from', sel.from);
  if (sel.to) q.set('to', sel.to);
  history.replaceState(null, '', `${location.pathname}${q.toString() ? `?${q}` : ''}`);
}

async function loadAll(): Promise<void> {
  hooks.ready = false;
  hooks.error = null;
  status.textContent = 'computing…';
  drawnGraph = null;
  setLinkWorld(sel.world);
  writeUrl();
  const generation = ++loads;
  // The graph is fetched and laid out (in a worker) meanwhile: the report is computed and the other
  // sections drawn while it runs, each in a task of its own, so that none holds the page for long.
  const graphDrawn = renderGraph(() => generation === loads);
  report = await api.report(sel);
  $<HTMLInputElement>('from').value = sel.from || report.window.from;
  $<HTMLInputElement>('to').value = sel.to || report.window.to;
  $('summary').textContent =
    `${report.agents.length} agents · ${report.window.days} game days · ${report.conversations.total} ` +
    `conversation${report.conversations.total === 1 ? '' : 's'} · mind: ${report.mind ?? '?'}${report.scenario ? ` · scenario ${report.scenario.name}` : ''}`;
  renderDownloads();
  await section('topics', renderTopics);
  await section('band', () => renderBand($('band-section'), location.search));
  await section('density', renderDensity);
  await section('conversation filters', renderConversationFilters);
  await section('conversations', () => renderConversations({}));
  await section('day controls', renderDayControls);
  await section('day', renderDay);
  await section('llm', renderLlm);
  await graphDrawn;
  if (generation !== loads) return;
  status.textContent = '';
  performance.mark('analysis:ready');
  hooks.ready = true;
}

/** Loads of the page's data so far: a graph laid out for an earlier one is not drawn. */
let loads = 0;

/** Runs one section's drawing in a task of its own, timed as a performance measure (`analysis:<name>`). */
async function section(name: string, draw: () => unknown): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  const t0 = performance.now();
  await draw();
  performance.measure(`analysis:${name}`, { start: t0, end: performance.now() });
}

function renderDownloads(): void {
  const items: Array<[string, string]> = [
    ['events', 'events (JSONL)'],
    ['conversations', 'conversations (CSV)'],
    ['memories', 'memories (CSV)'],
    ['series', 'metric series (CSV)'],
    ['graphml', 'graph (GraphML)'],
    ['edges', 'edge list (CSV)'],
  ];
  $('downloads').replaceChildren('⬇ ', ...items.map(([what, label]) => el('a', { href: api.exportUrl(sel, what), textContent: label, download: '' })));
}

async function renderGraph(isCurrent: () => boolean): Promise<void> {
  const more = $<HTMLButtonElement>('graph-more');
  more.hidden = true;
  $('graph-count').textContent = '';
  const g = await api.graph(sel);
  if (!isCurrent()) return;
  drawnGraph = await relationshipGraph(
    $('graph'),
    g,
    (a, b) => {
      const pair = `${names().get(a) ?? a} and ${names().get(b) ?? b}`;
      void renderConversations({ pair: `${a},${b}` }, `conversations of ${pair}`).then((list) => {
        if (list[0]) showReplayLink(list[0].startGameMs, `${pair}'s first conversation in this window (${list.length} in all, listed below)`, a);
        else showReplayLink(report!.window.from_ms, `${pair} knew each other from the start and did not talk in this window`, a);
      });
      $('conversations-section').scrollIntoView({ block: 'nearest' });
    },
    (id) => showReplayLink(report!.window.to_ms, `${names().get(id) ?? id} at the end of the window`, id),
    (note) => (status.textContent = note),
    isCurrent,
  );
  if (drawnGraph) describeGraph(drawnGraph);
}

/** Says how many ties are drawn, and offers the rest. */
function describeGraph(g: DrawnGraph): void {
  const more = $<HTMLButtonElement>('graph-more');
  const n = groupThousands;
  const agents = g.agents;
  $('graph-count').textContent =
    g.shown < g.total ? `${n(agents)} agents; the ${n(g.shown)} strongest of ${n(g.total)} ties drawn.` : `${n(agents)} agents, ${n(g.total)} ties.`;
  more.hidden = g.shown >= g.total;
  more.textContent = `draw all ${n(g.total)} ties`;
  more.onclick = () => {
    g.showAll();
    describeGraph(g);
  };
}

async function renderTopics(): Promise<void> {
  const box = $('topics');
  dropChart('diffusion');
  dropGraphs('tree-');
  box.replaceChildren();
  if (!report || report.topics.length === 0) {
    box.append(el('p', { className: 'muted', textContent: 'This world tracks no topics (a scenario names them).' }));
    return;
  }
  const n = report.agents.length;
  const canvas = el('canvas', { id: 'diffusion-chart' });
  box.append(el('div', { className: 'chart' }, canvas));
  lineChart(
    'diffusion',
    canvas,
    report.topics.map((t) => ({ label: `${t.name} (${t.aware_start} → ${t.aware_end} of ${n})`, points: t.series.map((p) => ({ x: p.ms, y: p.aware })) })),
    { yLimit: n, integer: true, yLabel: `agents aware (of ${groupThousands(n)})`, onClick: (t) => showReplayLink(t, 'from the diffusion curve') },
  );
  for (const t of report.topics) {
    const tree = el('div', { className: 'cy tree', id: `tree-${t.name}` });
    const interview = t.aware_interview !== null ? ` · interview: ${t.aware_interview} of ${t.interviewed} said they knew` : '';
    box.append(el('h3', { textContent: `${t.name}: “${t.phrase}” — who told whom${interview}` }), tree);
    await diffusionTree(`tree-${t.name}`, tree, t, (agent, gameMs) => showReplayLink(gameMs, `${names().get(agent) ?? agent} first heard of ${t.name}`, agent));
  }
}

function renderDensity(): void {
  if (!report) return;
  lineChart(
    'density',
    $<HTMLCanvasElement>('density-chart'),
    [{ label: `density (${report.density.start} → ${report.density.end})`, points: report.density.series.map((p) => ({ x: p.ms, y: p.density })) }],
    {
      yLimit: 1,
      yLabel: 'share of pairs who know each other',
      onClick: (t) => showReplayLink(t, 'from the density curve'),
    },
  );
  const box = $('attendance');
  box.replaceChildren(
    ...report.attendance.map((a) =>
      el(
        'p',
        {},
        el('strong', { textContent: `${a.place}, ${shortTime(Date.parse(`${a.from}:00Z`))}–${a.to.slice(11)}: ` }),
        `${a.present} present; ${a.invited_present} of ${a.invited} invited came. `,
        el('a', { href: linkTo(Date.parse(`${a.from}:00Z`) + 30 * 60_000), textContent: '▶ replay' }),
        el('div', { className: 'muted', textContent: a.agents.map((x) => `${x.name} (${x.minutes} min${x.invited ? ', invited' : ''})`).join(', ') }),
      ),
    ),
  );
}

/** The conversation filters for this window and world: its agents, no place yet (the first list names them), no words. */
function renderConversationFilters(): void {
  const agents = [...(report?.agents ?? [])].sort(byName);
  for (const id of ['conv-agent', 'conv-other']) {
    const s = $<HTMLSelectElement>(id);
    s.replaceChildren(s.options[0], ...agents.map((a) => el('option', { value: a.id, textContent: a.name })));
  }
  const places = $<HTMLSelectElement>('conv-place');
  places.replaceChildren(places.options[0]);
  $<HTMLInputElement>('conv-q').value = '';
}

const CONVERSATIONS_A_TASK = 40;
/** Lists asked for so far: a list still being drawn stops when another is asked for. */
let conversationLots = 0;

async function renderConversations(filter: Record<string, string | undefined>, title?: string): Promise<ConversationView[]> {
  // The report's own window (to the game ms), so that the list and the summary count the same conversations:
  // a live world's window ends when its report was made, not when this list is asked for.
  const window = report ? { from: String(report.window.from_ms), to: String(report.window.to_ms) } : {};
  const { total, conversations } = await api.conversations({ ...sel, ...window }, { ...filter, limit: '300' });
  const shown = total > conversations.length ? ` (the last ${conversations.length} shown)` : '';
  $('conv-count').textContent = `${title ? `${title}: ` : ''}${total} conversation${total === 1 ? '' : 's'}${shown}`;
  const places = $<HTMLSelectElement>('conv-place');
  if (places.options.length <= 1) {
    const seen = [...new Set(conversations.map((c) => c.arena.split(': ')[0]))].sort();
    places.append(...seen.map((p) => el('option', { value: p, textContent: p })));
  }
  // A few dozen at a time, each lot in a task of its own: hundreds of transcripts at once held the page.
  const list = $('conv-list');
  const lot = ++conversationLots;
  list.replaceChildren();
  for (let i = 0; i < conversations.length; i += CONVERSATIONS_A_TASK) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    if (lot !== conversationLots) break;
    list.append(...conversations.slice(i, i + CONVERSATIONS_A_TASK).map(conversationItem));
  }
  return conversations;
}

function conversationItem(c: ConversationView): HTMLElement {
  const head = el('summary', { textContent: `${shortTime(c.startGameMs)} · ${c.nameA} & ${c.nameB} · ${c.arena} · ${c.lines.length} lines` });
  const replay = el('a', { href: linkTo(c.startGameMs, c.a), textContent: '▶ replay' });
  replay.addEventListener('click', () => showReplayLink(c.startGameMs, `${c.nameA} and ${c.nameB} talking`, c.a));
  const learned = Object.entries(c.learned)
    .filter(([, facts]) => facts.length)
    .map(([id, facts]) => el('div', { textContent: `${id === c.a ? c.nameA : c.nameB} learned: ${facts.join(' · ')}` }));
  return el(
    'details',
    { className: 'conv' },
    head,
    el('div', { className: 'muted', textContent: c.summary ?? '(no transcript: a later conversation reused this id)' }),
    el('div', { className: 'lines' }, ...c.lines.map((l) => el('div', {}, el('strong', { textContent: `${l.name}: ` }), l.text))),
    el('div', { className: 'learned' }, ...learned),
    replay,
  );
}

function renderDayControls(): void {
  if (!report) return;
  const agents = $<HTMLSelectElement>('day-agent');
  const previous = agents.value;
  agents.replaceChildren(...[...report.agents].sort(byName).map((a) => el('option', { value: a.id, textContent: a.name })));
  if (previous && report.agents.some((a) => a.id === previous)) agents.value = previous;
  const days = $<HTMLSelectElement>('day-date');
  const first = Math.floor(report.window.from_ms / 86_400_000);
  const last = Math.floor((report.window.to_ms - 1) / 86_400_000);
  days.replaceChildren(
    ...Array.from({ length: Math.max(1, last - first + 1) }, (_, i) =>
      el('option', { value: String((first + i) * 86_400_000), textContent: formatIsoMinute((first + i) * 86_400_000).slice(0, 10) }),
    ),
  );
}

async function renderDay(): Promise<void> {
  const agent = $<HTMLSelectElement>('day-agent').value;
  const dayStart = Number($<HTMLSelectElement>('day-date').value);
  if (!agent || !Number.isFinite(dayStart)) return;
  const { entries } = await api.agentDay(sel, agent, formatIsoMinute(dayStart), formatIsoMinute(dayStart + 86_400_000));
  timeline(
    'day',
    $<HTMLCanvasElement>('day-chart'),
    entries.map((e) => ({
      row: e.place,
      startGameMs: e.startGameMs,
      endGameMs: e.endGameMs,
      label: `${e.emoji} ${e.description} (${e.address}) ${shortTime(e.startGameMs)}`,
    })),
    dayStart,
    (bar) => showReplayLink(bar.startGameMs, `${names().get(agent) ?? agent}: ${bar.label}`, agent),
  );
}

function renderLlm(): void {
  if (!report) return;
  const l = report.llm;
  $('llm-summary').textContent =
    `${l.calls} calls (${l.cached} cached), ${l.tokens} tokens, $${l.cost_usd}; per ` +
    `agent-day ${l.calls_per_agent_day} calls, ${l.tokens_per_agent_day} tokens; ${l.fallbacks.total} fallbacks`;
  for (const id of ['llm-purpose-chart', 'llm-agent-chart']) $(id).parentElement!.hidden = l.hourly.length === 0;
  // With several endpoints (LLM_ENDPOINTS): one row each.
  const endpoints = l.by_endpoint ?? [];
  $('llm-endpoints').hidden = endpoints.length === 0;
  $('llm-endpoints').replaceChildren(
    el('tr', {}, ...['endpoint', 'requests', 'failed', 'prompt / completion tokens', 'latency p50 / p99', 'taken out / back'].map((h) => el('th', {}, h))),
    ...endpoints.map((e) =>
      el(
        'tr',
        {},
        ...[
          e.endpoint,
          String(e.calls),
          String(e.failed),
          `${e.prompt_tokens} / ${e.completion_tokens}`,
          `${Math.round(e.latency_p50_ms)} / ${Math.round(e.latency_p99_ms)} ms`,
          `${e.taken_out} / ${e.back}`,
        ].map((text) => el('td', {}, text)),
      ),
    ),
  );
  if (l.hourly.length === 0) {
    $('llm-summary').textContent += ' (no LLM calls: this world ran on the offline mind)';
    return;
  }
  const hours = l.hourly.map((h) => h.ms);
  const purposes = [...new Set(l.hourly.flatMap((h) => Object.keys(h.by_purpose)))].sort();
  const stacks = purposes.map((p) => ({ label: p, values: l.hourly.map((h) => h.by_purpose[p] ?? 0) }));
  if (l.fallbacks.total) stacks.push({ label: 'fallbacks', values: l.hourly.map((h) => h.fallbacks) });
  hourlyBars('llm-purpose', $<HTMLCanvasElement>('llm-purpose-chart'), hours, stacks, (t) => showReplayLink(t, 'from LLM use by purpose'));
  const top = l.per_agent.slice(0, 8).map((a) => a.id);
  const agentStacks = top.map((id) => ({ label: names().get(id) ?? id, values: l.hourly.map((h) => h.by_agent[id] ?? 0) }));
  if (l.per_agent.length > top.length)
    agentStacks.push({ label: 'others', values: l.hourly.map((h) => Object.entries(h.by_agent).reduce((s, [id, n]) => s + (top.includes(id) ? 0 : n), 0)) });
  hourlyBars('llm-agent', $<HTMLCanvasElement>('llm-agent-chart'), hours, agentStacks, (t) => showReplayLink(t, 'from LLM use by agent'));
}

/** Checks the window's fields: a malformed one is marked and its message shown under it, the other cleared. */
function checkWindowFields(): { from: string; to: string } | null {
  let ok = true;
  const values = { from: '', to: '' };
  for (const name of ['from', 'to'] as const) {
    const input = $<HTMLInputElement>(name);
    const message = $(`${name}-error`);
    const v = input.value.trim();
    const bad = v !== '' && parseIsoMinute(v) === null;
    input.setAttribute('aria-invalid', String(bad));
    message.textContent = bad ? `${name}: “${v}” is not a time; expected YYYY-MM-DDTHH:MM` : '';
    message.hidden = !bad;
    if (bad && ok) input.focus();
    ok &&= !bad;
    values[name] = v;
  }
  return ok ? values : null;
}

function wire(): void {
  $('apply').addEventListener('click', () => {
    const span = checkWindowFields();
    if (!span) return;
    sel = { ...sel, ...span };
    run(loadAll());
  });
  for (const name of ['from', 'to'])
    $(name).addEventListener('keydown', (e) => {
      if (e.key === 'Enter') $('apply').click();
    });
  $<HTMLSelectElement>('world').addEventListener('change', (e) => {
    sel = { world: (e.target as HTMLSelectElement).value || null, from: '', to: '' };
    for (const name of ['from', 'to']) $<HTMLInputElement>(name).value = '';
    checkWindowFields();
    run(loadAll());
  });
  $<HTMLFormElement>('conv-filter').addEventListener('submit', (e) => {
    e.preventDefault();
    const agent = $<HTMLSelectElement>('conv-agent').value;
    const other = $<HTMLSelectElement>('conv-other').value;
    run(
      renderConversations({
        agent: agent && !other ? agent : undefined,
        pair: agent && other ? `${agent},${other}` : undefined,
        place: $<HTMLSelectElement>('conv-place').value || undefined,
        q: $<HTMLInputElement>('conv-q').value.trim() || undefined,
      }),
    );
  });
  for (const id of ['day-agent', 'day-date']) $(id).addEventListener('change', () => run(renderDay()));
}

function run(p: Promise<unknown>): void {
  p.catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    hooks.error = message;
    status.textContent = `Error: ${message}`;
  });
}

readUrl();
wire();
run(loadWorlds().then(loadAll));
