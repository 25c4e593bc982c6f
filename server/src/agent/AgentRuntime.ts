// Runs the sim's OperationRequests: asynchronous cognition over the memory stream. It retrieves what
// the mind needs, asks the mind, writes memories, plans, conversations and relationships, and hands
// the outcome back to the sim as Inputs. The sim guarantees at most one operation per agent.
import type { AgentId, TownMap } from '../world/types';
import type { Persona } from '../world/persona';
import type { Embedder } from '../llm/types';
import type { ConversationRecord, EventInput, Memory, MemoryId, MemoryInput, MemoryKind, MemoryStore, RetrievalWeights, Triple } from '../store/types';
import type { DayPlan, Input, Observation, OperationRequest } from '../sim/types';
import type { ConversationLine, Mind, MindAgent, MindContext } from './mind';
import { rateImportanceHeuristically } from './offlineMind';
import { GAME_MS_PER_HOUR, minuteOfDay } from '../protocol/time';
import { findActionIndex } from '../sim/Simulation';

/** What the runtime reads of the sim: an agent's current action and plan. */
export interface SimView {
  agent(id: string): { current: { description: string; address: string }; plan: DayPlan | null } | undefined;
}

/** Where the runtime keeps what is not a memory. Implemented over the world's SQLite file. */
export interface RuntimeRecords {
  savePlan(agentId: AgentId, plan: DayPlan): void;
  saveConversation(record: ConversationRecord): void;
  touchRelationship(agentId: AgentId, otherId: AgentId, summary: string, gameMs: number): void;
  /** Id of the newest memory an agent's last reflection covered (0 when none), to resume the counter. */
  lastReflectedMemoryId(agentId: AgentId): number;
}

export interface RuntimeSettings {
  retrievalWeights: RetrievalWeights;
  decayPerGameHour: number;
  /** Summed importance of new memories that triggers a reflection (150 in the paper). */
  reflectionThreshold: number;
  /** Observations are rated in one batch once this many wait... */
  importanceBatchSize: number;
  /** ...or once the oldest has waited this long. */
  importanceBatchMaxGameMs: number;
  /** Observations at or above this importance (by the transparent heuristic) are rated and considered for a reaction at once. */
  reactImportance: number;
  maxConversationTurns: number;
}

export const DEFAULT_RUNTIME_SETTINGS: RuntimeSettings = {
  retrievalWeights: { recency: 0.5, importance: 2, relevance: 3 },
  decayPerGameHour: 0.995,
  reflectionThreshold: 150,
  importanceBatchSize: 10,
  importanceBatchMaxGameMs: GAME_MS_PER_HOUR,
  reactImportance: 6,
  maxConversationTurns: 8,
};

/** The offline mind rates importance for free: no reason to hold observations back. */
export const OFFLINE_RUNTIME_SETTINGS: Partial<RuntimeSettings> = { importanceBatchSize: 1 };

export interface AgentRuntimeDeps {
  map: TownMap;
  seed: number;
  personas: ReadonlyMap<string, Persona>;
  mind: Mind;
  memories: MemoryStore;
  embedder: Embedder;
  records: RuntimeRecords;
  sim: SimView;
  /** Receives event-log entries (memories made, reflections). */
  emit(events: EventInput[]): void;
  settings?: Partial<RuntimeSettings>;
  /** Called when an operation fails; the agent is freed and the run goes on. */
  onError?(request: OperationRequest, error: unknown): void;
}

interface PendingObservation {
  observation: Observation;
  gameMs: number;
}

export class AgentRuntime {
  readonly settings: RuntimeSettings;
  private readonly inbox: Input[] = [];
  private readonly running = new Set<Promise<unknown>>();
  private readonly startedAt = new Map<Promise<unknown>, number>();
  private readonly buffered = new Map<string, PendingObservation[]>();
  private readonly sinceReflection = new Map<string, number>();
  private readonly reflectedThrough = new Map<string, number>();

  constructor(private readonly deps: AgentRuntimeDeps) {
    this.settings = { ...DEFAULT_RUNTIME_SETTINGS, ...deps.settings };
    for (const id of deps.personas.keys()) this.resumeReflectionCounter(id as AgentId);
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** Live mode: runs the request in the background; its Inputs arrive through `drainInputs` as they come. */
  submit(request: OperationRequest): void {
    const p = this.run(request, (input) => this.inbox.push(input)).then(
      (inputs) => void this.inbox.push(...inputs),
      () => undefined,
    );
    this.running.add(p);
    this.startedAt.set(p, request.gameMs);
    void p.finally(() => {
      this.running.delete(p);
      this.startedAt.delete(p);
    });
  }

  /** Game time at which the oldest operation still in flight was asked for, or null. */
  oldestInFlightGameMs(): number | null {
    let oldest: number | null = null;
    for (const t of this.startedAt.values()) if (oldest === null || t < oldest) oldest = t;
    return oldest;
  }

  drainInputs(): Input[] {
    return this.inbox.splice(0, this.inbox.length);
  }

  /** Resolves when every submitted operation has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /**
   * Runs one operation. Inputs that should show at once (a conversation's lines) go to `stream`;
   * the rest are returned. Always ends with the Inputs that free the agents, even on failure.
   */
  async run(request: OperationRequest, stream?: (input: Input) => void): Promise<Input[]> {
    const out: Input[] = [];
    const send = stream ?? ((input: Input) => void out.push(input));
    try {
      switch (request.kind) {
        case 'plan':
          out.push(await this.plan(request.agentId, request.day, request.gameMs));
          break;
        case 'observe':
          out.push(...(await this.observe(request.agentId, request.observations, request.gameMs)));
          break;
        case 'converse':
          await this.converse(request.conversationId, request.initiator, request.partner, request.gameMs, send);
          break;
        default: {
          const never: never = request;
          throw new Error(`unknown operation ${JSON.stringify(never)}`);
        }
      }
    } catch (error) {
      this.deps.onError?.(request, error);
    }
    if (request.kind === 'converse') out.push({ kind: 'conversationEnd', conversationId: request.conversationId });
    else out.push({ kind: 'done', agentId: request.agentId });
    return out;
  }

  /** Writes the persona's seed memories, once, when a world is new. */
  async seed(agentId: AgentId, gameMs: number): Promise<void> {
    const persona = this.persona(agentId);
    const texts = [persona.currently, ...persona.seedMemories];
    const ctx = this.context(agentId, gameMs);
    const importance = await this.deps.mind.rateImportance(ctx, texts);
    await this.remember(agentId, texts.map((t, i) => ({ kind: 'observation' as const, description: t, importance: importance[i], gameMs })));
  }

  /** The operator's "inner voice": a memory written straight into one agent's stream. */
  async whisper(agentId: AgentId, text: string, gameMs: number): Promise<Memory> {
    const persona = this.persona(agentId);
    const importance = Math.max(rateImportanceHeuristically(text, persona), 6);
    const [id] = await this.remember(agentId, [{ kind: 'thought', description: text, importance, gameMs, triple: { subject: persona.name, predicate: 'was told', object: text } }]);
    return this.deps.memories.get(id)!;
  }

  /** An in-character answer from retrieved memories. Touches nothing: lastAccessed stays as it was. */
  async interview(agentId: AgentId, question: string, gameMs: number): Promise<{ answer: string; memories: Memory[] }> {
    const memories = await this.retrieve(agentId, question, gameMs, 8, false);
    const answer = await this.deps.mind.interview(this.context(agentId, gameMs), question, memories);
    return { answer, memories };
  }

  // ---- operations -----------------------------------------------------------------------------

  private async plan(agentId: AgentId, day: number, gameMs: number): Promise<Input> {
    const persona = this.persona(agentId);
    const memories = await this.retrieve(agentId, `${persona.name}'s plans, appointments and events for today`, gameMs, 12);
    const plan = await this.deps.mind.planDay(this.context(agentId, gameMs), day, memories);
    this.deps.records.savePlan(agentId, plan);
    await this.remember(agentId, [
      { kind: 'plan', description: `${persona.name}'s plan for the day: ${plan.broadStrokes.join(', ')}`, importance: 5, gameMs },
    ]);
    return { kind: 'plan', agentId, plan };
  }

  private async observe(agentId: AgentId, observations: Observation[], gameMs: number): Promise<Input[]> {
    const persona = this.persona(agentId);
    const buffer = this.buffered.get(agentId) ?? [];
    for (const observation of observations) buffer.push({ observation, gameMs });
    this.buffered.set(agentId, buffer);
    const urgent = observations.filter((o) => rateImportanceHeuristically(o.description, persona) >= this.settings.reactImportance);
    const due = buffer.length >= this.settings.importanceBatchSize || gameMs - buffer[0].gameMs >= this.settings.importanceBatchMaxGameMs || urgent.length > 0;
    if (!due) return [];
    this.buffered.set(agentId, []);
    const ctx = this.context(agentId, gameMs);
    const ratings = await this.storeObservations(agentId, buffer, gameMs);
    const inputs: Input[] = [];
    // No reaction to mundane observations: only the ones that matter reach the mind.
    const worth = buffer.filter((b, i) => ratings[i] >= this.settings.reactImportance && urgent.includes(b.observation));
    if (worth.length > 0) {
      const memories = await this.retrieve(agentId, worth.map((w) => w.observation.description).join(' '), gameMs, 6);
      const reaction = await this.deps.mind.react(ctx, worth.map((w) => w.observation), memories);
      if (reaction && reaction.actions.length > 0)
        inputs.push({ kind: 'replan', agentId, fromMinute: reaction.actions[0].startMinute, actions: reaction.actions, reason: reaction.reason });
    }
    await this.maybeReflect(agentId, gameMs);
    return inputs;
  }

  /** Rates a batch of observations in one call and stores them; returns the ratings. */
  private async storeObservations(agentId: AgentId, batch: PendingObservation[], gameMs: number): Promise<number[]> {
    const ratings = await this.deps.mind.rateImportance(this.context(agentId, gameMs), batch.map((b) => b.observation.description));
    await this.remember(
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

  /** Stores every observation still waiting for a batch (at shutdown, so none is lost). */
  async flushObservations(gameMs: number): Promise<void> {
    for (const [agentId, batch] of this.buffered) {
      if (batch.length === 0) continue;
      this.buffered.set(agentId, []);
      await this.storeObservations(agentId as AgentId, batch, gameMs);
    }
  }

  private async converse(conversationId: number, initiator: AgentId, partner: AgentId, gameMs: number, send: (input: Input) => void): Promise<void> {
    const people: [Persona, Persona] = [this.persona(initiator), this.persona(partner)];
    const lines: ConversationLine[] = [];
    const max = this.settings.maxConversationTurns;
    for (let turn = 0; turn < max; turn++) {
      const [speaker, listener] = turn % 2 === 0 ? people : [people[1], people[0]];
      const lastLine = lines.length ? lines[lines.length - 1].text : '';
      const memories = await this.retrieve(speaker.id, `${listener.name} ${lastLine}`, gameMs, 5);
      const news = this.news(speaker.id, gameMs);
      const reply = await this.deps.mind.converseTurn(this.context(speaker.id, gameMs), {
        partner: listener,
        relationship: speaker.relationships[listener.id] ?? null,
        memories,
        news,
        history: lines,
        turn,
        maxTurns: max,
      });
      const text = reply.text.trim();
      if (text) {
        lines.push({ speaker: speaker.id, speakerName: speaker.name, text });
        send({ kind: 'utterance', conversationId, speaker: speaker.id, text });
      }
      if (reply.end) break;
    }
    const summary = await this.deps.mind.summariseConversation(this.context(initiator, gameMs), people, lines);
    // Both participants remember at once: their importance ratings are independent calls.
    await Promise.all(
      [people, [people[1], people[0]] as const].map(async ([self, other]) => {
        const learned = summary.learned[self.id] ?? [];
        await this.remember(self.id, [
          { kind: 'chat', description: summary.summary, importance: 0, gameMs, triple: { subject: self.name, predicate: 'talked with', object: other.name } },
          ...learned.map((fact) => ({
            kind: 'chat' as const,
            description: `${fact} (heard from ${other.name})`,
            importance: 0,
            gameMs,
            triple: { subject: other.name, predicate: 'said', object: fact },
          })),
        ]);
        this.deps.records.touchRelationship(self.id, other.id, summary.summary, gameMs);
      }),
    );
    this.deps.records.saveConversation({
      id: conversationId,
      a: initiator,
      b: partner,
      startGameMs: gameMs,
      endGameMs: gameMs,
      summary: summary.summary,
      lines: lines.map((l) => ({ speaker: l.speaker as AgentId, text: l.text, gameMs })),
    });
    await Promise.all([this.maybeReflect(initiator, gameMs), this.maybeReflect(partner, gameMs)]);
  }

  private async maybeReflect(agentId: AgentId, gameMs: number): Promise<void> {
    if ((this.sinceReflection.get(agentId) ?? 0) < this.settings.reflectionThreshold) return;
    const persona = this.persona(agentId);
    const recent = this.deps.memories.recent(agentId, 100);
    this.sinceReflection.set(agentId, 0);
    this.reflectedThrough.set(agentId, recent[0]?.id ?? 0);
    const ctx = this.context(agentId, gameMs);
    const questions = (await this.deps.mind.reflectQuestions(ctx, recent)).slice(0, 3);
    // The questions are independent: their retrievals and insight calls run side by side, and the
    // insights are stored in question order, so the result does not depend on which answer comes first.
    const answered = await Promise.all(
      questions.map(async (question) => {
        const evidencePool = await this.retrieve(agentId, question, gameMs, 10);
        const insights = await this.deps.mind.reflectInsights(ctx, question, evidencePool);
        const known = new Set(evidencePool.map((m) => m.id));
        const valid = insights.filter((i) => i.text.trim() && i.evidence.length > 0 && i.evidence.every((id) => known.has(id)));
        const ratings = valid.length ? await this.deps.mind.rateImportance(ctx, valid.map((i) => i.text)) : [];
        return { question, valid, ratings };
      }),
    );
    for (const { question, valid, ratings } of answered) {
      if (valid.length === 0) continue;
      const ids = await this.remember(
        agentId,
        valid.map((insight, i) => ({ kind: 'thought' as const, description: insight.text, importance: ratings[i], gameMs, evidenceIds: insight.evidence })),
        // Insights can be reflected on too, but do not count toward the next reflection: that would loop.
        false,
      );
      this.deps.emit([{ gameMs, kind: 'reflection.made', agentId, data: { question, insights: valid.map((v, i) => ({ id: ids[i], text: v.text, evidence: v.evidence })), by: persona.name } }]);
    }
  }

  // ---- memory helpers -------------------------------------------------------------------------

  private async remember(
    agentId: AgentId,
    items: Array<{ kind: MemoryKind; description: string; importance: number; gameMs: number; triple?: Triple; evidenceIds?: MemoryId[] }>,
    countTowardReflection = true,
  ): Promise<MemoryId[]> {
    if (items.length === 0) return [];
    const persona = this.persona(agentId);
    const unrated = items.filter((i) => i.importance <= 0);
    if (unrated.length) {
      const ratings = await this.deps.mind.rateImportance(this.context(agentId, items[0].gameMs), unrated.map((u) => u.description));
      unrated.forEach((u, i) => (u.importance = ratings[i]));
    }
    const vectors = await this.deps.embedder.embed(items.map((i) => i.description));
    const inputs: MemoryInput[] = items.map((item, i) => ({
      agentId,
      kind: item.kind,
      description: item.description,
      createdGameMs: item.gameMs,
      importance: clampImportance(item.importance),
      triple: item.triple ?? null,
      evidenceIds: item.evidenceIds ?? [],
      embedding: vectors[i],
    }));
    const ids = this.deps.memories.add(inputs);
    if (countTowardReflection) {
      const sum = inputs.reduce((s, m) => s + m.importance, 0);
      this.sinceReflection.set(agentId, (this.sinceReflection.get(agentId) ?? 0) + sum);
    }
    this.deps.emit(
      inputs.map((m, i) => ({
        gameMs: m.createdGameMs,
        kind: 'memory.created' as const,
        agentId,
        data: { id: ids[i], kind: m.kind, description: m.description, importance: m.importance, evidence: m.evidenceIds, by: persona.name },
      })),
    );
    return ids;
  }

  private async retrieve(agentId: AgentId, query: string, gameMs: number, k: number, touch = true): Promise<Memory[]> {
    if (this.deps.memories.count(agentId) === 0) return [];
    const [vector] = await this.deps.embedder.embed([query]);
    return this.deps.memories
      .retrieve({ agentId, query: vector, nowGameMs: gameMs, k, weights: this.settings.retrievalWeights, decayPerGameHour: this.settings.decayPerGameHour, touch })
      .map((s) => s.memory);
  }

  /** What the agent might tell someone: its most important recent memories that are not plans. */
  private news(agentId: AgentId, gameMs: number): Memory[] {
    const horizon = gameMs - 48 * GAME_MS_PER_HOUR;
    return this.deps.memories
      .recent(agentId, 150, ['observation', 'chat', 'thought'])
      .filter((m) => m.importance >= 6 && m.createdGameMs >= horizon && m.triple?.predicate !== 'talked with')
      .sort((a, b) => b.importance - a.importance || b.id - a.id)
      .slice(0, 3);
  }

  private resumeReflectionCounter(agentId: AgentId): void {
    const through = this.deps.records.lastReflectedMemoryId(agentId);
    this.reflectedThrough.set(agentId, through);
    let sum = 0;
    for (const m of this.deps.memories.recent(agentId, 400)) {
      if (m.id <= through) break;
      if (m.kind !== 'thought') sum += m.importance;
    }
    this.sinceReflection.set(agentId, sum);
  }

  private persona(agentId: string): Persona {
    const persona = this.deps.personas.get(agentId);
    if (!persona) throw new Error(`no persona '${agentId}'`);
    return persona;
  }

  private context(agentId: string, gameMs: number): MindContext {
    const view = this.deps.sim.agent(agentId);
    // During a conversation the sim shows "talking with …"; the mind wants what the agent was doing.
    const planned = view?.plan ? view.plan.actions[findActionIndex(view.plan.actions, minuteOfDay(gameMs))] : undefined;
    const talking = view?.current.description.startsWith('talking with ') ?? false;
    const agent: MindAgent = {
      persona: this.persona(agentId),
      currentAction: talking && planned ? planned.description : (view?.current.description ?? 'idle'),
      currentPlace: view?.current.address ?? '',
      plan: view?.plan ?? null,
    };
    const names = new Map([...this.deps.personas.values()].map((p) => [p.id as string, p.name]));
    return { agent, map: this.deps.map, gameMs, seed: this.deps.seed, names };
  }
}

function clampImportance(value: number): number {
  return Number.isFinite(value) ? Math.max(1, Math.min(10, Math.round(value))) : 1;
}
