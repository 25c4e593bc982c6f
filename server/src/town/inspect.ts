// Everything the inspector shows about one agent. Read-only: retrieval here does not touch lastAccessed.
import type { Town } from './Town';
import { findActionIndex } from '../sim/Simulation';
import { minuteOfDay } from '../protocol/time';
import type { AgentId } from '../world/types';

export interface InspectedMemory {
  id: number;
  kind: string;
  description: string;
  createdGameMs: number;
  importance: number;
  evidenceIds: number[];
  scores: { recency: number; importance: number; relevance: number; total: number } | null;
}

export async function inspectAgent(town: Town, agentId: string): Promise<Record<string, unknown>> {
  const agent = town.sim.agent(agentId);
  const persona = town.personas.get(agentId);
  if (!agent || !persona) return { error: `no agent '${agentId}'` };
  const id = agentId as AgentId;
  const settings = town.runtime.settings;
  const [focus] = await town.parts.embedder.embed([agent.current.description]);
  const scored = town.db.memories.count(id)
    ? town.db.memories.retrieve({ agentId: id, query: focus, nowGameMs: town.clock.gameMs, k: 30, weights: settings.retrievalWeights, decayPerGameHour: settings.decayPerGameHour, touch: false })
    : [];
  const scoreById = new Map(scored.map((s) => [s.memory.id, s]));
  const toView = (m: { id: number; kind: string; description: string; createdGameMs: number; importance: number; evidenceIds: number[] }): InspectedMemory => {
    const s = scoreById.get(m.id);
    return { id: m.id, kind: m.kind, description: m.description, createdGameMs: m.createdGameMs, importance: m.importance, evidenceIds: m.evidenceIds, scores: s ? { recency: s.recency, importance: s.importance, relevance: s.relevance, total: s.score } : null };
  };
  const recent = town.db.memories.recent(id, 30).map(toView);
  // Reflections carry their evidence, one click away in the inspector.
  const reflections = town.db.memories.recent(id, 20, ['thought']).map((m) => ({
    ...toView(m),
    evidence: m.evidenceIds.map((e) => town.db.memories.get(e)).filter((e) => e !== undefined).map((e) => ({ id: e.id, description: e.description })),
  }));
  const plan = agent.plan;
  return {
    id: agentId,
    name: persona.name,
    age: persona.age,
    innate: persona.innate,
    learned: persona.learned,
    currently: persona.currently,
    lifestyle: persona.lifestyle,
    home: persona.home,
    workplace: persona.workplace,
    action: { description: agent.current.description, emoji: agent.current.emoji, place: agent.current.address, since: agent.current.startGameMs },
    asleep: agent.asleep,
    plan: plan ? { day: plan.day, broadStrokes: plan.broadStrokes, actions: plan.actions, currentIndex: findActionIndex(plan.actions, minuteOfDay(town.clock.gameMs)) } : null,
    focus: agent.current.description,
    relevant: scored.map((s) => toView(s.memory)),
    recent,
    reflections,
    relationships: town.db.relationshipsOf(id),
    conversations: town.db.conversationsOf(id, 10),
    llm: town.db.summariseCalls({ agentId: id }),
  };
}
