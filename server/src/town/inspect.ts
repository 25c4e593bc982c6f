// Everything the inspector shows about one agent now. Read-only: retrieval here does not touch lastAccessed.
import type { AgentInspection } from '../protocol/inspection';
import type { AgentId } from '../protocol/ids';
import { buildInspection, RECENT_THOUGHTS } from '../history/inspection';
import type { Town } from './Town';
import { personaRecord } from './residents';

export async function inspectAgent(town: Town, agentId: string): Promise<AgentInspection | { id: string; error: string }> {
  const agent = town.sim.agent(agentId);
  const persona = town.personas.get(agentId);
  if (!agent || !persona) return { id: agentId, error: `no agent '${agentId}'` };
  const id = agentId as AgentId;
  const { db } = town;
  const now = town.clock.gameMs;
  const settings = town.runtime.settings;
  const [focus] = await town.embedder.embed([agent.current.description]);
  const scored = db.memories.count(id)
    ? db.memories.retrieve({
        agentId: id,
        query: focus,
        nowGameMs: now,
        k: 30,
        weights: settings.retrievalWeights,
        decayPerGameHour: settings.decayPerGameHour,
        touch: false,
      })
    : [];
  const inspection = buildInspection({
    agent,
    persona: { ...personaRecord(persona), currently: town.runtime.statusOf(id) },
    atGameMs: now,
    scored,
    recent: db.memories.recent(id, 30),
    thoughts: db.memories.recent(id, RECENT_THOUGHTS, ['thought']),
    evidenceOf: (memoryId) => db.memories.get(memoryId),
    relationships: db.relationshipsOf(id),
    conversations: db.conversationsOf(id, 10),
    llm: { ...db.summariseCalls({ agentId: id }), help: db.llmHelpOf(id) },
  });
  // The town's endpoints, with several: what serves this agent's calls, and how it is doing.
  const endpoints = town.stack?.endpoints?.();
  if (endpoints) inspection.llm.endpoints = endpoints;
  const model = town.stack?.embedded?.();
  if (model) inspection.llm.model = model;
  return inspection;
}
