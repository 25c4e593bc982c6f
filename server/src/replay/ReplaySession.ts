// One viewer's replay of a world: a moment of its history, played forward at a chosen speed or sought
// to at will. Seeking folds the newest snapshot at or before the moment with the events after it
// (history/stateAt.ts); playing folds the next events in, one tick at a time. It reads the world file
// only, so the live town and other viewers are untouched.
import type { AgentId } from '../protocol/ids';
import type { LoggedEvent, PersonaRecord } from '../protocol/events';
import type { AgentInspection } from '../protocol/inspection';
import type { ReplayHistory } from '../protocol/replay';
import { toldOf, type NameOf } from '../protocol/feedText';
import type { SimState } from '../sim/types';
import { applyEvent } from '../sim/apply';
import { indexState, readView, type SimIndex, type SimReadView, type SimWorld } from '../sim/state';
import type { WorldDb } from '../store/WorldDb';
import type { RetrievalWeights } from '../store/types';
import { memoriesUntil, scoreMemoriesAt } from '../store/memoriesAt';
import type { Embedder } from '../llm/types';
import { stateAt } from '../history/stateAt';
import { settleAt } from '../history/fold';
import { upgradeEvent } from '../history/legacy';
import { abandonedRanges, historyEvents, type SeqRange } from '../history/log';
import { buildInspection, relationshipsAt, RECENT_THOUGHTS } from '../history/inspection';

/** Feed lines and conversation lines sent with a seek. */
const HISTORY_ITEMS = 200;

export interface ReplaySource {
  db: WorldDb;
  world: SimWorld;
  embedder: Embedder;
  retrieval: { weights: RetrievalWeights; decayPerGameHour: number };
}

/** What changed in a tick of play: events that passed (for the feed and speech). */
export interface ReplayTick {
  gameMs: number;
  passed: LoggedEvent[];
  /** The end of the recorded span was reached and play stopped. */
  ended: boolean;
}

export class ReplaySession {
  private state!: SimState;
  private index!: SimIndex;
  private lastSeq = 0;
  private readonly abandoned: SeqRange[];
  private readonly span: { firstGameMs: number; lastGameMs: number };
  /** Game ms per real ms while playing; 0 when paused. */
  rate = 0;

  constructor(private readonly source: ReplaySource) {
    const span = source.db.events.span();
    if (!span || !source.db.snapshots.latest()) throw new Error(`${source.db.file}: nothing recorded yet`);
    this.span = span;
    this.abandoned = abandonedRanges(source.db);
  }

  get gameMs(): number {
    return this.state.gameMs;
  }

  /** The recorded span (the live world's grows while it runs). */
  currentSpan(): { firstGameMs: number; lastGameMs: number } {
    const now = this.source.db.events.span();
    if (now) this.span.lastGameMs = now.lastGameMs;
    return { ...this.span };
  }

  view(): SimReadView {
    return readView(this.source.world.map, this.state, this.index);
  }

  /** Goes to game time `t` (clamped to the recorded span). */
  seek(t: number): void {
    const span = this.currentSpan();
    const target = Math.min(Math.max(t, span.firstGameMs), span.lastGameMs);
    const at =
      stateAt(this.source.db, this.source.world, target, this.abandoned) ?? stateAt(this.source.db, this.source.world, span.firstGameMs, this.abandoned);
    if (!at) throw new Error(`${this.source.db.file}: no snapshot to replay from`);
    this.state = at.sim;
    this.index = indexState(this.state);
    this.lastSeq = at.lastSeq;
    this.nameCache = null;
  }

  /** Plays forward by a real-time delta at the current rate. */
  advance(realDeltaMs: number): ReplayTick {
    if (this.rate <= 0) return { gameMs: this.gameMs, passed: [], ended: false };
    const span = this.currentSpan();
    const target = Math.min(this.gameMs + realDeltaMs * this.rate, span.lastGameMs);
    const passed: LoggedEvent[] = [];
    for (const raw of historyEvents(this.source.db, { afterSeq: this.lastSeq }, this.abandoned)) {
      // The log is in step order: the first event past the target is where this tick stops.
      if (raw.gameMs > target) break;
      this.lastSeq = raw.seq;
      const e = upgradeEvent(raw);
      if (!e) continue;
      applyEvent(this.state, this.index, this.source.world.map, e);
      passed.push(e);
    }
    settleAt(this.source.world, this.state, target);
    const ended = target >= span.lastGameMs;
    if (ended) this.rate = 0;
    return { gameMs: target, passed, ended };
  }

  /** Display names of the world's agents, from the log (arrivals and personas). */
  readonly nameOf: NameOf = (id) => this.names().get(id) ?? id;

  private nameCache: Map<string, string> | null = null;
  private names(): Map<string, string> {
    if (this.nameCache) return this.nameCache;
    const names = new Map<string, string>();
    for (const e of this.source.db.events.scan({ kinds: ['agent.added', 'persona.set'] })) {
      const d = e.data as { spec?: { name?: string }; name?: string };
      const name = d.spec?.name ?? d.name;
      if (e.agentId && name) names.set(e.agentId, name);
    }
    this.nameCache = names;
    return names;
  }

  /** The feed and conversation lines up to now. */
  history(): ReplayHistory {
    const nameOf = this.nameOf;
    const t = this.gameMs;
    const recent = [...historyEvents(this.source.db, { untilGameMs: t, descending: true, limit: 4 * HISTORY_ITEMS }, this.abandoned)].reverse();
    const { utterances, feed } = toldOf(recent, nameOf);
    return { gameMs: t, feed: feed.slice(-HISTORY_ITEMS), utterances: utterances.slice(-HISTORY_ITEMS) };
  }

  /** The persona of an agent as recorded at or before now (null when the log has none). */
  personaAt(agentId: string): PersonaRecord | null {
    const [last] = [...this.source.db.events.scan({ kinds: ['persona.set'], agentId, untilGameMs: this.gameMs, descending: true, limit: 1 })];
    return last && last.kind === 'persona.set' ? last.data : null;
  }

  /** The inspector's view of an agent as it was at this moment. */
  async inspect(agentId: string): Promise<AgentInspection | { id: string; error: string }> {
    const agent = this.index.agents.get(agentId);
    if (!agent) return { id: agentId, error: `no agent '${agentId}' at this moment` };
    const { db, embedder, retrieval } = this.source;
    const id = agentId as AgentId;
    const t = this.gameMs;
    const [focus] = await embedder.embed([agent.current.description]);
    const talks = db.conversationsOf(id, 50, t);
    const relationships = relationshipsAt(db, id, t, talks);
    const persona = this.personaAt(agentId);
    const status = db.statusOf(id, t);
    return buildInspection({
      agent,
      persona: persona && status !== null ? { ...persona, currently: status } : persona,
      atGameMs: t,
      scored: scoreMemoriesAt(db, id, focus, t, 30, retrieval.weights, retrieval.decayPerGameHour),
      recent: memoriesUntil(db, id, t, 30),
      thoughts: memoriesUntil(db, id, t, RECENT_THOUGHTS, ['thought']),
      evidenceOf: (memoryId) => db.memories.get(memoryId),
      relationships,
      conversations: talks.slice(0, 10),
      llm: { ...db.summariseCalls({ agentId: id, untilGameMs: t }), help: db.llmHelpOf(id, t) },
    });
  }
}
