// What every operation shares: the dependencies, the settings, and the MindContext of an agent now.
import type { AgentId } from '../protocol/ids';
import type { TownMap } from '../world/types';
import type { Persona } from '../world/persona';
import type { Embedder } from '../llm/types';
import type { ConversationRecord, MemoryStore, RetrievalWeights } from '../store/types';
import type { EventInput } from '../protocol/events';
import { findActionIndex, type DayPlan } from '../protocol/plan';
import { GAME_MS_PER_HOUR } from '../protocol/time';
import { planMomentAt } from '../world/clockText';
import type { OperationRequest } from '../sim/types';
import type { Mind, MindAgent, MindContext } from './mind';

/** What the runtime reads of the sim: an agent's current action, plan and conversation. */
export interface SimView {
  agent(id: string):
    | { spec: { wakeMinute: number; sleepMinute: number }; current: { description: string; address: string }; plan: DayPlan | null; conversationId: number | null }
    | undefined;
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
  /** ...or once the oldest has waited this long (a world event is rated at once). */
  importanceBatchMaxGameMs: number;
  /** Observations the mind rates at or above this are considered for a reaction. */
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

export class CognitionContext {
  readonly settings: RuntimeSettings;

  constructor(readonly deps: AgentRuntimeDeps) {
    this.settings = { ...DEFAULT_RUNTIME_SETTINGS, ...deps.settings };
  }

  get mind(): Mind {
    return this.deps.mind;
  }

  persona(agentId: string): Persona {
    const persona = this.deps.personas.get(agentId);
    if (!persona) throw new Error(`no persona '${agentId}'`);
    return persona;
  }

  mindContext(agentId: string, gameMs: number): MindContext {
    const view = this.deps.sim.agent(agentId);
    // During a conversation the sim shows "talking with …"; the mind wants what the agent was doing.
    const planned = view?.plan ? view.plan.actions[findActionIndex(view.plan.actions, planMomentAt(gameMs, view.spec.wakeMinute, view.spec.sleepMinute).minute)] : undefined;
    const talking = view?.conversationId !== null && view?.conversationId !== undefined;
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
