// The inspector's view of one agent, built the same way for the live town and for a replayed moment:
// the callers gather what the agent held then, this shapes it.
import type { AgentInspection, InspectedMemory, InspectedRelationship } from '../protocol/inspection';
import type { PersonaRecord } from '../protocol/events';
import { findActionIndex, planOfKept, type PlannedAction } from '../protocol/plan';
import { ownClockGameMs } from '../protocol/lateness';
import { planMomentAt } from '../world/clockText';
import type { AgentSimState } from '../sim/types';
import type { Memory, ScoredMemory } from '../store/types';
import type { CallSummary, WorldDb } from '../store/WorldDb';
import type { AgentId } from '../protocol/ids';

/** The most shown on each shelf of thoughts. */
const SHELF_SIZE = 20;
/** Thoughts read for the two shelves. */
export const RECENT_THOUGHTS = 60;

export interface InspectionInput {
  agent: Readonly<AgentSimState>;
  /** What the persona file said (as recorded then, in replay), its `currently` the status as revised by then; null when unknown. */
  persona: PersonaRecord | null;
  atGameMs: number;
  /** Memories scored for the agent's focus (its current action). */
  scored: ScoredMemory[];
  recent: Memory[];
  /** The agent's recent thoughts: those citing evidence are reflections, the others were whispered. */
  thoughts: Memory[];
  evidenceOf(id: number): Memory | undefined;
  relationships: InspectedRelationship[];
  conversations: AgentInspection['conversations'];
  llm: Pick<CallSummary, 'calls' | 'promptTokens' | 'completionTokens' | 'costUsd'> & { help?: AgentInspection['llm']['help'] };
}

/**
 * Everyone the agent has a view of: each relationship as last revised by a talk, then the persona
 * file's lines for those it has not talked with yet; most talked-with first.
 */
export function mergeRelationships(fromPersona: Record<string, string> | undefined, revised: InspectedRelationship[]): InspectedRelationship[] {
  const out = new Map(revised.map((r) => [r.otherId, r]));
  for (const [otherId, summary] of Object.entries(fromPersona ?? {}))
    if (!out.has(otherId)) out.set(otherId, { otherId, summary, interactions: 0, lastGameMs: null });
  return [...out.values()].sort((a, b) => b.interactions - a.interactions || a.otherId.localeCompare(b.otherId));
}

/**
 * The plan step the agent is doing, from the same state as the action it shows: the step in force when it took up its
 * current action. The sim takes a step up at its first tick past the step's minute on the agent's own clock, so between
 * that minute and the tick (a moment a replay can stop at) the clock alone names the next step while the agent still
 * does the last one. The clock's step when the action is none of the plan's (getting ready, a plan re-made since).
 */
function stepInForce(agent: Readonly<AgentSimState>, actions: readonly PlannedAction[], atGameMs: number): number {
  const { id, wakeMinute, sleepMinute } = agent.spec;
  const at = (gameMs: number) => findActionIndex(actions, planMomentAt(ownClockGameMs(id, gameMs), wakeMinute, sleepMinute).minute);
  const taken = at(agent.current.startGameMs);
  return taken >= 0 && actions[taken].description === agent.current.description ? taken : at(atGameMs);
}

export function buildInspection(input: InspectionInput): AgentInspection {
  const { agent, persona, atGameMs } = input;
  const scoreById = new Map(input.scored.map((s) => [s.memory.id, s]));
  const toView = (m: Memory): InspectedMemory => {
    const s = scoreById.get(m.id);
    return {
      id: m.id,
      kind: m.kind,
      description: m.description,
      createdGameMs: m.createdGameMs,
      importance: m.importance,
      evidenceIds: m.evidenceIds,
      scores: s ? { recency: s.recency, importance: s.importance, relevance: s.relevance, total: s.score } : null,
    };
  };
  const plan = agent.plan && planOfKept(agent.plan);
  const { calls, promptTokens, completionTokens, costUsd, help } = input.llm;
  return {
    id: agent.spec.id,
    name: persona?.name ?? agent.spec.name,
    age: persona?.age ?? 0,
    innate: persona?.innate ?? [],
    learned: persona?.learned ?? '',
    currently: persona?.currently ?? '',
    lifestyle: persona?.lifestyle ?? '',
    home: persona?.home ?? '',
    workplace: persona?.workplace ?? null,
    atGameMs,
    action: { description: agent.current.description, emoji: agent.current.emoji, place: agent.current.address, since: agent.current.startGameMs },
    asleep: agent.asleep,
    plan: plan
      ? {
          day: plan.day,
          broadStrokes: plan.broadStrokes,
          actions: plan.actions,
          currentIndex: stepInForce(agent, plan.actions, atGameMs),
        }
      : null,
    focus: agent.current.description,
    relevant: input.scored.map((s) => toView(s.memory)),
    recent: input.recent.map(toView),
    // Thoughts on two shelves: reflections cite the memories they rest on (their evidence, one click away
    // in the inspector); a thought with no evidence came from outside, whispered by an operator.
    reflections: input.thoughts
      .filter((m) => m.evidenceIds.length > 0)
      .slice(0, SHELF_SIZE)
      .map((m) => ({
        ...toView(m),
        evidence: m.evidenceIds
          .map((e) => input.evidenceOf(e))
          .filter((e) => e !== undefined)
          .map((e) => ({ id: e.id, description: e.description })),
      })),
    whispers: input.thoughts
      .filter((m) => m.evidenceIds.length === 0)
      .slice(0, SHELF_SIZE)
      .map(toView),
    relationships: mergeRelationships(persona?.relationships, input.relationships),
    conversations: input.conversations,
    llm: { calls, promptTokens, completionTokens, costUsd, ...(help ? { help } : {}) },
  };
}

/**
 * What an agent thought of the others at a moment: the last `relationship.revised` of each pair by then.
 * A world recorded before those events has only its conversations: their count, and the last summary.
 */
export function relationshipsAt(
  db: Pick<WorldDb, 'events'>,
  agentId: AgentId,
  t: number,
  talks: Array<{ a: string; b: string; startGameMs: number; summary: string }>,
): InspectedRelationship[] {
  const revised = new Map<string, InspectedRelationship>();
  for (const e of db.events.scan({ kinds: ['relationship.revised'], agentId, untilGameMs: t }))
    if (e.kind === 'relationship.revised')
      revised.set(e.data.otherId, { otherId: e.data.otherId, summary: e.data.summary, interactions: e.data.interactions, lastGameMs: e.gameMs });
  if (revised.size > 0) return [...revised.values()];
  const fromTalks = new Map<string, InspectedRelationship>();
  for (const c of talks) {
    const other = c.a === agentId ? c.b : c.a;
    const r = fromTalks.get(other) ?? { otherId: other, summary: c.summary, interactions: 0, lastGameMs: c.startGameMs };
    r.interactions++;
    fromTalks.set(other, r);
  }
  return [...fromTalks.values()];
}
