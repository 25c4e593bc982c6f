// Reading a world for the analysis page: opening any world file read-only with its map, the
// conversation browser (filters, full-text search, transcript, summary, what each side learned) and
// one agent's day as a timeline of actions and places.
import fs from 'node:fs';
import type { WorldDb } from '../store/WorldDb';
import type { TownMap } from '../world/types';
import { loadTownMap } from '../world/map';
import { openWorldForReading } from '../history/worlds';
import { GAME_MS_PER_DAY } from '../protocol/time';
import type { ConversationView, DayEntry } from '../protocol/analysis';
import { readWorldFacts, type WorldFacts } from './facts';

const maps = new Map<string, TownMap>();

/** The map a world was run on (its `run.started` names the file), loaded once per file. */
export function mapOfWorld(db: WorldDb, fallbackMapFile: string): TownMap {
  const data = db.db.prepare("SELECT data FROM events WHERE kind = 'run.started' ORDER BY seq LIMIT 1").pluck().get() as string | undefined;
  const recorded = data ? (JSON.parse(data) as { map?: string }).map : undefined;
  const file = recorded && fs.existsSync(recorded) ? recorded : fallbackMapFile;
  let map = maps.get(file);
  if (!map) maps.set(file, (map = loadTownMap(file)));
  return map;
}

export interface OpenedWorld {
  id: string;
  db: WorldDb;
  map: TownMap;
  close(): void;
}

/** Any world file in DATA_DIR (the live one too: a second, read-only connection never disturbs it). */
export function openWorldForAnalysis(dataDir: string, id: string, fallbackMapFile: string): OpenedWorld {
  const db = openWorldForReading(dataDir, id, null);
  try {
    return { id, db, map: mapOfWorld(db, fallbackMapFile), close: () => db.close() };
  } catch (error) {
    db.close();
    throw error;
  }
}

export interface ConversationQuery {
  agent?: string;
  /** Both of these agents. */
  pair?: [string, string];
  /** A sector or arena where it took place. */
  place?: string;
  /** Conversations that started from `fromGameMs` to `toGameMs` (both included): the window the report counts. */
  fromGameMs?: number;
  toGameMs?: number;
  /** Words in the summary or any line (case-insensitive). */
  text?: string;
  limit?: number;
}

/** Conversations matching the filters, newest last, at most `limit` (default 200). */
export function findConversations(
  db: WorldDb,
  q: ConversationQuery,
  facts: WorldFacts = readWorldFacts(db),
): { total: number; conversations: ConversationView[] } {
  const names = new Map(facts.agents.map((a) => [a.id as string, a.name]));
  const words = (q.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const row = db.db.prepare('SELECT summary, start_ms AS startMs FROM conversations WHERE id = ?');
  const said = db.db.prepare('SELECT speaker, text, game_ms AS gameMs FROM utterances WHERE conversation_id = ? ORDER BY seq');
  const learnedOf = db.db
    .prepare("SELECT description FROM memories WHERE agent_id = ? AND kind = 'chat' AND predicate = 'said' AND subject = ? AND created_ms = ? ORDER BY id")
    .pluck();
  const matches = facts.conversations.filter((c) => {
    if (q.agent && c.a !== q.agent && c.b !== q.agent) return false;
    if (q.pair && !((c.a === q.pair[0] && c.b === q.pair[1]) || (c.a === q.pair[1] && c.b === q.pair[0]))) return false;
    if (q.place && c.arena !== q.place && !c.arena.startsWith(`${q.place}:`)) return false;
    if (q.fromGameMs !== undefined && c.startGameMs < q.fromGameMs) return false;
    if (q.toGameMs !== undefined && c.startGameMs > q.toGameMs) return false;
    return true;
  });
  const views: ConversationView[] = [];
  for (const c of matches) {
    // The table keeps the newest conversation of an id; an older one of the same id has only its log.
    const stored = row.get(c.id) as { summary: string; startMs: number } | undefined;
    const own = stored && Math.abs(stored.startMs - c.startGameMs) < GAME_MS_PER_DAY / 24;
    const lines = own ? (said.all(c.id) as Array<{ speaker: string; text: string; gameMs: number }>) : [];
    const view: ConversationView = {
      id: c.id,
      startGameMs: c.startGameMs,
      endGameMs: c.endGameMs,
      a: c.a,
      b: c.b,
      nameA: names.get(c.a) ?? c.a,
      nameB: names.get(c.b) ?? c.b,
      arena: c.arena,
      summary: own ? stored.summary : null,
      lines: lines.map((l) => ({ ...l, name: names.get(l.speaker) ?? l.speaker })),
      learned: {
        [c.a]: own ? (learnedOf.all(c.a, names.get(c.b) ?? c.b, stored.startMs) as string[]) : [],
        [c.b]: own ? (learnedOf.all(c.b, names.get(c.a) ?? c.a, stored.startMs) as string[]) : [],
      },
    };
    if (words.length) {
      const hay = `${view.summary ?? ''}\n${view.lines.map((l) => l.text).join('\n')}`.toLowerCase();
      if (!words.every((w) => hay.includes(w))) continue;
    }
    views.push(view);
  }
  const limit = q.limit ?? 200;
  return { total: views.length, conversations: views.slice(-limit) };
}

/** One agent's actions from `fromGameMs` to `toGameMs` (agent.action events), each lasting until the next (the last until the log ends). */
export function agentDay(db: WorldDb, agentId: string, fromGameMs: number, toGameMs: number): DayEntry[] {
  const before = db.db
    .prepare("SELECT game_ms AS gameMs, data FROM events WHERE kind = 'agent.action' AND agent_id = ? AND game_ms <= ? ORDER BY seq DESC LIMIT 1")
    .get(agentId, fromGameMs) as { gameMs: number; data: string } | undefined;
  const during = db.db
    .prepare("SELECT game_ms AS gameMs, data FROM events WHERE kind = 'agent.action' AND agent_id = ? AND game_ms > ? AND game_ms < ? ORDER BY seq")
    .all(agentId, fromGameMs, toGameMs) as Array<{ gameMs: number; data: string }>;
  const rows = [...(before ? [{ ...before, gameMs: fromGameMs }] : []), ...during];
  // The last action lasts until the window's end, or the end of the log, whichever is first.
  toGameMs = Math.min(toGameMs, db.events.span()?.lastGameMs ?? toGameMs);
  const out: DayEntry[] = [];
  rows.forEach((r, i) => {
    const d = JSON.parse(r.data) as { description: string; emoji: string; address: string; asleep: boolean };
    const end = rows[i + 1]?.gameMs ?? toGameMs;
    if (end <= r.gameMs) return;
    const prev = out.at(-1);
    if (prev && prev.description === d.description && prev.address === d.address && prev.endGameMs === r.gameMs) prev.endGameMs = end;
    else
      out.push({
        startGameMs: r.gameMs,
        endGameMs: end,
        description: d.description,
        emoji: d.emoji,
        address: d.address,
        place: d.address.split(': ')[0],
        asleep: d.asleep,
      });
  });
  return out;
}
