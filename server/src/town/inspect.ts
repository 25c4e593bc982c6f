// Everything the inspector shows about one agent. Read-only: retrieval here does not touch lastAccessed.
import type { AgentInspection, InspectedMemory } from '../protocol/inspection';
import { findActionIndex } from '../protocol/plan';
import { minuteOfDay } from '../protocol/time';
import type { AgentId } from '../protocol/ids';
import type { Memory } from '../store/types';
import type { Town } from './Town';

export async function inspectAgent(town: Town, agentId: string): Promise<AgentInspection | { id: string; error: string }> {
  const agent = town.sim.agent(agentId);
  const persona = town.personas.get(agentId);
  if (!agent || !persona) return { id: agentId, error: `no agent '${agentId}'` };
  const id = agentId as AgentId;
  const now = town.clock.gameMs;
  const settings = town.runtime.settings;
  const [focus] = await town.embedder.embed([agent.current.description]);
  const scored = town.db.memories.count(id)
    ? town.db.memories.retrieve({ agentId: id, query: focus, nowGameMs: now, k: 30, weights: settings.retrievalWeights, decayPerGameHour: settings.decayPerGameHour, touch: false })
    : [];
  const scoreById = new Map(scored.map((s) => [s.memory.id, s]));
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
    atGameMs: now,
    action: { description: agent.current.description, emoji: agent.current.emoji, place: agent.current.address, since: agent.current.startGameMs },
    asleep: agent.asleep,
    plan: plan ? { day: plan.day, broadStrokes: plan.broadStrokes, actions: plan.actions, currentIndex: findActionIndex(plan.actions, minuteOfDay(now)) } : null,
    focus: agent.current.description,
    relevant: scored.map((s) => toView(s.memory)),
    recent: town.db.memories.recent(id, 30).map(toView),
    reflections,
    relationships: town.db.relationshipsOf(id),
    conversations: town.db.conversationsOf(id, 10),
    llm: town.db.summariseCalls({ agentId: id }),
  };
}
