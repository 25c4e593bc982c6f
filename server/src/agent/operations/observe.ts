// Observations: buffered per agent and rated in one batch (ten at a time for an LLM; a world event is
// rated at once); stored as memories; those the mind rates as mattering are considered for a
// reaction, which may change the plan; then the agent may reflect.
import type { AgentId } from '../../protocol/ids';
import type { Input, Observation } from '../../sim/types';
import type { CognitionContext } from '../context';
import type { AgentMemory } from '../memory';
import { maybeReflect } from './reflect';

interface PendingObservation {
  observation: Observation;
  gameMs: number;
}

export class Observer {
  private readonly buffered = new Map<string, PendingObservation[]>();

  constructor(
    private readonly c: CognitionContext,
    private readonly memory: AgentMemory,
  ) {}

  async observe(agentId: AgentId, observations: Observation[], gameMs: number): Promise<Input[]> {
    const { settings } = this.c;
    const buffer = this.buffered.get(agentId) ?? [];
    for (const observation of observations) buffer.push({ observation, gameMs });
    this.buffered.set(agentId, buffer);
    const townEvent = observations.some((o) => o.subject === 'the town');
    const due = buffer.length >= settings.importanceBatchSize || gameMs - buffer[0].gameMs >= settings.importanceBatchMaxGameMs || townEvent;
    if (!due) return [];
    this.buffered.set(agentId, []);
    const ratings = await this.store(agentId, buffer, gameMs);
    const inputs: Input[] = [];
    // No reaction to mundane observations: only the ones that matter reach the mind.
    const worth = buffer.filter((_, i) => ratings[i] >= settings.reactImportance);
    if (worth.length > 0) {
      const memories = await this.memory.retrieve(agentId, worth.map((w) => w.observation.description).join(' '), gameMs, 6);
      const reaction = await this.c.mind.react(this.c.mindContext(agentId, gameMs), worth.map((w) => w.observation), memories);
      if (reaction && reaction.actions.length > 0)
        inputs.push({ kind: 'replan', agentId, fromMinute: reaction.actions[0].startMinute, actions: reaction.actions, reason: reaction.reason });
    }
    await maybeReflect(this.c, this.memory, agentId, gameMs);
    return inputs;
  }

  /** Stores every observation still waiting for a batch (at shutdown, so none is lost). */
  async flush(gameMs: number): Promise<void> {
    for (const [agentId, batch] of this.buffered) {
      if (batch.length === 0) continue;
      this.buffered.set(agentId, []);
      await this.store(agentId as AgentId, batch, gameMs);
    }
  }

  /** Rates a batch of observations in one call and stores them; returns the ratings. */
  private async store(agentId: AgentId, batch: PendingObservation[], gameMs: number): Promise<number[]> {
    const ratings = await this.c.mind.rateImportance(this.c.mindContext(agentId, gameMs), batch.map((b) => b.observation.description));
    await this.memory.remember(
      agentId,
      batch.map((b, i) => ({
        kind: 'observation' as const,
        description: b.observation.description,
        importance: ratings[i],
        gameMs: b.gameMs,
        triple: { subject: b.observation.subject, predicate: b.observation.predicate, object: b.observation.object },
      })),
    );
    return ratings;
  }
}
