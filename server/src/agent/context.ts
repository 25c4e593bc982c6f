// What every operation shares: the dependencies, the settings, and the MindContext of an agent now.
import { statedPronouns, type Pronouns } from './grammar';
import type { AgentId } from '../protocol/ids';
import type { TownMap } from '../world/types';
import { PersonaMap, type Persona } from '../world/persona';
import type { Embedder } from '../llm/types';
import type { Ablation, ConversationMode } from '../config';
import type { ConversationRecord, MemoryStore, RetrievalWeights } from '../store/types';
import type { EventInput } from '../protocol/events';
import { findKeptIndex, keptAction, planOfKept, type DayPlan, type KeptPlan, type PlanOfActions } from '../protocol/plan';
import { GAME_MS_PER_HOUR } from '../protocol/time';
import { planMomentAt } from '../world/clockText';
import type { OperationRequest } from '../sim/types';
import type { Mind, MindAgent, MindContext } from './mind';
import type { SocialDecision } from './socialModel';
import { hauntsOf, type Haunt } from './outings';

/** What the runtime reads of the sim: an agent's current action, plan and conversation. */
export interface SimView {
  agent(id: string):
    | {
        spec: { wakeMinute: number; sleepMinute: number };
        current: { description: string; address: string };
        plan: KeptPlan | null;
        conversationId: number | null;
        /** When its last conversation ended (game ms). */
        lastConversationEndGameMs?: number;
      }
    | undefined;
}

/** What one agent thinks of another, as revised by their conversations. */
export interface RelationshipRecord {
  otherId: string;
  summary: string;
  /** Conversations they have had. */
  interactions: number;
  lastGameMs: number;
}

/** Where the runtime keeps what is not a memory. Implemented over the world's SQLite file. */
export interface RuntimeRecords {
  savePlan(agentId: AgentId, plan: DayPlan): void;
  saveConversation(record: ConversationRecord): void;
  /** Replaces what `agentId` thinks of `otherId` after a conversation; returns the record as it now is. */
  reviseRelationship(agentId: AgentId, otherId: AgentId, summary: string, gameMs: number): RelationshipRecord;
  relationshipsOf(agentId: AgentId): RelationshipRecord[];
  /** Id of the newest memory an agent's last reflection covered (0 when none), to resume the counter. */
  lastReflectedMemoryId(agentId: AgentId): number;
  /** The agent's status as last revised, or null while it is the persona file's `currently`. */
  statusOf(agentId: AgentId): string | null;
  /** Every agent's status as last revised (those revised only), read at once; without it, statusOf is asked per agent. */
  statuses?(): ReadonlyMap<string, string>;
}

export interface RuntimeSettings {
  retrievalWeights: RetrievalWeights;
  decayPerGameHour: number;
  /** Summed importance of new memories that triggers a reflection (150 in the paper). */
  reflectionThreshold: number;
  /** Observations are rated in one batch once this many wait... */
  importanceBatchSize: number;
  /** ...or once the oldest has waited this long (a world event, or someone to talk to in view, is rated at once). */
  importanceBatchMaxGameMs: number;
  maxConversationTurns: number;
  /** The paper's ablations: observation, planning or reflection turned off. */
  ablation: Ablation;
  /** Turn by turn (one call a line) or a whole conversation in one call. */
  conversationMode: ConversationMode;
}

export const DEFAULT_RUNTIME_SETTINGS: RuntimeSettings = {
  // The reference code's weights (recency 0.5, importance 2, relevance 3); the paper itself weighs all three 1.
  retrievalWeights: { recency: 0.5, importance: 2, relevance: 3 },
  decayPerGameHour: 0.995,
  reflectionThreshold: 150,
  importanceBatchSize: 10,
  importanceBatchMaxGameMs: GAME_MS_PER_HOUR,
  maxConversationTurns: 8,
  ablation: 'none',
  conversationMode: 'turns',
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
  /** Receives event-log entries (memories made, reflections, relationships and statuses revised). */
  emit(events: EventInput[]): void;
  settings?: Partial<RuntimeSettings>;
  /** Called when an operation fails; the agent is freed and the run goes on. */
  onError?(request: OperationRequest, error: unknown): void;
}

export class CognitionContext {
  readonly settings: RuntimeSettings;
  private readonly statuses = new Map<string, string>();
  private everyoneCache: {
    version: number;
    names: ReadonlyMap<string, string>;
    pronouns: ReadonlyMap<string, Pronouns>;
    households: ReadonlyMap<string, string[]>;
    haunts: readonly Haunt[];
  } | null = null;
  /** Decisions logged lately (see logDecision). */
  private readonly decided = new Set<string>();

  constructor(readonly deps: AgentRuntimeDeps) {
    this.settings = { ...DEFAULT_RUNTIME_SETTINGS, ...deps.settings };
    const all = deps.records.statuses?.();
    for (const id of deps.personas.keys()) {
      const status = all ? (all.get(id) ?? null) : deps.records.statusOf(id as AgentId);
      if (status !== null) this.statuses.set(id, status);
    }
  }

  get mind(): Mind {
    return this.deps.mind;
  }

  /** The persona as the agent is now: its `currently` is the status as last revised. */
  persona(agentId: string): Persona {
    const persona = this.deps.personas.get(agentId);
    if (!persona) throw new Error(`no persona '${agentId}'`);
    const status = this.statuses.get(agentId);
    return status === undefined ? persona : { ...persona, currently: status };
  }

  /** An agent renamed (town/commands.ts): its revised status goes with it. */
  renameAgent(from: string, to: string): void {
    const status = this.statuses.get(from);
    this.statuses.delete(from);
    if (status !== undefined) this.statuses.set(to, status);
  }

  /** The agent's status now (the persona file's `currently` until the first revision). */
  status(agentId: string): string {
    return this.persona(agentId).currently;
  }

  /** A new status for the agent, logged as `status.revised`. */
  reviseStatus(agentId: AgentId, currently: string, day: number, gameMs: number): void {
    this.statuses.set(agentId, currently);
    this.deps.emit([{ gameMs, kind: 'status.revised', agentId, data: { day, currently } }]);
  }

  /** What the agent thinks of everyone it knows: revised relationships over the persona file's lines. */
  relationshipsOf(agentId: AgentId): Map<string, string> {
    // Ablated: everyone is a stranger (no persona lines, nothing kept from past talks).
    if (this.settings.ablation === 'no-relationships') return new Map();
    const me = this.persona(agentId);
    const out = new Map(Object.entries(me.relationships));
    // Residents who share a home know each other (the household, from the personas' homes on the map),
    // whatever their files say: a line the persona file or a talk may refine.
    for (const id of this.everyone().households.get(me.home) ?? []) {
      if (id === agentId || out.has(id)) continue;
      const other = this.deps.personas.get(id);
      if (other) out.set(id, householdLine(other, me));
    }
    for (const r of this.deps.records.relationshipsOf(agentId)) out.set(r.otherId, r.summary);
    return out;
  }

  mindContext(agentId: string, gameMs: number): MindContext {
    const view = this.deps.sim.agent(agentId);
    // During a conversation the sim shows "talking with …"; the mind wants what the agent was doing.
    const kept = view?.plan ?? null;
    const plannedIndex = view && kept ? findKeptIndex(kept, planMomentAt(gameMs, view.spec.wakeMinute, view.spec.sleepMinute).minute) : -1;
    const planned = kept && plannedIndex >= 0 ? keptAction(kept, plannedIndex) : undefined;
    let plan: PlanOfActions | undefined;
    const talking = view?.conversationId !== null && view?.conversationId !== undefined;
    const agent: MindAgent = {
      persona: this.persona(agentId),
      currentAction: talking && planned ? planned.description : (view?.current.description ?? 'idle'),
      currentPlace: view?.current.address ?? '',
      // Its actions as objects only when a mind reads them (a reaction, an interview), once for the context.
      get plan(): PlanOfActions | null {
        if (kept && plan === undefined) plan = planOfKept(kept);
        return plan ?? null;
      },
    };
    const { names, pronouns, haunts } = this.everyone();
    const decide = (d: SocialDecision) => this.logDecision(agentId as AgentId, gameMs, d);
    return {
      agent,
      map: this.deps.map,
      gameMs,
      seed: this.deps.seed,
      names,
      pronouns,
      haunts,
      relationships: this.relationshipsOf(agentId as AgentId),
      decide,
    };
  }

  /** Everyone's name by id, stated pronouns by name, households and the town's haunts: kept while a PersonaMap is unchanged, else made anew. */
  everyone(): {
    names: ReadonlyMap<string, string>;
    pronouns: ReadonlyMap<string, Pronouns>;
    households: ReadonlyMap<string, string[]>;
    haunts: readonly Haunt[];
  } {
    const { personas } = this.deps;
    const version = personas instanceof PersonaMap ? personas.version : null;
    if (this.everyoneCache && version !== null && this.everyoneCache.version === version) return this.everyoneCache;
    const names = new Map([...personas.values()].map((p) => [p.id as string, p.name]));
    const pronouns = new Map<string, Pronouns>();
    const households = new Map<string, string[]>();
    for (const p of personas.values()) {
      const stated = statedPronouns(p);
      if (stated) pronouns.set(p.name, stated);
      const home = households.get(p.home);
      if (home) home.push(p.id);
      else households.set(p.home, [p.id]);
    }
    this.everyoneCache = { version: version ?? -1, names, pronouns, households, haunts: hauntsOf(personas.values(), this.deps.map) };
    return this.everyoneCache;
  }

  /** Logs a decision as `agent.decided`, once per agent, moment and key (a talk asks again each turn; the seeded draw is the same). */
  private logDecision(agentId: AgentId, gameMs: number, d: SocialDecision): void {
    const key = `${agentId}|${gameMs}|${d.decision}|${d.otherId}|${d.about}`;
    if (this.decided.has(key)) return;
    if (this.decided.size >= 20_000) this.decided.clear();
    this.decided.add(key);
    this.deps.emit([{ gameMs, kind: 'agent.decided', agentId, data: { ...d, otherId: d.otherId as AgentId | null } }]);
  }
}

/** What a resident thinks of a housemate its file does not mention: "Samira Haddad lives at Haddad House with Omar." */
export function householdLine(other: Pick<Persona, 'name' | 'home'>, self: Pick<Persona, 'name'>): string {
  return `${other.name} lives at ${other.home} with ${self.name.split(' ')[0]}.`;
}
