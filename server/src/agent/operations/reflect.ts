// Reflection, as in the paper: once the importance of new memories passes the threshold, the agent
// asks the 3 most salient questions about its ~100 most recent memories, retrieves memories for each,
// and writes insights that cite them.
import type { AgentId } from '../../protocol/ids';
import type { CognitionContext } from '../context';
import type { AgentMemory } from '../memory';

export async function maybeReflect(c: CognitionContext, memory: AgentMemory, agentId: AgentId, gameMs: number): Promise<void> {
  if (c.settings.ablation === 'no-reflection' || memory.pendingImportance(agentId) < c.settings.reflectionThreshold) return;
  const persona = c.persona(agentId);
  const recent = c.deps.memories.recent(agentId, 100);
  memory.resetReflectionCounter(agentId);
  const ctx = c.mindContext(agentId, gameMs);
  const questions = (await c.mind.reflectQuestions(ctx, recent)).slice(0, 3);
  // The questions are independent: their retrievals and insight calls run side by side, and the
  // insights are stored in question order, so the result does not depend on which answer comes first.
  const answered = await Promise.all(
    questions.map(async (question) => {
      const evidencePool = await memory.retrieve(agentId, question, gameMs, 10);
      const insights = await c.mind.reflectInsights(ctx, question, evidencePool);
      const known = new Set(evidencePool.map((m) => m.id));
      const valid = insights.filter((i) => i.text.trim() && i.evidence.length > 0 && i.evidence.every((id) => known.has(id)));
      const ratings = valid.length
        ? await c.mind.rateImportance(
            ctx,
            valid.map((i) => i.text),
          )
        : [];
      return { question, valid, ratings };
    }),
  );
  for (const { question, valid, ratings } of answered) {
    if (valid.length === 0) continue;
    const ids = await memory.remember(
      agentId,
      valid.map((insight, i) => ({ kind: 'thought' as const, description: insight.text, importance: ratings[i], gameMs, evidenceIds: insight.evidence })),
      // Insights can be reflected on too, but do not count toward the next reflection: that would loop.
      false,
    );
    const insights = valid.map((v, i) => ({ id: ids[i], text: v.text, evidence: v.evidence }));
    c.deps.emit([{ gameMs, kind: 'reflection.made', agentId, data: { question, insights, by: persona.name } }]);
  }
}
