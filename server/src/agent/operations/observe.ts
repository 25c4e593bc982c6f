// Observations: buffered per agent and appraised in one batch (ten at a time for an LLM; at once for a
// world event or when someone the agent could talk to is in view). The one call that rates their
// importance also says whether to react and whom of the people in view to start talking with, so
// neither decision costs a call of its own. Then the observations are stored as memories, a reaction
// may change the plan, a decision to talk goes back to the sim, and the agent may reflect.
import type { AgentId } from '../../protocol/ids';
import type { Input, Observation } from '../../sim/types';
import type { CognitionContext } from '../context';
import type { AgentMemory } from '../memory';
import type { Acquaintance } from '../mind';
import { maybeReflect } from './reflect';
import { LlmAbortedError } from '../../llm/errors';
import { rateImportanceHeuristically } from '../offlineImportance';
import { ACQUAINTED_TALK_PAUSE_GAME_MS } from '../../sim/constants';

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

  /**
   * Appraises (when due) and stores the observations; `send` gets the Inputs for the sim (a decision to
   * talk, a re-plan) and `release` is called once the sim need not wait any longer (before reflecting).
   */
  async observe(
    agentId: AgentId,
    observations: Observation[],
    company: readonly AgentId[],
    gameMs: number,
    send: (input: Input) => void,
    release: () => void,
  ): Promise<void> {
    const { settings } = this.c;
    const buffer = this.buffered.get(agentId) ?? [];
    for (const observation of observations) buffer.push({ observation, gameMs });
    this.buffered.set(agentId, buffer);
    const townEvent = observations.some((o) => o.subject === 'the town');
    const due =
      buffer.length >= settings.importanceBatchSize || gameMs - buffer[0].gameMs >= settings.importanceBatchMaxGameMs || townEvent || company.length > 0;
    if (!due) return;
    this.buffered.set(agentId, []);
    const ctx = this.c.mindContext(agentId, gameMs);
    const remembers = settings.ablation !== 'no-observation';
    // Ablated observation: what the agent perceives reaches none of its cognition. It does not remember it,
    // does not react to it, and does not notice who is near enough to talk to (the paper's agents start a
    // conversation on perceiving the other), so it starts none; it still answers when spoken to.
    // Someone it knows is talked with only ACQUAINTED_TALK_PAUSE_GAME_MS after its last talk; a stranger may be greeted sooner.
    const lastTalkEnd = this.c.deps.sim.agent(agentId)?.lastConversationEndGameMs ?? -Infinity;
    const paused = gameMs - lastTalkEnd < ACQUAINTED_TALK_PAUSE_GAME_MS;
    const acquaintances = remembers ? company.flatMap((id) => this.acquaintance(agentId, id, gameMs, paused) ?? []) : [];
    const appraisal = await this.c.mind.appraise(
      ctx,
      buffer.map((b) => b.observation),
      acquaintances,
    );
    if (remembers) await this.store(agentId, buffer, appraisal.ratings);
    const chosen = acquaintances.find((a) => a.persona.id === appraisal.talkTo);
    if (chosen)
      send({ kind: 'talk', agentId, partnerId: chosen.persona.id, basis: chosen.relationship ? 'acquainted' : chosen.news.length ? 'news' : 'stranger' });
    // Reacting re-plans, so it needs both observation and planning.
    if (appraisal.react && remembers && settings.ablation !== 'no-planning') {
      const worth = buffer.filter((_, i) => (appraisal.ratings[i] ?? 0) >= Math.max(...appraisal.ratings)).map((b) => b.observation);
      const memories = await this.memory.retrieve(agentId, worth.map((o) => o.description).join(' '), gameMs, 6);
      const reaction = await this.c.mind.react(this.c.mindContext(agentId, gameMs), worth, memories);
      if (reaction && reaction.actions.length > 0)
        send({ kind: 'replan', agentId, fromMinute: reaction.actions[0].startMinute, actions: reaction.actions, reason: reaction.reason });
    }
    release();
    await maybeReflect(this.c, this.memory, agentId, gameMs);
  }

  /** Stores every observation still waiting for a batch (at shutdown, so none is lost). */
  async flush(gameMs: number): Promise<void> {
    for (const [agentId, batch] of this.buffered) {
      if (batch.length === 0) continue;
      this.buffered.set(agentId, []);
      if (this.c.settings.ablation === 'no-observation') continue;
      const descriptions = batch.map((b) => b.observation.description);
      const persona = this.c.deps.personas.get(agentId);
      // Flushed as the town closes, its LLM calls stopped: the observations are kept, rated by the offline rules.
      const ratings = await this.c.mind.rateImportance(this.c.mindContext(agentId, gameMs), descriptions).catch((error: unknown) => {
        if (!(error instanceof LlmAbortedError)) throw error;
        return descriptions.map((d) => rateImportanceHeuristically(d, persona));
      });
      await this.store(agentId as AgentId, batch, ratings);
    }
  }

  /**
   * What the agent knows of someone in view: what it thinks of them, their talks, and news it could tell them; null for
   * someone it knows when `strangersOnly` (its news for them is not looked up).
   */
  private acquaintance(agentId: AgentId, otherId: AgentId, gameMs: number, strangersOnly: boolean): Acquaintance | null {
    const row = this.c.deps.records.relationshipsOf(agentId).find((r) => r.otherId === otherId);
    const relationship = this.c.relationshipsOf(agentId).get(otherId) ?? null;
    const conversations = row?.interactions ?? 0;
    if (strangersOnly && (relationship !== null || conversations > 0)) return null;
    const persona = this.c.persona(otherId);
    return { persona, relationship, conversations, lastTalkedGameMs: row?.lastGameMs ?? null, news: this.memory.news(agentId, gameMs, persona) };
  }

  private async store(agentId: AgentId, batch: PendingObservation[], ratings: number[]): Promise<void> {
    await this.memory.remember(
      agentId,
      batch.map((b, i) => ({
        kind: 'observation' as const,
        description: b.observation.description,
        importance: ratings[i] ?? 1,
        gameMs: b.gameMs,
        triple: { subject: b.observation.subject, predicate: b.observation.predicate, object: b.observation.object },
      })),
    );
  }
}
