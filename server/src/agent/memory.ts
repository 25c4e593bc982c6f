// The agent side of the memory stream: writing memories (rated, embedded, logged), retrieving them, the
// news an agent might pass on, and the importance counted toward the next reflection.
import type { AgentId } from '../protocol/ids';
import type { Memory, MemoryId, MemoryInput, MemoryKind, Triple } from '../store/types';
import { GAME_MS_PER_HOUR } from '../protocol/time';
import type { CognitionContext } from './context';
import type { NewsMemory } from './mind';

export interface MemoryItem {
  kind: MemoryKind;
  description: string;
  /** 1..10; 0 asks the mind to rate it. */
  importance: number;
  gameMs: number;
  triple?: Triple;
  evidenceIds?: MemoryId[];
}

/** A memory rated this or more is news the agent might tell. */
const NEWS_MIN_IMPORTANCE = 6;

export class AgentMemory {
  /** Summed importance of memories since each agent's last reflection. */
  private readonly sinceReflection = new Map<string, number>();

  constructor(private readonly c: CognitionContext) {
    // A new world has no memories to count (two reads per resident were 15% of starting a town of 2,000).
    if (c.deps.memories.count() === 0) return;
    for (const id of c.deps.personas.keys()) this.resumeReflectionCounter(id as AgentId);
  }

  /** Rates (where asked), embeds, stores and logs memories; returns their ids in order. */
  async remember(agentId: AgentId, items: MemoryItem[], countTowardReflection = true): Promise<MemoryId[]> {
    if (items.length === 0) return [];
    const [ids] = await this.rememberAll([{ agentId, items }], { countTowardReflection });
    return ids;
  }

  /**
   * Several agents' memories at once: each agent's rated where asked, all embedded in one call, then
   * stored and logged inside `commit` (one transaction for the lot, when the caller's commit makes one:
   * a new world's seeding commits a slice of residents with their events). Ids per group, in order.
   */
  async rememberAll(
    groups: Array<{ agentId: AgentId; items: MemoryItem[] }>,
    options: { countTowardReflection?: boolean; commit?: (write: () => void) => void | Promise<void> } = {},
  ): Promise<MemoryId[][]> {
    const { deps } = this.c;
    const names = groups.map((g) => this.c.persona(g.agentId).name);
    for (const { agentId, items } of groups) {
      const unrated = items.filter((i) => i.importance <= 0);
      if (unrated.length === 0) continue;
      const ratings = await this.c.mind.rateImportance(
        this.c.mindContext(agentId, items[0].gameMs),
        unrated.map((u) => u.description),
      );
      unrated.forEach((u, i) => (u.importance = ratings[i]));
    }
    const vectors = await deps.embedder.embed(groups.flatMap((g) => g.items.map((i) => i.description)));
    let next = 0;
    const inputs: MemoryInput[][] = groups.map(({ agentId, items }) =>
      items.map((item) => ({
        agentId,
        kind: item.kind,
        description: item.description,
        createdGameMs: item.gameMs,
        importance: clampImportance(item.importance),
        triple: item.triple ?? null,
        evidenceIds: item.evidenceIds ?? [],
        embedding: vectors[next++],
      })),
    );
    const ids: MemoryId[][] = [];
    const write = () => {
      const all = deps.memories.add(inputs.flat());
      let at = 0;
      for (const [g, { agentId }] of groups.entries()) {
        const mine = all.slice(at, (at += inputs[g].length));
        ids.push(mine);
        if (options.countTowardReflection ?? true)
          this.sinceReflection.set(agentId, this.pendingImportance(agentId) + inputs[g].reduce((s, m) => s + m.importance, 0));
        const by = names[g];
        deps.emit(
          inputs[g].map((m, i) => ({
            gameMs: m.createdGameMs,
            kind: 'memory.created' as const,
            agentId,
            data: { id: mine[i], kind: m.kind, description: m.description, importance: m.importance, evidence: m.evidenceIds ?? [], by },
          })),
        );
      }
    };
    // Without a commit the writes happen in this turn, with no await: an extra microtask here would reorder
    // concurrent operations of the offline mind (and so change seeded runs).
    if (options.commit) await options.commit(write);
    else write();
    return ids;
  }

  /** The top k memories for a query; `touch` false leaves lastAccessed alone (interviews, the inspector). */
  async retrieve(agentId: AgentId, query: string, gameMs: number, k: number, touch = true): Promise<Memory[]> {
    const { deps, settings } = this.c;
    if (deps.memories.count(agentId) === 0) return [];
    const [vector] = await deps.embedder.embed([query]);
    return deps.memories
      .retrieve({ agentId, query: vector, nowGameMs: gameMs, k, weights: settings.retrievalWeights, decayPerGameHour: settings.decayPerGameHour, touch })
      .map((s) => s.memory);
  }

  /**
   * What the agent might tell someone (memories rated NEWS_MIN_IMPORTANCE or more): its most important recent memories that are not plans. With a
   * listener, not what the listener told it, not news about the listener themself, and not what a
   * later talk with the listener was already about. Each comes with how many of the agent's talks since
   * it heard it were already about it, and when a reflection of the agent last went over it (an insight
   * citing it): what the offline mind's telling decision weighs (socialModel.tellProbability).
   */
  news(agentId: AgentId, gameMs: number, listener?: { name: string }): NewsMemory[] {
    const horizon = gameMs - 48 * GAME_MS_PER_HOUR;
    const first = listener?.name.split(' ')[0];
    // The last two days' talks and thoughts (whispers, news heard, insights), and the observations rated worth telling
    // (the persona's seed memories, a town event), however many observations came since: at a busy place the newest
    // 150 rows are a few hours of noticing things.
    const said = this.c.deps.memories.since(agentId, horizon, ['chat', 'thought']);
    const observed = this.c.deps.memories.since(agentId, horizon, ['observation'], NEWS_MIN_IMPORTANCE);
    const recent = [...said, ...observed];
    const allTalks = said.filter((m) => m.triple?.predicate === 'talked with');
    const talks = listener ? allTalks.filter((t) => t.triple?.object === listener.name) : [];
    const insights = said.filter((m) => isDerivedThought(m) && m.triple?.predicate !== 'plans' && m.triple?.predicate !== 'declined');
    return (
      recent
        // Reflections and planning thoughts are the agent's own conclusions, not news (a whisper is); what
        // someone was doing at a moment (an observed action) is stale by the time it could be told.
        .filter((m) => m.importance >= NEWS_MIN_IMPORTANCE && m.createdGameMs >= horizon && m.triple?.predicate !== 'talked with' && !isDerivedThought(m))
        .filter((m) => !(m.kind === 'observation' && (m.triple?.predicate === 'is' || m.triple?.predicate === 'is in use by')))
        .filter(
          (m) => !listener || (m.triple?.subject !== listener.name && !m.description.startsWith(`${listener.name} `) && !m.description.startsWith(`${first} `)),
        )
        .filter((m) => !talks.some((t) => t.createdGameMs >= m.createdGameMs && coveredBy(m, t.description)))
        .sort((a, b) => b.importance - a.importance || b.id - a.id)
        .slice(0, 3)
        .map((m) => ({
          ...m,
          timesDiscussed: allTalks.filter((t) => t.createdGameMs >= m.createdGameMs && t.id > m.id && coveredBy(m, t.description)).length,
          rehearsedGameMs: Math.max(m.createdGameMs, ...insights.filter((i) => i.evidenceIds.includes(m.id)).map((i) => i.createdGameMs)),
        }))
    );
  }

  /**
   * What the agent did and thought over the last day, for the morning's status revision: its plans,
   * thoughts and the memories that mattered, oldest first. Null before its first plan (no yesterday yet).
   */
  yesterday(agentId: AgentId, gameMs: number): Memory[] | null {
    const since = gameMs - 30 * GAME_MS_PER_HOUR;
    const day = this.c.deps.memories.recent(agentId, 400).filter((m) => m.createdGameMs >= since && m.createdGameMs < gameMs);
    if (!day.some((m) => m.kind === 'plan')) return null;
    return day
      .filter((m) => m.kind === 'plan' || m.kind === 'thought' || m.importance >= 5)
      .sort((a, b) => b.importance - a.importance || b.id - a.id)
      .slice(0, 10)
      .sort((a, b) => a.id - b.id);
  }

  pendingImportance(agentId: string): number {
    return this.sinceReflection.get(agentId) ?? 0;
  }

  /** An agent renamed: its importance since the last reflection goes with it. */
  renameAgent(from: string, to: string): void {
    const sum = this.sinceReflection.get(from);
    this.sinceReflection.delete(from);
    if (sum !== undefined) this.sinceReflection.set(to, sum);
  }

  resetReflectionCounter(agentId: string): void {
    this.sinceReflection.set(agentId, 0);
  }

  /** The counter after a restart: what the live counter would hold. Thoughts citing evidence (insights, planning thoughts) never count; whispers do. */
  private resumeReflectionCounter(agentId: AgentId): void {
    const through = this.c.deps.records.lastReflectedMemoryId(agentId);
    let sum = 0;
    for (const m of this.c.deps.memories.recent(agentId, 400)) {
      if (m.id <= through) break;
      if (!isDerivedThought(m)) sum += m.importance;
    }
    this.sinceReflection.set(agentId, sum);
  }
}

/**
 * Whether a talk's summary was about a memory: it holds the start of what the memory says (a summary lists
 * each fact told cut to 60 characters), or else the first six content words of it.
 */
function coveredBy(memory: Memory, summary: string): boolean {
  const text = memory.triple?.predicate === 'said' ? memory.triple.object : memory.description;
  if (text.length >= 40 && summary.includes(text.slice(0, 40))) return true;
  const words = (s: string) =>
    s
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 3);
  const said = new Set(words(summary));
  const key = words(text).slice(0, 6);
  return key.length > 0 && key.every((w) => said.has(w));
}

/** A thought the agent derived from other memories (an insight or a planning thought): it cites them. A whisper cites none. */
export function isDerivedThought(m: Pick<Memory, 'kind' | 'evidenceIds'>): boolean {
  return m.kind === 'thought' && m.evidenceIds.length > 0;
}

function clampImportance(value: number): number {
  return Number.isFinite(value) ? Math.max(1, Math.min(10, Math.round(value))) : 1;
}
