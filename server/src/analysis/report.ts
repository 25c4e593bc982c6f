// The report of a world: every metric of metrics.ts over a window (the whole run by default), as JSON
// (snake_case keys, the format external tools read) and as Markdown. A headless run writes both to
// DATA_DIR/<world>.report.json and .report.md; the analysis page reads the JSON over HTTP.
import fs from 'node:fs';
import type { WorldDb } from '../store/WorldDb';
import type { TownMap } from '../world/types';
import type { Embedder } from '../llm/types';
import type { AnalysisReport } from '../protocol/analysis';
import { formatIsoMinute, GAME_MS_PER_DAY, parseIsoMinute } from '../protocol/time';
import { readWorldFacts, type WorldFacts } from './facts';
import {
  countConversations,
  countReflections,
  DEFAULT_MIN_RELEVANCE,
  measureAttendance,
  measureAwareness,
  measureDensity,
  measureLlm,
  round,
  type AttendanceSpec,
  type TopicAwareness,
  type TopicSpec,
  type Window,
} from './metrics';
import { ScenarioSchema, type Scenario } from './scenario';

export interface ReportOptions {
  world: string;
  /** Topics and attendance windows; by default those of the scenario recorded in the world. */
  scenario?: Scenario | null;
  extraTopics?: TopicSpec[];
  window?: Partial<Window>;
  /** Persona relationships for worlds recorded before `agent.persona` events. */
  fallbackRelationships?: Map<string, string[]>;
}

/** The scenario a world was run with, when it records one. */
export function recordedScenario(facts: WorldFacts): Scenario | null {
  const parsed = facts.scenario ? ScenarioSchema.safeParse(facts.scenario.scenario) : null;
  return parsed?.success ? parsed.data : null;
}

export function topicsOf(scenario: Scenario | null): TopicSpec[] {
  return scenario?.topics ?? [];
}

export function attendanceOf(scenario: Scenario | null): AttendanceSpec[] {
  return (scenario?.attendance ?? []).map((a) => ({
    place: a.place,
    fromGameMs: parseIsoMinute(a.from)!,
    toGameMs: parseIsoMinute(a.to)!,
    topic: a.topic,
    minMinutes: a.minMinutes,
  }));
}

export async function buildReport(db: WorldDb, map: TownMap, embedder: Embedder, options: ReportOptions): Promise<AnalysisReport> {
  const facts = readWorldFacts(db);
  const scenario = options.scenario ?? recordedScenario(facts);
  const w: Window = {
    fromGameMs: Math.max(facts.startGameMs, options.window?.fromGameMs ?? -Infinity),
    toGameMs: Math.min(facts.endGameMs, options.window?.toGameMs ?? Infinity),
  };
  if (w.toGameMs < w.fromGameMs) w.toGameMs = w.fromGameMs;
  const topics = [...topicsOf(scenario), ...(options.extraTopics ?? [])];
  const awareness = await measureAwareness(db, facts, topics, embedder, w);
  const density = measureDensity(facts, w, options.fallbackRelationships);
  const attendance = attendanceOf(scenario).map((spec) => measureAttendance(db, map, facts, spec, awareness));
  const conversations = countConversations(facts, w);
  const reflections = countReflections(facts, w);
  const llm = measureLlm(db, facts, w);
  const iso = formatIsoMinute;
  const names = Object.fromEntries(facts.agents.map((a) => [a.id, a.name]));
  return {
    world: options.world,
    mind: facts.mind,
    scenario: scenario ? { name: scenario.name, description: scenario.description ?? null } : null,
    last_seq: facts.lastSeq,
    window: {
      from: iso(w.fromGameMs),
      to: iso(w.toGameMs),
      from_ms: w.fromGameMs,
      to_ms: w.toGameMs,
      days: round((w.toGameMs - w.fromGameMs) / GAME_MS_PER_DAY),
    },
    agents: facts.agents.map((a) => ({ id: a.id, name: a.name })),
    topics: awareness.map((t) => ({
      name: t.topic.name,
      phrase: t.topic.phrase,
      method: { words: t.topic.words ?? null, min_relevance: t.topic.minRelevance ?? DEFAULT_MIN_RELEVANCE },
      aware_start: t.awareStart,
      aware_end: t.awareEnd,
      aware_interview: t.interview ? t.interview.filter((v) => v.aware).length : null,
      interviewed: t.interview ? t.interview.length : null,
      agents: t.agents.map((a) => ({
        id: a.agentId,
        name: a.name,
        first_heard: iso(a.gameMs),
        first_heard_ms: a.gameMs,
        source: a.source,
        from: a.fromId,
        from_name: a.fromId ? (names[a.fromId] ?? a.fromId) : null,
        conversation_id: a.conversationId,
        memory_id: a.memoryId,
        memory: a.text,
      })),
      interview: t.interview?.map((v) => ({ id: v.agentId, name: names[v.agentId] ?? v.agentId, aware: v.aware, answer: v.answer })) ?? null,
      series: t.series.map((p) => ({ t: iso(p.gameMs), ms: p.gameMs, aware: p.aware })),
    })),
    density: {
      start: round(density.start),
      end: round(density.end),
      known_pairs_start: density.series[0]?.knownPairs ?? 0,
      known_pairs_end: density.series.at(-1)?.knownPairs ?? 0,
      pairs: density.series.at(-1)?.pairs ?? 0,
      opened_end: round(density.openedEnd),
      series: density.series.map((p) => ({ t: iso(p.gameMs), ms: p.gameMs, density: round(p.density, 4) })),
    },
    attendance: attendance.map((a) => ({
      place: a.spec.place,
      from: iso(a.spec.fromGameMs),
      to: iso(a.spec.toGameMs),
      topic: a.spec.topic ?? null,
      min_minutes: a.spec.minMinutes,
      present: a.present,
      present_guests: a.presentGuests,
      invited_by: a.invitedBy,
      invited: a.invited,
      accepted: a.accepted,
      invited_present: a.invitedPresent,
      invited_present_guests: a.invitedPresentGuests,
      ...awareAround(awareness, a.spec, w),
      attended_share_of_invited: a.invited ? round(a.invitedPresent / a.invited) : 0,
      agents: a.agents.map((x) => ({ id: x.agentId, name: x.name, minutes: x.minutes, invited: x.invited, host: x.host, staff: x.staff })),
    })),
    conversations: {
      total: conversations.total,
      per_agent: conversations.perAgent,
      per_pair: conversations.perPair,
      series: conversations.series.map((p) => ({ t: iso(p.gameMs), ms: p.gameMs, count: p.count })),
    },
    reflections: { total: reflections.total, per_agent: reflections.perAgent },
    llm,
  };
}

export type Report = AnalysisReport;

/** How the invitees of an attendance window were counted, as the Markdown says it. */
function invitedHow(a: Report['attendance'][number]): string {
  if (a.invited_by === 'invitation') return `(received an invitation${a.accepted !== null ? `; ${a.accepted} accepted` : ''})`;
  return a.topic ? `(had heard of '${a.topic}' before)` : '';
}

/** The report as Markdown, for people. */
export function reportMarkdown(r: Report): string {
  const n = r.agents.length;
  const lines: string[] = [];
  lines.push(`# Report: ${r.world}`, '');
  lines.push(
    `${r.scenario ? `Scenario **${r.scenario.name}**. ` : ''}${n} agents, ${r.window.from} to ${r.window.to} ` +
      `(${r.window.days} game days), mind: ${r.mind ?? 'unknown'}.`,
    '',
  );
  lines.push('## Information diffusion', '');
  if (r.topics.length === 0) lines.push('No topics tracked.', '');
  for (const t of r.topics) {
    lines.push(`### ${t.name}: "${t.phrase}"`, '');
    lines.push(
      `Aware at the start: **${t.aware_start} of ${n}**; at the end: **${t.aware_end} ` +
        `of ${n}**${t.aware_interview !== null ? `; by end-of-run interview: **${t.aware_interview} of ${t.interviewed}**` : ''}.`,
    );
    lines.push(
      `(A memory counts when it contains ${t.method.words ? `all of: ${t.method.words.join(', ')}` : "half the phrase's content words"} ` +
        `and its cosine similarity to the phrase is at least ${t.method.min_relevance}.)`,
      '',
    );
    lines.push('| Agent | First heard | How | From |', '|---|---|---|---|');
    for (const a of t.agents)
      lines.push(
        `| ${a.name} | ${a.first_heard} | ${a.source}${a.conversation_id !== null ? ` (conversation ${a.conversation_id})` : ''} | ${a.from_name ?? ''} |`,
      );
    lines.push('');
  }
  lines.push('## Network density', '');
  lines.push(
    `From **${r.density.start}** (${r.density.known_pairs_start} of ${r.density.pairs} pairs) to **${r.density.end}** (${r.density.known_pairs_end} pairs ` +
      `that know each other from their persona files or exchanged at least one line); counting every conversation begun: ${r.density.opened_end}.`,
    '',
  );
  lines.push('## Attendance', '');
  if (r.attendance.length === 0) lines.push('No attendance windows.', '');
  for (const a of r.attendance) {
    lines.push(
      `**${a.place}**, ${a.from} to ${a.to} (at least ${a.min_minutes} game minutes inside): ${a.present} ` +
        `present (${a.present_guests} without the host and staff); ${a.invited_present} of ${a.invited} invited ` +
        `${invitedHow(a)} ` +
        `came (${a.invited_present_guests} not counting staff).`,
    );
    const role = (x: { invited: boolean; host: boolean; staff: boolean }) =>
      [x.invited && 'invited', x.host && 'host', x.staff && 'staff'].filter(Boolean).join(', ');
    if (a.agents.length) lines.push('', a.agents.map((x) => `${x.name} (${x.minutes} min${role(x) ? `, ${role(x)}` : ''})`).join(', '));
    lines.push('');
  }
  lines.push('## Conversations and reflections', '');
  lines.push(`${r.conversations.total} conversations; ${r.reflections.total} reflections.`, '');
  lines.push('| Agent | Conversations | Reflections |', '|---|---|---|');
  for (const a of r.agents) lines.push(`| ${a.name} | ${r.conversations.per_agent[a.id] ?? 0} | ${r.reflections.per_agent[a.id] ?? 0} |`);
  lines.push('');
  lines.push('## LLM use', '');
  lines.push(
    `${r.llm.calls} calls (${r.llm.cached} from the cache), ${r.llm.tokens} tokens, $${r.llm.cost_usd}: per ` +
      `agent-day ${r.llm.calls_per_agent_day} calls, ${r.llm.tokens_per_agent_day} tokens, ` +
      `$${r.llm.cost_per_agent_day}. Fallbacks: ${r.llm.fallbacks.total}.` +
      (r.llm.mends ? ` Repaired: ${r.llm.mends.repair}; mended: ${r.llm.mends.mend}; asked again longer: ${r.llm.mends.longer}.` : ''),
    '',
  );
  if (r.llm.by_endpoint?.length) {
    lines.push('| Endpoint | Requests | Failed | Prompt tokens | Completion tokens | Latency p50 / p99 | Taken out / back |', '|---|---|---|---|---|---|---|');
    for (const e of r.llm.by_endpoint)
      lines.push(
        `| ${e.endpoint} | ${e.calls} | ${e.failed} | ${e.prompt_tokens} | ${e.completion_tokens} | ` +
          `${Math.round(e.latency_p50_ms)} / ${Math.round(e.latency_p99_ms)} ms | ${e.taken_out} / ${e.back} |`,
      );
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

export function writeReport(r: Report, jsonFile: string, mdFile: string): void {
  fs.writeFileSync(jsonFile, `${JSON.stringify(r, null, 2)}\n`);
  fs.writeFileSync(mdFile, reportMarkdown(r));
}

/** Of those aware of an attendance's topic by the window's end: first heard before the gathering began, and after it (reported apart). */
function awareAround(awareness: TopicAwareness[], spec: AttendanceSpec, w: Window): { aware_before: number | null; aware_after: number | null } {
  const t = spec.topic ? awareness.find((x) => x.topic.name === spec.topic) : undefined;
  if (!t) return { aware_before: null, aware_after: null };
  const heard = t.agents.filter((x) => x.gameMs <= w.toGameMs);
  return { aware_before: heard.filter((x) => x.gameMs < spec.fromGameMs).length, aware_after: heard.filter((x) => x.gameMs >= spec.fromGameMs).length };
}
