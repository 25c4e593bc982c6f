// Every metric on a hand-built world whose answers are known (tests/fixtures/analysisWorld.ts), and
// the exports parsed back: GraphML with an XML parser, the CSVs with a CSV parser, JSONL line by line.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { buildReport } from '../../server/src/analysis/report';
import { reportMarkdown } from '../../server/src/analysis/report';
import { readWorldFacts } from '../../server/src/analysis/facts';
import { answerIsAware, clausesOf, topicWordRule } from '../../server/src/analysis/metrics';
import { agentDay, findConversations } from '../../server/src/analysis/browse';
import { exportConversations, exportEdges, exportEvents, exportGraphml, exportMemories, exportSeries } from '../../server/src/analysis/exports';
import { meanSd, meanSdCi, possibleRange, seedsMarkdown, summariseSeeds, tQuantile975 } from '../../server/src/analysis/seeds';
import { Rng } from '../../server/src/sim/rng';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { ScenarioSchema } from '../../server/src/analysis/scenario';
import { buildAnalysisWorld, HOUR, MIN, PARTY, T0, type AnalysisWorld } from '../fixtures/analysisWorld';
import type { AnalysisReport } from '../../server/src/protocol/analysis';

const scenario = ScenarioSchema.parse({
  name: 'handmade',
  start: '2026-02-13T06:00',
  days: 4 / 24,
  topics: [PARTY],
  attendance: [{ place: 'Cafe', from: '2026-02-13T07:00', to: '2026-02-13T08:00', topic: 'party', minMinutes: 15 }],
});

async function collect(write: (out: PassThrough) => Promise<void>): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await write(out);
  return Buffer.concat(chunks).toString('utf8');
}

describe('metrics of a hand-built world', () => {
  let w: AnalysisWorld;
  let r: AnalysisReport;
  beforeAll(async () => {
    w = await buildAnalysisWorld();
    r = await buildReport(w.db, w.map, loadOfflineEmbedder(), { world: w.world, scenario });
  });
  afterAll(() => w?.db.close());

  it('counts who knows the party at every game hour, and who told whom through which conversation', () => {
    const [t] = r.topics;
    expect(t.name).toBe('party');
    expect([t.aware_start, t.aware_end]).toEqual([1, 3]);
    expect(t.series.map((p) => [p.t, p.aware])).toEqual([
      ['2026-02-13T06:00', 1],
      ['2026-02-13T07:00', 2],
      ['2026-02-13T08:00', 2],
      ['2026-02-13T09:00', 3],
      ['2026-02-13T10:00', 3],
    ]);
    expect(t.agents.map((a) => [a.id, a.first_heard, a.source, a.from, a.conversation_id])).toEqual([
      ['ada', '2026-02-13T06:00', 'seed', null, null],
      ['cy', '2026-02-13T07:00', 'conversation', 'ada', 1],
      ['bo', '2026-02-13T09:00', 'conversation', 'cy', 2],
    ]);
  });

  it('needs the topic words in one clause: a summary that names a party and Valentine flowers apart does not count', () => {
    const rule = topicWordRule(PARTY);
    expect(rule("They talked about: Cy's party hats; flowers for Valentine's Day.")).toBe(false);
    expect(rule("Ada Lane is throwing a Valentine's party.")).toBe(true);
    expect(clausesOf('A said: x; y. Then z!')).toEqual(['A said', 'x', 'y.', 'Then z!']);
    // Without words, half the phrase's content words (ada, valentine, party, cafe: two of them).
    const loose = topicWordRule({ name: 'p', phrase: "Ada's Valentine's party at the Cafe" });
    expect([loose('a party at the cafe'), loose('a party')]).toEqual([true, false]);
  });

  it('reports the end-of-run interview: a yes that names the topic counts, a denial does not', () => {
    expect(r.topics[0].aware_interview).toBe(2);
    expect(r.topics[0].interviewed).toBe(3);
    expect(r.topics[0].interview!.map((v) => [v.id, v.aware])).toEqual([
      ['ada', true],
      ['bo', false],
      ['cy', true],
    ]);
    expect(answerIsAware(PARTY, 'I am not aware of a Valentine party.')).toBe(false);
    // News about the speaker, told in the first person, names the speaker (the topic's words hold the name).
    const candidacy = { name: 'candidacy', phrase: 'Tomas Varga is running for mayor', words: ['varga', 'mayor'] };
    expect(answerIsAware(candidacy, 'Yes. I am running for mayor in the town election.', 'Tomas Varga')).toBe(true);
    expect(answerIsAware(candidacy, 'Yes. I am running for mayor in the town election.')).toBe(false);
    expect(answerIsAware(candidacy, 'Yes. I am running for mayor in the town election.', 'Ruth Okafor')).toBe(false);
  });

  it('measures density from the persona acquaintances and the conversations since', () => {
    expect(r.density.start).toBeCloseTo(1 / 3, 3);
    expect(r.density.end).toBe(1);
    expect(r.density.series.map((p) => p.density)).toEqual([0.3333, 0.6667, 0.6667, 1, 1]);
    expect([r.density.known_pairs_start, r.density.known_pairs_end, r.density.pairs]).toEqual([1, 3, 3]);
  });

  it('counts attendance from folded walks: 40 minutes inside counts, 8 minutes of a walk in does not; the host is no invitee', () => {
    expect(r.attendance).toEqual([
      {
        place: 'Cafe',
        from: '2026-02-13T07:00',
        to: '2026-02-13T08:00',
        topic: 'party',
        min_minutes: 15,
        present: 1,
        present_guests: 0,
        invited_by: 'aware',
        invited: 0,
        accepted: null,
        invited_present: 0,
        invited_present_guests: 0,
        attended_share_of_invited: 0,
        // Ada heard at 06:00, before the 07:00 window; Cy at 07:00 and Bo at 09:00, once it had begun: reported apart.
        aware_before: 1,
        aware_after: 2,
        agents: [{ id: 'ada', name: 'Ada Lane', minutes: 40, invited: false, host: true, staff: false }],
      },
    ]);
  });

  it('counts conversations per agent and per pair, and reflections per agent', () => {
    expect(r.conversations.total).toBe(2);
    expect(r.conversations.per_agent).toEqual({ ada: 1, bo: 1, cy: 2 });
    expect(r.conversations.per_pair).toEqual([
      { a: 'ada', b: 'cy', count: 1 },
      { a: 'bo', b: 'cy', count: 1 },
    ]);
    expect(r.reflections).toEqual({ total: 3, per_agent: { ada: 1, bo: 2, cy: 0 } });
  });

  it('prices LLM use per agent-day: 4 calls and 400 tokens over 3 agents × 4 hours', () => {
    expect(r.llm.agent_days).toBe(0.5);
    expect(r.llm.calls_per_agent_day).toBe(8);
    expect(r.llm.tokens_per_agent_day).toBe(800);
    expect(r.llm.cost_usd).toBe(0.004);
    expect(r.llm.per_agent).toEqual([
      { id: 'ada', calls: 3, tokens: 300, cost_usd: 0.003 },
      { id: 'bo', calls: 1, tokens: 100, cost_usd: 0.001 },
    ]);
    expect(r.llm.hourly.map((h) => [h.t, h.by_purpose, h.fallbacks])).toEqual([
      ['2026-02-13T07:00', { converse: 2 }, 0],
      ['2026-02-13T08:00', { plan: 1 }, 0],
      ['2026-02-13T09:00', { converse: 1 }, 1],
    ]);
    expect(r.llm.fallbacks).toEqual({ total: 1, by_purpose: { converse: 1 } });
  });

  it('narrows every metric to a window', async () => {
    const later = await buildReport(w.db, w.map, loadOfflineEmbedder(), {
      world: w.world,
      scenario,
      window: { fromGameMs: T0 + 2 * HOUR, toGameMs: T0 + 4 * HOUR },
    });
    expect([later.topics[0].aware_start, later.topics[0].aware_end]).toEqual([2, 3]);
    expect(later.density.start).toBeCloseTo(2 / 3, 3);
    expect(later.conversations.total).toBe(1);
    // The conversation browser counts the same window the same way.
    expect(findConversations(w.db, { fromGameMs: later.window.from_ms, toGameMs: later.window.to_ms }).total).toBe(1);
    expect(later.llm.calls).toBe(2);
  });

  it('writes the report as Markdown with the figures', () => {
    const md = reportMarkdown(r);
    expect(md).toContain('Aware at the start: **1 of 3**; at the end: **3 of 3**; by end-of-run interview: **2 of 3**');
    expect(md).toContain('| Bo Park | 2026-02-13T09:00 | conversation (conversation 2) | Cy Reed |');
    expect(md).toContain("1 present (0 without the host and staff); 0 of 0 invited (had heard of 'party' before) came");
  });

  it('browses conversations by agent, pair, place, time and words, with what each side learned', () => {
    const all = findConversations(w.db, {});
    expect(all.conversations.map((c) => c.id)).toEqual([1, 2]);
    expect(all.conversations[0].learned).toEqual({ ada: [], cy: [expect.stringContaining('(heard from Ada Lane)')] });
    expect(all.conversations[0].lines.map((l) => l.name)).toEqual(['Ada Lane', 'Cy Reed']);
    expect(findConversations(w.db, { agent: 'bo' }).conversations.map((c) => c.id)).toEqual([2]);
    expect(findConversations(w.db, { pair: ['cy', 'ada'] }).conversations.map((c) => c.id)).toEqual([1]);
    expect(findConversations(w.db, { place: 'Cafe' }).conversations.map((c) => c.id)).toEqual([1]);
    expect(findConversations(w.db, { fromGameMs: T0 + 2 * HOUR }).conversations.map((c) => c.id)).toEqual([2]);
    expect(findConversations(w.db, { text: 'FLOWERS' }).conversations.map((c) => c.id)).toEqual([2]);
    // The window is the report's: conversations that started in it, whatever their end.
    expect(findConversations(w.db, { fromGameMs: r.window.from_ms, toGameMs: r.window.to_ms }).total).toBe(r.conversations.total);
    expect(findConversations(w.db, { text: 'nothing like this' }).total).toBe(0);
  });

  it("lays out an agent's day from its actions", () => {
    // Ada has no action events; Bo's and Cy's neither: the day of an agent with none is empty, and
    // an unknown agent is empty too.
    expect(agentDay(w.db, 'nobody', T0, T0 + 24 * HOUR)).toEqual([]);
    w.db.events.append([
      {
        gameMs: T0 + 5 * HOUR,
        kind: 'agent.action',
        agentId: 'ada' as never,
        data: { description: 'reading', emoji: '📖', address: 'Ada House: bedroom: desk', asleep: false },
      },
      {
        gameMs: T0 + 6 * HOUR,
        kind: 'agent.action',
        agentId: 'ada' as never,
        data: { description: 'having coffee', emoji: '☕', address: 'Cafe: cafe: counter', asleep: false },
      },
      {
        gameMs: T0 + 8 * HOUR,
        kind: 'agent.action',
        agentId: 'bo' as never,
        data: { description: 'sleeping', emoji: '😴', address: 'Bo House: bedroom: bed', asleep: true },
      },
    ]);
    expect(agentDay(w.db, 'ada', T0 + 5 * HOUR + 30 * MIN, T0 + 7 * HOUR).map((e) => [e.startGameMs - T0, e.endGameMs - T0, e.place, e.description])).toEqual([
      [5 * HOUR + 30 * MIN, 6 * HOUR, 'Ada House', 'reading'],
      [6 * HOUR, 7 * HOUR, 'Cafe', 'having coffee'],
    ]);
    // The last action ends with the log (at 14:00, its last event), not at the end of the asked window.
    expect(agentDay(w.db, 'ada', T0, T0 + 24 * HOUR).at(-1)!.endGameMs).toBe(T0 + 8 * HOUR);
  });

  it('summarises seeds as mean ± sample sd, with a 95% t-interval of the mean', () => {
    expect(meanSd([1, 2, 3])).toEqual({ mean: 2, sd: 1 });
    const { ci95 } = meanSdCi([1, 2, 3]);
    expect(ci95[0]).toBeCloseTo(2 - 4.303 / Math.sqrt(3), 6);
    expect(ci95[1]).toBeCloseTo(2 + 4.303 / Math.sqrt(3), 6);
    expect(meanSdCi([5]).ci95).toEqual([5, 5]);
    expect(tQuantile975(40)).toBeCloseTo(2.021, 3);
    expect(tQuantile975(120)).toBeCloseTo(1.98, 3);
    expect(() => tQuantile975(0)).toThrow('degrees of freedom');
    const rows = summariseSeeds([r, { ...r, density: { ...r.density, end: 0.5 } }]);
    expect(rows.find((x) => x.figure === 'density.end')).toMatchObject({ values: [1, 0.5], mean: 0.75 });
    expect(rows.find((x) => x.figure === 'topics.party.aware_end')).toMatchObject({ mean: 3, sd: 0, ci95: [3, 3] });
  });

  it('clamps an interval to what the figure can be, and the table marks it', () => {
    // Density 1 and 0.5 over two seeds: the t-interval (12.7 × sd / √2) runs far past 0 and 1.
    const rows = summariseSeeds([r, { ...r, density: { ...r.density, end: 0.5 } }]);
    const density = rows.find((x) => x.figure === 'density.end')!;
    expect(density.ci95).toEqual([0, 1]);
    expect(density.clamped).toBe(true);
    expect(rows.find((x) => x.figure === 'topics.party.aware_end')!.clamped).toBe(false);
    expect(possibleRange('topics.party.aware_end', 25)).toEqual([0, 25]);
    expect(possibleRange('attendance[0] Hobbs Cafe.attended_share_of_invited', 25)).toEqual([0, 1]);
    expect(possibleRange('conversations.total', 25)).toEqual([0, Infinity]);
    const table = seedsMarkdown('party', [1, 2], ['a', 'b'], rows);
    expect(table).toContain('| density.end | 0.750 ± 0.354 | 0 to 1 * |');
    expect(table).toContain('An interval marked * reached past what the figure can be');
  });

  it('covers the true mean 95% of the time over 3 seeds, where a normal interval would cover far less', () => {
    const rng = new Rng(42);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    let t = 0;
    let z = 0;
    const trials = 4000;
    for (let i = 0; i < trials; i++) {
      const values = [normal(), normal(), normal()];
      const { mean, sd, ci95 } = meanSdCi(values);
      if (ci95[0] <= 0 && 0 <= ci95[1]) t++;
      if (Math.abs(mean) <= (1.96 * sd) / Math.sqrt(3)) z++;
    }
    expect(t / trials).toBeGreaterThan(0.93);
    expect(t / trials).toBeLessThan(0.97);
    expect(z / trials).toBeLessThan(0.9);
  });
});

describe('exports of a hand-built world, parsed back', () => {
  let w: AnalysisWorld;
  beforeAll(async () => {
    w = await buildAnalysisWorld();
  });
  afterAll(() => w?.db.close());

  it('writes GraphML that an XML parser reads back as 3 nodes and 3 weighted edges', async () => {
    const text = await collect((out) => exportGraphml(w.db, out));
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text);
    const graph = doc.graphml.graph;
    expect(graph.edgedefault).toBe('undirected');
    const data = (d: unknown) => Object.fromEntries((Array.isArray(d) ? d : [d]).map((x: { key: string; '#text': unknown }) => [x.key, x['#text']]));
    expect(graph.node.map((n: { id: string; data: unknown }) => [n.id, data(n.data).name])).toEqual([
      ['ada', 'Ada Lane'],
      ['bo', 'Bo Park'],
      ['cy', 'Cy Reed'],
    ]);
    expect(
      graph.edge.map((e: { source: string; target: string; data: unknown }) => [e.source, e.target, data(e.data).weight, data(e.data).acquainted]),
    ).toEqual([
      ['ada', 'bo', 0, true],
      ['ada', 'cy', 1, false],
      ['bo', 'cy', 1, false],
    ]);
  });

  it('writes the edge list, conversations, memories and series as CSV that parses back', async () => {
    const edges = parseCsv(await collect((out) => exportEdges(w.db, out)), { columns: true }) as Array<Record<string, string>>;
    expect(edges.map((e) => [e.source, e.target, e.weight, e.acquainted])).toEqual([
      ['ada', 'bo', '0', 'true'],
      ['ada', 'cy', '1', 'false'],
      ['bo', 'cy', '1', 'false'],
    ]);
    const conversations = parseCsv(await collect((out) => exportConversations(w.db, out)), { columns: true }) as Array<Record<string, string>>;
    expect(conversations).toHaveLength(2);
    expect(conversations[0]).toMatchObject({
      conversation_id: '1',
      arena: 'Cafe: cafe',
      end: '2026-02-13T07:10',
      summary: 'Ada and Cy talked, "happily", about the party',
    });
    expect(conversations[0].transcript.split('\n')).toEqual([expect.stringMatching(/^Ada Lane: Guess what, Cy: /), 'Cy Reed: Wonderful!', 'I will come.']);
    const memories = parseCsv(await collect((out) => exportMemories(w.db, out)), { columns: true }) as Array<Record<string, string>>;
    expect(memories).toHaveLength(5);
    expect(memories[3].description).toBe("Bo Park and Cy Reed had a conversation. They talked about: Cy's party hats; flowers for Valentine's Day.");
    expect(memories[0]).not.toHaveProperty('embedding');
    const withVectors = parseCsv(await collect((out) => exportMemories(w.db, out, { vectors: true, agentId: 'cy' })), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(withVectors).toHaveLength(1);
    expect(withVectors[0].embedding.split(' ')).toHaveLength(100);
    const report = await buildReport(w.db, w.map, loadOfflineEmbedder(), { world: w.world, scenario });
    const series = parseCsv(await collect((out) => exportSeries(report, out)), { columns: true }) as Array<Record<string, string>>;
    expect(series.map((s) => [s.t, s.density, s.conversations, s.aware_party])).toEqual([
      ['2026-02-13T06:00', '0.3333', '0', '1'],
      ['2026-02-13T07:00', '0.6667', '1', '2'],
      ['2026-02-13T08:00', '0.6667', '1', '2'],
      ['2026-02-13T09:00', '1', '2', '3'],
      ['2026-02-13T10:00', '1', '2', '3'],
    ]);
  });

  it('writes every event as one JSON line, in seq order, and filters by kind', async () => {
    const lines = (await collect((out) => exportEvents(w.db, out)))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number; kind: string });
    expect(lines.map((l) => l.seq)).toEqual(Array.from({ length: w.db.events.lastSeq() }, (_, i) => i + 1));
    const talks = (await collect((out) => exportEvents(w.db, out, { kinds: ['conversation.start'] }))).trimEnd().split('\n');
    expect(talks.map((l) => (JSON.parse(l) as { data: { conversationId: number } }).data.conversationId)).toEqual([1, 2]);
    expect(readWorldFacts(w.db).conversations).toHaveLength(2);
  });
});
