// Exports of a world, streamed: rows are read lazily from SQLite (better-sqlite3 iterators) and written
// with backpressure, so a world of millions of events exports in constant memory. Events as JSONL;
// conversations, memories and the metric series as CSV (csv-stringify); the relationship graph as
// GraphML (Gephi, networkx, igraph) and as an edge-list CSV. Open the world read-only for exporting:
// an open iterator would keep a live town's own connection busy.
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { WorldDb } from '../store/WorldDb';
import { vectorLayoutOf, vectorQueries } from '../store/memoryVectors';
import { EVENT_KINDS, type EventKind } from '../protocol/events';
import type { TownMap } from '../world/types';
import { loadOfflineEmbedder } from '../llm/OfflineEmbedder';
import { formatIsoMinute } from '../protocol/time';
import { readWorldFacts, pairKey, type WorldFacts } from './facts';
import { buildReport, type Report } from './report';
import type { GraphView } from '../protocol/analysis';

export const EXPORT_KINDS = ['events', 'conversations', 'memories', 'series', 'graphml', 'edges'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export interface ExportOptions {
  fromGameMs?: number;
  toGameMs?: number;
  agentId?: string;
  kinds?: EventKind[];
  /** Memories: add each memory's embedding as a column of space-separated numbers. */
  vectors?: boolean;
}

/** File name and content type of each export. */
export function exportFile(world: string, kind: ExportKind): { name: string; type: string } {
  const base = world.replace(/[^A-Za-z0-9_.-]+/g, '_');
  switch (kind) {
    case 'events':
      return { name: `${base}.events.jsonl`, type: 'application/x-ndjson' };
    case 'graphml':
      return { name: `${base}.graphml`, type: 'application/graphml+xml' };
    default:
      return { name: `${base}.${kind}.csv`, type: 'text/csv' };
  }
}

/** `kinds` as written ("memory.added,talk.started"), or the error that names the ones that are not event kinds. */
export function eventKindsOf(kinds: string | undefined): EventKind[] | undefined {
  const list = kinds?.split(',').map((k) => k.trim());
  const unknown = list?.filter((k) => !(EVENT_KINDS as readonly string[]).includes(k));
  if (unknown?.length) throw new ExportRequestError(`kinds: no event kind ${unknown.join(', ')}`);
  return list as EventKind[] | undefined;
}

/** `what` as an export kind, or the error that lists the kinds. */
export function exportKindOf(what: string | undefined): ExportKind {
  if (what && (EXPORT_KINDS as readonly string[]).includes(what)) return what as ExportKind;
  throw new ExportRequestError(`no export '${what ?? ''}' (exports: ${EXPORT_KINDS.join(', ')})`);
}

/** A request the exports cannot answer (an unknown export or event kind); the message names it. */
export class ExportRequestError extends Error {}

/** The export `what` of a world, streamed to `out`: the one dispatch behind `npm run export` and GET /api/export/<what>. */
export async function writeExport(what: ExportKind, w: { id: string; db: WorldDb; map: TownMap }, out: Writable, o: ExportOptions): Promise<void> {
  switch (what) {
    case 'events':
      return exportEvents(w.db, out, o);
    case 'conversations':
      return exportConversations(w.db, out, o);
    case 'memories':
      return exportMemories(w.db, out, o);
    case 'graphml':
      return exportGraphml(w.db, out, o);
    case 'edges':
      return exportEdges(w.db, out, o);
    case 'series': {
      const window = { fromGameMs: o.fromGameMs, toGameMs: o.toGameMs };
      return exportSeries(await buildReport(w.db, w.map, loadOfflineEmbedder(), { world: w.id, window }), out);
    }
  }
}

function csv(rows: Iterable<Record<string, unknown>>, columns: string[], out: Writable): Promise<void> {
  return pipeline(Readable.from(rows), stringify({ header: true, columns, cast: { boolean: (v) => String(v) } }), out);
}

function lines(text: Iterable<string>, out: Writable): Promise<void> {
  return pipeline(Readable.from(text), out);
}

/** Every event of the log (or those matching the options) as one JSON object a line. */
export function exportEvents(db: WorldDb, out: Writable, o: ExportOptions = {}): Promise<void> {
  function* rows() {
    for (const e of db.events.scan({ fromGameMs: o.fromGameMs, untilGameMs: o.toGameMs, agentId: o.agentId, kinds: o.kinds }))
      yield `${JSON.stringify({ seq: e.seq, t: formatIsoMinute(e.gameMs), gameMs: e.gameMs, kind: e.kind, agentId: e.agentId, data: e.data })}\n`;
  }
  return lines(rows(), out);
}

export const CONVERSATION_COLUMNS = ['conversation_id', 'start', 'end', 'arena', 'agent_a', 'agent_b', 'name_a', 'name_b', 'lines', 'summary', 'transcript'];

/** One row per conversation (conversations table): who, when, the summary and the transcript ("Name: line" per line). */
export function exportConversations(db: WorldDb, out: Writable, o: ExportOptions = {}): Promise<void> {
  const facts = readWorldFacts(db);
  const names = new Map(facts.agents.map((a) => [a.id as string, a.name]));
  // Where and until when, from the log (the table records the start).
  const logged = new Map(facts.conversations.map((c) => [`${c.id}|${c.startGameMs}`, c]));
  const utterances = db.db.prepare('SELECT speaker, text FROM utterances WHERE conversation_id = ? ORDER BY seq');
  function* rows() {
    const it = db.db
      .prepare(
        `SELECT id, agent_a AS a, agent_b AS b, start_ms AS startMs, end_ms AS endMs, summary FROM conversations
         WHERE start_ms >= ? AND start_ms <= ? AND (? IS NULL OR agent_a = ? OR agent_b = ?) ORDER BY start_ms, id`,
      )
      .iterate(
        o.fromGameMs ?? Number.MIN_SAFE_INTEGER,
        o.toGameMs ?? Number.MAX_SAFE_INTEGER,
        o.agentId ?? null,
        o.agentId ?? null,
        o.agentId ?? null,
      ) as IterableIterator<{
      id: number;
      a: string;
      b: string;
      startMs: number;
      endMs: number;
      summary: string;
    }>;
    for (const c of it) {
      const said = utterances.all(c.id) as Array<{ speaker: string; text: string }>;
      const log = logged.get(`${c.id}|${c.startMs}`);
      yield {
        conversation_id: c.id,
        start: formatIsoMinute(c.startMs),
        end: formatIsoMinute(log?.endGameMs ?? c.endMs),
        arena: log?.arena ?? '',
        agent_a: c.a,
        agent_b: c.b,
        name_a: names.get(c.a) ?? c.a,
        name_b: names.get(c.b) ?? c.b,
        lines: said.length,
        summary: c.summary,
        transcript: said.map((u) => `${names.get(u.speaker) ?? u.speaker}: ${u.text}`).join('\n'),
      };
    }
  }
  return csv(rows(), CONVERSATION_COLUMNS, out);
}

export const MEMORY_COLUMNS = ['id', 'agent_id', 'kind', 'created', 'created_ms', 'importance', 'description', 'subject', 'predicate', 'object', 'evidence'];

/** Every memory (no vectors unless asked: `vectors` adds an `embedding` column). */
export function exportMemories(db: WorldDb, out: Writable, o: ExportOptions = {}): Promise<void> {
  const vector = db.db.prepare(vectorQueries(vectorLayoutOf(db.db)).ofMemory);
  function* rows() {
    const it = db.db
      .prepare(
        `SELECT id, agent_id, kind, created_ms, importance, description, subject, predicate, object, evidence FROM memories
         WHERE created_ms >= ? AND created_ms <= ? AND (? IS NULL OR agent_id = ?) ORDER BY id`,
      )
      .iterate(o.fromGameMs ?? Number.MIN_SAFE_INTEGER, o.toGameMs ?? Number.MAX_SAFE_INTEGER, o.agentId ?? null, o.agentId ?? null) as IterableIterator<
      Record<string, unknown>
    >;
    for (const m of it) {
      const row: Record<string, unknown> = { ...m, created: formatIsoMinute(m.created_ms as number), evidence: JSON.parse(m.evidence as string).join(' ') };
      if (o.vectors) {
        const buf = (vector.get(BigInt(m.id as number)) as { embedding: Buffer } | undefined)?.embedding;
        row.embedding = buf ? Array.from(new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4), (x) => x.toPrecision(6)).join(' ') : '';
      }
      yield row;
    }
  }
  return csv(rows(), o.vectors ? [...MEMORY_COLUMNS, 'embedding'] : MEMORY_COLUMNS, out);
}

/** The report's hourly series in one table: density, conversations so far, and awareness of each topic. */
export function exportSeries(report: Report, out: Writable): Promise<void> {
  const topics = report.topics.map((t) => t.name);
  function* rows() {
    for (let i = 0; i < report.density.series.length; i++) {
      const d = report.density.series[i];
      const row: Record<string, unknown> = { t: d.t, game_ms: d.ms, density: d.density, conversations: report.conversations.series[i]?.count ?? '' };
      for (const t of report.topics) row[`aware_${t.name}`] = t.series[i]?.aware ?? '';
      yield row;
    }
  }
  return csv(rows(), ['t', 'game_ms', 'density', 'conversations', ...topics.map((t) => `aware_${t}`)], out);
}

/** An edge: `acquainted` when either persona named the other at the start; weight = conversations. */
export type GraphEdge = GraphView['edges'][number];

/** The relationship graph: agents, and an edge for every pair that knew each other at the start or talked. */
export function relationshipGraph(facts: WorldFacts, o: ExportOptions = {}): GraphView {
  const edges = new Map<string, GraphEdge>();
  const edge = (a: string, b: string) => {
    const key = pairKey(a, b);
    return (
      edges.get(key) ??
      edges.set(key, { a: key.split('|')[0], b: key.split('|')[1], conversations: 0, acquainted: false, firstGameMs: null, lastGameMs: null }).get(key)!
    );
  };
  const ids = new Set(facts.agents.map((a) => a.id as string));
  for (const [a, others] of facts.relationships ?? []) for (const b of others) if (ids.has(a) && ids.has(b)) edge(a, b).acquainted = true;
  const count = new Map<string, number>();
  for (const c of facts.conversations) {
    if ((o.fromGameMs !== undefined && c.startGameMs < o.fromGameMs) || (o.toGameMs !== undefined && c.startGameMs > o.toGameMs)) continue;
    const e = edge(c.a, c.b);
    e.conversations++;
    e.firstGameMs ??= c.startGameMs;
    e.lastGameMs = c.startGameMs;
    count.set(c.a, (count.get(c.a) ?? 0) + 1);
    count.set(c.b, (count.get(c.b) ?? 0) + 1);
  }
  return {
    nodes: facts.agents.map((a) => ({ id: a.id, name: a.name, conversations: count.get(a.id) ?? 0 })),
    edges: [...edges.values()].sort((x, y) => x.a.localeCompare(y.a) || x.b.localeCompare(y.b)),
  };
}

function xml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** GraphML (undirected): node attribute `name`, `conversations`; edge attributes `weight` (conversations), `acquainted`, first and last. */
export function exportGraphml(db: WorldDb, out: Writable, o: ExportOptions = {}): Promise<void> {
  const g = relationshipGraph(readWorldFacts(db), o);
  function* text() {
    yield '<?xml version="1.0" encoding="UTF-8"?>\n';
    yield '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ';
    yield 'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n';
    yield '  <key id="name" for="node" attr.name="name" attr.type="string"/>\n';
    yield '  <key id="nconv" for="node" attr.name="conversations" attr.type="int"/>\n';
    yield '  <key id="weight" for="edge" attr.name="weight" attr.type="double"/>\n';
    yield '  <key id="acquainted" for="edge" attr.name="acquainted" attr.type="boolean"/>\n';
    yield '  <key id="first" for="edge" attr.name="first_conversation" attr.type="string"/>\n';
    yield '  <key id="last" for="edge" attr.name="last_conversation" attr.type="string"/>\n';
    yield '  <graph id="smalltown" edgedefault="undirected">\n';
    for (const n of g.nodes) yield `    <node id="${xml(n.id)}"><data key="name">${xml(n.name)}</data><data key="nconv">${n.conversations}</data></node>\n`;
    let i = 0;
    for (const e of g.edges) {
      const times =
        e.firstGameMs === null ? '' : `<data key="first">${formatIsoMinute(e.firstGameMs)}</data><data key="last">${formatIsoMinute(e.lastGameMs!)}</data>`;
      yield (
        `    <edge id="e${i++}" source="${xml(e.a)}" target="${xml(e.b)}"><data ` +
        `key="weight">${e.conversations}</data><data key="acquainted">${e.acquainted}</data>${times}</edge>\n`
      );
    }
    yield '  </graph>\n</graphml>\n';
  }
  return lines(text(), out);
}

export const EDGE_COLUMNS = ['source', 'target', 'source_name', 'target_name', 'weight', 'acquainted', 'first_conversation', 'last_conversation'];

export function exportEdges(db: WorldDb, out: Writable, o: ExportOptions = {}): Promise<void> {
  const facts = readWorldFacts(db);
  const names = new Map(facts.agents.map((a) => [a.id as string, a.name]));
  const g = relationshipGraph(facts, o);
  const rows = g.edges.map((e) => ({
    source: e.a,
    target: e.b,
    source_name: names.get(e.a) ?? e.a,
    target_name: names.get(e.b) ?? e.b,
    weight: e.conversations,
    acquainted: e.acquainted,
    first_conversation: e.firstGameMs === null ? '' : formatIsoMinute(e.firstGameMs),
    last_conversation: e.lastGameMs === null ? '' : formatIsoMinute(e.lastGameMs),
  }));
  return csv(rows, EDGE_COLUMNS, out);
}
