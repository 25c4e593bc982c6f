// The town-level measures of the paper, computed from a world file: awareness of a topic over time
// (with who told whom), network density over time, attendance at a place in a window,
// conversations and reflections per agent, and LLM use per agent-day. The method is in README.md.
import type { AgentId } from '../protocol/ids';
import type { AnalysisReport, LlmEndpointUse } from '../protocol/analysis';
import type { WorldDb } from '../store/WorldDb';
import type { TownMap } from '../world/types';
import type { Embedder } from '../llm/types';
import { tokenize } from '../llm/OfflineEmbedder';
import { positionOnPath } from '../protocol/movement';
import { formatIsoMinute, GAME_MS_PER_DAY, GAME_MS_PER_HOUR, GAME_MS_PER_MINUTE } from '../protocol/time';
import { createSimWorld } from '../sim/state';
import { stateAt } from '../history/stateAt';
import { abandonedRanges, historyEvents } from '../history/log';
import { agentsAt, pairKey, type WorldFacts } from './facts';

/** Default least cosine similarity (offline word vectors) between a memory and a topic's phrase. */
export const DEFAULT_MIN_RELEVANCE = 0.75;

export interface TopicSpec {
  name: string;
  phrase: string;
  words?: string[];
  minRelevance?: number;
  question?: string;
}

export interface AttendanceSpec {
  place: string;
  fromGameMs: number;
  toGameMs: number;
  topic?: string;
  minMinutes: number;
}

export interface Window {
  fromGameMs: number;
  toGameMs: number;
}

export type SourceKind = 'seed' | 'whisper' | 'conversation' | 'observation' | 'reflection' | 'plan';

export interface FirstHeard {
  agentId: AgentId;
  name: string;
  gameMs: number;
  source: SourceKind;
  /** Who told them (conversation) or whom they saw (observation). */
  fromId: AgentId | null;
  conversationId: number | null;
  memoryId: number;
  text: string;
}

export interface TopicAwareness {
  topic: TopicSpec;
  /** Every agent who holds the topic by the end of the window, in the order they first heard it. */
  agents: FirstHeard[];
  series: Array<{ gameMs: number; aware: number }>;
  awareStart: number;
  awareEnd: number;
  /** End-of-run interview answers (LLM runs), when the world has them. */
  interview: Array<{ agentId: string; answer: string; aware: boolean }> | null;
}

interface MemoryRow {
  id: number;
  agentId: AgentId;
  kind: string;
  description: string;
  createdGameMs: number;
  subject: string | null;
  predicate: string | null;
  object: string | null;
  evidence: string;
}

export const round = (x: number, digits = 3) => Number(x.toFixed(digits));

/** Game hours from `from` to `to`, both ends included. */
export function hourlyTimes(w: Window): number[] {
  const out: number[] = [w.fromGameMs];
  for (let t = Math.floor(w.fromGameMs / GAME_MS_PER_HOUR) * GAME_MS_PER_HOUR + GAME_MS_PER_HOUR; t < w.toGameMs; t += GAME_MS_PER_HOUR) out.push(t);
  if (w.toGameMs > w.fromGameMs) out.push(w.toGameMs);
  return out;
}

/** A memory's sentences and clauses: a conversation summary lists several topics, and words must meet in one. */
export function clausesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+|;\s*|:\s+/)
    .map((c) => c.trim())
    .filter(Boolean);
}

/**
 * The word rule for a topic, on one clause: all of `words` (as word starts, any case), or else at least
 * half of the phrase's content words. A text passes when one of its clauses does.
 */
export function topicWordRule(topic: TopicSpec): (text: string) => boolean {
  const starts = (word: string) => new RegExp(`\\b${word.replace(/[^a-z0-9']/gi, '')}`, 'i');
  let clause: (text: string) => boolean;
  if (topic.words?.length) {
    const res = topic.words.map(starts);
    clause = (text) => res.every((re) => re.test(text));
  } else {
    const words = [...new Set(tokenize(topic.phrase).filter((w) => w.length >= 3))];
    const res = words.map(starts);
    const need = Math.max(1, Math.ceil(words.length / 2));
    clause = (text) => res.filter((re) => re.test(text)).length >= need;
  }
  return (text) => clausesOf(text).some(clause);
}

/** The clauses of a text that pass the topic's word rule. */
function matchingClauses(rule: (text: string) => boolean, text: string): string[] {
  return clausesOf(text).filter((c) => rule(c));
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

/** Whether an interview answer says the agent knows the topic: it names the topic and does not start with a denial. */
export function answerIsAware(topic: TopicSpec, answer: string, speaker?: string): boolean {
  if (/^\W*(no\b|nope|not that i|i (do not|don't|haven't|have not|never)|i'm not aware|i am not aware)/i.test(answer.trim())) return false;
  // News about the speaker is told in the first person ("I am running for mayor"): "I", "me" and "my"
  // name the speaker, so a topic whose words include the speaker's name is still recognised.
  const said = speaker ? answer.replace(/\b(I|me|my|myself)\b/g, (w) => (w === 'my' ? `${speaker}'s` : speaker)) : answer;
  return topicWordRule(topic)(said);
}

/** The default interview question for a topic. */
export function interviewQuestion(topic: TopicSpec): string {
  return topic.question ?? `Have you heard about ${topic.phrase}? Answer yes or no first, then say what you know.`;
}

function sourceOf(m: MemoryRow, facts: WorldFacts): Pick<FirstHeard, 'source' | 'fromId' | 'conversationId'> {
  const person = (name: string | null) => (name ? (facts.byName.get(name) ?? null) : null);
  if (m.kind === 'chat') {
    const fromId = m.predicate === 'said' ? person(m.subject) : person(m.object);
    let conversationId: number | null = null;
    if (fromId) {
      // The conversation of that pair that was going on (or had just ended) when the memory was written.
      let best: { id: number; startGameMs: number } | null = null;
      for (const c of facts.conversations)
        if (pairKey(c.a, c.b) === pairKey(m.agentId, fromId) && c.startGameMs <= m.createdGameMs && (!best || c.startGameMs >= best.startGameMs)) best = c;
      conversationId = best?.id ?? null;
    }
    return { source: 'conversation', fromId, conversationId };
  }
  if (m.kind === 'thought') return { source: m.predicate === 'was told' ? 'whisper' : 'reflection', fromId: null, conversationId: null };
  if (m.kind === 'plan') return { source: 'plan', fromId: null, conversationId: null };
  if (m.subject === null) return { source: 'seed', fromId: null, conversationId: null };
  return { source: 'observation', fromId: person(m.subject), conversationId: null };
}

/**
 * Awareness of each topic: an agent knows a topic from the first memory that passes the topic's word
 * rule and whose embedding (by `embedder`, the offline word vectors) is at least `minRelevance` similar
 * to the phrase. Counted at every game hour of the window.
 */
export async function measureAwareness(db: WorldDb, facts: WorldFacts, topics: TopicSpec[], embedder: Embedder, w: Window): Promise<TopicAwareness[]> {
  if (topics.length === 0) return [];
  const rules = topics.map(topicWordRule);
  const phrases = await embedder.embed(topics.map((t) => t.phrase));
  const first = topics.map(() => new Map<string, FirstHeard>());
  const names = new Map(facts.agents.map((a) => [a.id as string, a.name]));
  const rows = db.db
    .prepare(
      `SELECT id, agent_id AS agentId, kind, description, created_ms AS createdGameMs, subject, predicate, object, evidence
       FROM memories WHERE created_ms <= ? ORDER BY created_ms, id`,
    )
    .iterate(w.toGameMs) as IterableIterator<MemoryRow>;
  // Candidates: (topic, memory, one clause that passes the word rule); the memory counts when its best clause is relevant enough.
  const candidates: Array<[number, MemoryRow, string]> = [];
  for (const m of rows)
    topics.forEach((_, i) => !first[i].has(m.agentId) && matchingClauses(rules[i], m.description).forEach((c) => candidates.push([i, m, c])));
  const vectors = await embedder.embed(candidates.map(([, , c]) => c));
  candidates.forEach(([i, m], k) => {
    if (first[i].has(m.agentId) || cosine(vectors[k], phrases[i]) < (topics[i].minRelevance ?? DEFAULT_MIN_RELEVANCE)) return;
    first[i].set(m.agentId, {
      agentId: m.agentId,
      name: names.get(m.agentId) ?? m.agentId,
      gameMs: m.createdGameMs,
      memoryId: m.id,
      text: m.description,
      ...sourceOf(m, facts),
    });
  });
  const times = hourlyTimes(w);
  const nameOf = new Map([...facts.byName].map(([name, id]) => [id as string, name]));
  return topics.map((topic, i) => {
    const agents = [...first[i].values()].sort((a, b) => a.gameMs - b.gameMs || a.memoryId - b.memoryId);
    const count = (t: number) => agents.filter((a) => a.gameMs <= t && agentsAt(facts, t).some((x) => x.id === a.agentId)).length;
    const asked = facts.interviews.filter((v) => v.question === interviewQuestion(topic) && v.gameMs >= w.fromGameMs && v.gameMs <= w.toGameMs);
    const latest = new Map<string, (typeof asked)[number]>();
    for (const v of asked) latest.set(v.agentId, v);
    return {
      topic,
      agents,
      series: times.map((t) => ({ gameMs: t, aware: count(t) })),
      awareStart: count(w.fromGameMs),
      awareEnd: count(w.toGameMs),
      interview: latest.size
        ? [...latest.values()].map((v) => ({ agentId: v.agentId, answer: v.answer, aware: answerIsAware(topic, v.answer, nameOf.get(v.agentId)) }))
        : null,
    };
  });
}

export interface DensityMeasure {
  /** density: pairs who know each other (persona files, or at least one line exchanged) over all pairs; openedDensity counts any conversation begun. */
  series: Array<{ gameMs: number; density: number; knownPairs: number; pairs: number; openedDensity: number; openedPairs: number }>;
  start: number;
  end: number;
  /** The same with every conversation that was begun counted, lines or not (the earlier definition). */
  openedEnd: number;
}

/**
 * Pairs who know each other over all pairs of agents present: a pair knows each other when either's
 * persona names the other, or they have exchanged at least one line by then. Beside it, the pairs that
 * merely began a conversation (a talk cut off before its first line counts there, not in the density).
 */
export function measureDensity(facts: WorldFacts, w: Window, fallbackRelationships?: Map<string, string[]>): DensityMeasure {
  const relationships = facts.relationships ?? fallbackRelationships ?? new Map<string, string[]>();
  const initial = new Set<string>();
  for (const [a, others] of relationships) for (const b of others) initial.add(pairKey(a, b));
  const talks = facts.conversations.map((c) => ({ key: pairKey(c.a, c.b), gameMs: c.startGameMs, lines: c.lines })).sort((x, y) => x.gameMs - y.gameMs);
  const series = hourlyTimes(w).map((t) => {
    const present = agentsAt(facts, t).map((a) => a.id as string);
    const ids = new Set(present);
    const known = new Set([...initial].filter((k) => k.split('|').every((id) => ids.has(id))));
    const opened = new Set(known);
    for (const talk of talks)
      if (talk.gameMs <= t && talk.key.split('|').every((id) => ids.has(id))) {
        opened.add(talk.key);
        if (talk.lines > 0) known.add(talk.key);
      }
    const pairs = (present.length * (present.length - 1)) / 2;
    return {
      gameMs: t,
      density: pairs ? known.size / pairs : 0,
      knownPairs: known.size,
      pairs,
      openedDensity: pairs ? opened.size / pairs : 0,
      openedPairs: opened.size,
    };
  });
  return { series, start: series[0]?.density ?? 0, end: series.at(-1)?.density ?? 0, openedEnd: series.at(-1)?.openedDensity ?? 0 };
}

export interface AttendanceMeasure {
  spec: AttendanceSpec;
  /** Agents inside the place at least minMinutes of the window, with their minutes, whether invited, and whether host or staff. */
  agents: Array<{ agentId: AgentId; name: string; minutes: number; invited: boolean; host: boolean; staff: boolean }>;
  present: number;
  /** Present, not counting the host (who knew the topic from the start) and the staff (who work at the place). */
  presentGuests: number;
  /** 'invitation': received an invitation (a summary's record, or an offline invitation act); 'aware': knew the topic before (older worlds). */
  invitedBy: 'invitation' | 'aware';
  invited: number;
  /** Invitees who accepted (invitation worlds), else null. */
  accepted: number | null;
  invitedPresent: number;
  /** Invitees present who are not staff of the place. */
  invitedPresentGuests: number;
}

/**
 * Agents who received an invitation to the topic before `beforeGameMs`, with whether they accepted: an
 * invitation a conversation's summary records (`conversation.summarised`, either mind), or one heard as
 * an offline act (each is an `agent.decided` accept decision; worlds from before summaries recorded them).
 * Null for a world that records neither (then "invited" falls back to "aware").
 */
export function invitationsOf(db: WorldDb, topic: TopicSpec, beforeGameMs: number): Map<string, boolean> | null {
  const rule = topicWordRule(topic);
  const out = new Map<string, boolean>();
  const invited = (id: string, accepted: boolean) => out.set(id, (out.get(id) ?? false) || accepted);
  let any = false;
  for (const e of historyEvents(db, { kinds: ['agent.decided', 'conversation.summarised'] }, abandonedRanges(db))) {
    if (e.kind === 'conversation.summarised') {
      any = true;
      if (e.gameMs >= beforeGameMs) continue;
      for (const i of e.data.invitations) if (rule(`${i.about} ${i.when ?? ''}`)) invited(i.guestId, i.answer === 'accepted');
      continue;
    }
    if (e.kind !== 'agent.decided' || !e.agentId) continue;
    any = true;
    if (e.data.decision !== 'accept' || e.gameMs >= beforeGameMs || !rule(e.data.about)) continue;
    invited(e.agentId, e.data.chose);
  }
  return any ? out : null;
}

/** Whether an arena address lies in a place (an arena address, or a sector). */
function placeCovers(map: TownMap, place: string, address: string): boolean {
  return address === place || address.split(': ')[0] === place || map.arenas.some((a) => a.address === address && a.sector === place);
}

/** Which arenas (by index) a place name covers: an arena address, or every arena of a sector. */
function arenaIndexes(map: TownMap, place: string): Set<number> {
  const out = new Set<number>();
  map.arenas.forEach((a, i) => (a.address === place || a.sector === place) && out.add(i));
  return out;
}

/**
 * Minutes each agent spent inside a place during a window: the town at the window's start is folded
 * from the log (history/stateAt), then each agent's walks (agent.move waypoints) are followed minute
 * by minute. Invited = received an invitation act to the attendance's topic before the window (offline
 * worlds log one per invitation heard); in worlds without such acts, knew the topic before the window
 * (the host, who knew it from the start, is not its own invitee).
 */
export function measureAttendance(db: WorldDb, map: TownMap, facts: WorldFacts, spec: AttendanceSpec, awareness: TopicAwareness[]): AttendanceMeasure {
  const arenas = arenaIndexes(map, spec.place);
  const at = stateAt(db, createSimWorld(map), spec.fromGameMs);
  type Walk = { path: number[]; startGameMs: number; tilesPerGameMinute: number };
  const walks = new Map<string, Walk | null>();
  const tiles = new Map<string, number>();
  for (const a of at?.sim.agents ?? []) {
    walks.set(a.spec.id, a.movement);
    tiles.set(a.spec.id, a.tile);
  }
  const events = [
    ...historyEvents(
      db,
      { fromGameMs: spec.fromGameMs + 1, untilGameMs: spec.toGameMs, kinds: ['agent.move', 'agent.added', 'agent.removed'] },
      abandonedRanges(db),
    ),
  ];
  const minutes = new Map<string, number>();
  let k = 0;
  for (let t = spec.fromGameMs; t < spec.toGameMs; t += GAME_MS_PER_MINUTE) {
    for (; k < events.length && events[k].gameMs <= t; k++) {
      const e = events[k];
      if (!e.agentId) continue;
      if (e.kind === 'agent.move') walks.set(e.agentId, e.data);
      else if (e.kind === 'agent.added') (walks.set(e.agentId, null), tiles.set(e.agentId, e.data.tile));
      else if (e.kind === 'agent.removed') (walks.delete(e.agentId), tiles.delete(e.agentId));
    }
    for (const [id, walk] of walks) {
      let tile = tiles.get(id)!;
      if (walk && walk.path.length) {
        const p = positionOnPath(walk.path, map.widthTiles, walk.startGameMs, walk.tilesPerGameMinute, t);
        tile = p.tileY * map.widthTiles + p.tileX;
      }
      if (arenas.has(map.arenaIndexByTile[tile])) minutes.set(id, (minutes.get(id) ?? 0) + 1);
    }
  }
  const topic = spec.topic ? awareness.find((a) => a.topic.name === spec.topic) : undefined;
  // The host knew the topic from the run's start (a seed memory or a whisper); staff work at the place.
  const hosts = new Set((topic?.agents ?? []).filter((a) => a.source === 'seed' || a.source === 'whisper').map((a) => a.agentId as string));
  const invitations = topic ? invitationsOf(db, topic.topic, spec.fromGameMs) : null;
  const invitedIds = invitations
    ? new Set(invitations.keys())
    : new Set((topic?.agents ?? []).filter((a) => a.gameMs < spec.fromGameMs && !hosts.has(a.agentId)).map((a) => a.agentId as string));
  const staff = new Set([...(facts.workplaces ?? new Map()).entries()].filter(([, w]) => w !== null && placeCovers(map, spec.place, w)).map(([id]) => id));
  const names = new Map(facts.agents.map((a) => [a.id as string, a.name]));
  const agents = [...minutes.entries()]
    .filter(([, m]) => m >= spec.minMinutes)
    .map(([id, m]) => ({
      agentId: id as AgentId,
      name: names.get(id) ?? id,
      minutes: m,
      invited: invitedIds.has(id),
      host: hosts.has(id),
      staff: staff.has(id),
    }))
    .sort((a, b) => b.minutes - a.minutes || a.name.localeCompare(b.name));
  return {
    spec,
    agents,
    present: agents.length,
    presentGuests: agents.filter((a) => !a.host && !a.staff).length,
    invitedBy: invitations ? 'invitation' : 'aware',
    invited: invitedIds.size,
    accepted: invitations ? [...invitations.values()].filter(Boolean).length : null,
    invitedPresent: agents.filter((a) => a.invited).length,
    invitedPresentGuests: agents.filter((a) => a.invited && !a.staff && !a.host).length,
  };
}

export interface ConversationCounts {
  total: number;
  perAgent: Record<string, number>;
  perPair: Array<{ a: string; b: string; count: number }>;
  series: Array<{ gameMs: number; count: number }>;
}

export function countConversations(facts: WorldFacts, w: Window): ConversationCounts {
  const inWindow = facts.conversations.filter((c) => c.startGameMs >= w.fromGameMs && c.startGameMs <= w.toGameMs);
  const perAgent: Record<string, number> = Object.fromEntries(facts.agents.map((a) => [a.id, 0]));
  const pairs = new Map<string, number>();
  for (const c of inWindow) {
    perAgent[c.a] = (perAgent[c.a] ?? 0) + 1;
    perAgent[c.b] = (perAgent[c.b] ?? 0) + 1;
    pairs.set(pairKey(c.a, c.b), (pairs.get(pairKey(c.a, c.b)) ?? 0) + 1);
  }
  const perPair = [...pairs.entries()]
    .map(([k, count]) => ({ a: k.split('|')[0], b: k.split('|')[1], count }))
    .sort((x, y) => y.count - x.count || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
  const series = hourlyTimes(w).map((t) => ({ gameMs: t, count: inWindow.filter((c) => c.startGameMs <= t).length }));
  return { total: inWindow.length, perAgent, perPair, series };
}

export function countReflections(facts: WorldFacts, w: Window): { total: number; perAgent: Record<string, number> } {
  const perAgent: Record<string, number> = Object.fromEntries(facts.agents.map((a) => [a.id, 0]));
  let total = 0;
  for (const r of facts.reflections)
    if (r.gameMs >= w.fromGameMs && r.gameMs <= w.toGameMs) {
      perAgent[r.agentId] = (perAgent[r.agentId] ?? 0) + 1;
      total++;
    }
  return { total, perAgent };
}

export type LlmUse = AnalysisReport['llm'];

/** LLM calls, tokens and dollars (llm_calls), per agent-day of the window; fallbacks from the log. */
export function measureLlm(db: WorldDb, facts: WorldFacts, w: Window): LlmUse {
  const rows = db.db
    .prepare(
      `SELECT agent_id AS agentId, purpose, cached, prompt_tokens + completion_tokens AS tokens, cost_usd AS costUsd, game_ms AS gameMs
       FROM llm_calls WHERE game_ms IS NULL OR (game_ms >= ? AND game_ms <= ?)`,
    )
    .all(w.fromGameMs, w.toGameMs) as Array<{
    agentId: string | null;
    purpose: string;
    cached: number;
    tokens: number;
    costUsd: number;
    gameMs: number | null;
  }>;
  const agents = new Map<string, { calls: number; tokens: number; costUsd: number }>();
  const purposes = new Map<string, { calls: number; tokens: number; costUsd: number }>();
  const hours = new Map<number, LlmUse['hourly'][number]>();
  const hourOf = (t: number) => Math.floor(t / GAME_MS_PER_HOUR) * GAME_MS_PER_HOUR;
  const bucket = (t: number) =>
    hours.get(hourOf(t)) ?? hours.set(hourOf(t), { t: formatIsoMinute(hourOf(t)), ms: hourOf(t), by_purpose: {}, by_agent: {}, fallbacks: 0 }).get(hourOf(t))!;
  let calls = 0,
    cached = 0,
    tokens = 0,
    costUsd = 0;
  for (const r of rows) {
    calls++;
    cached += r.cached;
    tokens += r.tokens;
    costUsd += r.costUsd;
    const agent = r.agentId ?? 'town';
    for (const [map, key] of [
      [agents, agent],
      [purposes, r.purpose],
    ] as const) {
      const s = map.get(key) ?? { calls: 0, tokens: 0, costUsd: 0 };
      s.calls++;
      s.tokens += r.tokens;
      s.costUsd += r.costUsd;
      map.set(key, s);
    }
    if (r.gameMs !== null) {
      const b = bucket(r.gameMs);
      b.by_purpose[r.purpose] = (b.by_purpose[r.purpose] ?? 0) + 1;
      b.by_agent[agent] = (b.by_agent[agent] ?? 0) + 1;
    }
  }
  const fallbacks = facts.fallbacks.filter((f) => f.gameMs >= w.fromGameMs && f.gameMs <= w.toGameMs);
  const byPurpose: Record<string, number> = {};
  for (const f of fallbacks) {
    byPurpose[f.purpose] = (byPurpose[f.purpose] ?? 0) + 1;
    bucket(f.gameMs).fallbacks++;
  }
  const days = (w.toGameMs - w.fromGameMs) / GAME_MS_PER_DAY;
  const agentDays = agentsAt(facts, w.toGameMs).length * days;
  const per = (x: number) => (agentDays > 0 ? x / agentDays : 0);
  const money = (x: number) => round(x, 5);
  return {
    calls,
    cached,
    tokens,
    cost_usd: round(costUsd, 4),
    agent_days: round(agentDays, 3),
    calls_per_agent_day: round(per(calls), 2),
    tokens_per_agent_day: round(per(tokens), 1),
    cost_per_agent_day: money(per(costUsd)),
    per_agent: [...agents.entries()]
      .map(([id, a]) => ({ id, calls: a.calls, tokens: a.tokens, cost_usd: money(a.costUsd) }))
      .sort((a, b) => b.calls - a.calls || a.id.localeCompare(b.id)),
    per_purpose: [...purposes.entries()]
      .map(([purpose, p]) => ({ purpose, calls: p.calls, tokens: p.tokens, cost_usd: money(p.costUsd) }))
      .sort((a, b) => b.calls - a.calls),
    hourly: [...hours.values()].sort((a, b) => a.ms - b.ms),
    fallbacks: { total: fallbacks.length, by_purpose: byPurpose },
    mends: countMends(facts.mends.filter((m) => m.gameMs >= w.fromGameMs && m.gameMs <= w.toGameMs)),
    ...byEndpoint(db, facts, w),
  };
}

/** Per-endpoint figures, from the calls that name an endpoint (several endpoints) and the llm.endpoint events. */
function byEndpoint(db: WorldDb, facts: WorldFacts, w: Window): { by_endpoint?: LlmEndpointUse[] } {
  // A file from before schema 2 names no endpoint on its calls.
  if (db.schemaVersion < 2) return {};
  const rows = db.db
    .prepare(
      `SELECT endpoint, outcome = 'ok' AS ok, prompt_tokens AS prompt, completion_tokens AS completion, latency_ms AS latencyMs FROM llm_calls
       WHERE endpoint IS NOT NULL AND (game_ms IS NULL OR (game_ms >= ? AND game_ms <= ?)) ORDER BY endpoint, latency_ms`,
    )
    .all(w.fromGameMs, w.toGameMs) as Array<{ endpoint: string; ok: number; prompt: number; completion: number; latencyMs: number }>;
  const changes = facts.endpointChanges.filter((c) => c.gameMs >= w.fromGameMs && c.gameMs <= w.toGameMs);
  if (rows.length === 0 && changes.length === 0) return {};
  const names = [...new Set([...rows.map((r) => r.endpoint), ...changes.map((c) => c.name)])];
  return {
    by_endpoint: names.map((endpoint) => {
      const mine = rows.filter((r) => r.endpoint === endpoint);
      const answered = mine.filter((r) => r.ok).map((r) => r.latencyMs);
      const at = (p: number) => (answered.length ? round(answered[Math.min(answered.length - 1, Math.floor(p * answered.length))], 1) : 0);
      return {
        endpoint,
        calls: mine.length,
        failed: mine.length - answered.length,
        prompt_tokens: mine.reduce((s, r) => s + r.prompt, 0),
        completion_tokens: mine.reduce((s, r) => s + r.completion, 0),
        latency_p50_ms: at(0.5),
        latency_p99_ms: at(0.99),
        taken_out: changes.filter((c) => c.name === endpoint && c.state === 'out').length,
        back: changes.filter((c) => c.name === endpoint && c.state === 'back').length,
      };
    }),
  };
}

/** Repair turns, content mends and longer budgets, in all and per purpose. */
function countMends(mends: WorldFacts['mends']): { repair: number; mend: number; longer: number; by_purpose: Record<string, Record<string, number>> } {
  const out = { repair: 0, mend: 0, longer: 0, by_purpose: {} as Record<string, Record<string, number>> };
  for (const m of mends) {
    out[m.how as 'repair' | 'mend' | 'longer']++;
    const p = (out.by_purpose[m.purpose] ??= {});
    p[m.how] = (p[m.how] ?? 0) + 1;
  }
  return out;
}
