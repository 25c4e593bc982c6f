// Numbered migrations of a world file. Each runs once, in a transaction, and is recorded in
// PRAGMA user_version. Never edit a migration that has shipped: add the next one.
import type Database from 'better-sqlite3';
import { shareVectors } from './memoryVectors';
import { compactMemories } from './memoryTexts';
import { compactEvents } from './eventRows';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
  /**
   * Whether a file without this migration can still be read as it is (replay and analysis open files
   * read-only, so they cannot upgrade them): its readers cope with what the migration adds being absent.
   */
  readersCope?: boolean;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'memories, events, snapshots, llm calls and cache, plans, conversations, relationships',
    up(db) {
      db.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE memories (
          id INTEGER PRIMARY KEY,
          agent_id TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('observation','chat','thought','plan')),
          description TEXT NOT NULL,
          created_ms INTEGER NOT NULL,
          last_accessed_ms INTEGER NOT NULL,
          importance INTEGER NOT NULL CHECK (importance BETWEEN 1 AND 10),
          subject TEXT, predicate TEXT, object TEXT,
          evidence TEXT NOT NULL DEFAULT '[]'
        );
        CREATE INDEX memories_agent_accessed ON memories (agent_id, last_accessed_ms DESC, id DESC);
        CREATE INDEX memories_agent_importance ON memories (agent_id, importance DESC, id DESC);
        CREATE INDEX memories_agent_id ON memories (agent_id, id DESC);
        CREATE TABLE events (
          seq INTEGER PRIMARY KEY,
          game_ms INTEGER NOT NULL,
          kind TEXT NOT NULL,
          agent_id TEXT,
          data TEXT NOT NULL
        );
        CREATE INDEX events_game_ms ON events (game_ms);
        CREATE INDEX events_agent ON events (agent_id, seq);
        CREATE TABLE snapshots (
          seq INTEGER NOT NULL,
          game_ms INTEGER NOT NULL,
          state TEXT NOT NULL,
          wall_ms INTEGER NOT NULL
        );
        CREATE INDEX snapshots_game_ms ON snapshots (game_ms);
        CREATE TABLE llm_calls (
          id INTEGER PRIMARY KEY,
          agent_id TEXT,
          purpose TEXT NOT NULL,
          model TEXT NOT NULL,
          prompt_tokens INTEGER NOT NULL,
          completion_tokens INTEGER NOT NULL,
          latency_ms REAL NOT NULL,
          cost_usd REAL NOT NULL,
          cached INTEGER NOT NULL,
          outcome TEXT NOT NULL,
          game_ms INTEGER,
          wall_ms INTEGER NOT NULL
        );
        CREATE INDEX llm_calls_agent ON llm_calls (agent_id, purpose);
        CREATE TABLE llm_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, wall_ms INTEGER NOT NULL);
        CREATE TABLE embedding_cache (model TEXT NOT NULL, text_hash TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, text_hash));
        CREATE TABLE plans (agent_id TEXT NOT NULL, day INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (agent_id, day));
        CREATE TABLE conversations (
          id INTEGER PRIMARY KEY,
          agent_a TEXT NOT NULL,
          agent_b TEXT NOT NULL,
          start_ms INTEGER NOT NULL,
          end_ms INTEGER NOT NULL,
          summary TEXT NOT NULL
        );
        CREATE INDEX conversations_a ON conversations (agent_a);
        CREATE INDEX conversations_b ON conversations (agent_b);
        CREATE TABLE utterances (
          conversation_id INTEGER NOT NULL REFERENCES conversations (id),
          seq INTEGER NOT NULL,
          speaker TEXT NOT NULL,
          text TEXT NOT NULL,
          game_ms INTEGER NOT NULL,
          PRIMARY KEY (conversation_id, seq)
        );
        CREATE TABLE relationships (
          agent_id TEXT NOT NULL,
          other_id TEXT NOT NULL,
          summary TEXT NOT NULL,
          interactions INTEGER NOT NULL,
          last_ms INTEGER NOT NULL,
          PRIMARY KEY (agent_id, other_id)
        );
      `);
    },
  },
  {
    // With several LLM endpoints (LLM_ENDPOINTS), which one served each call: per-endpoint figures in the report.
    version: 2,
    name: 'llm_calls.endpoint',
    // Without the column a file's calls name no endpoint: the report shows no per-endpoint table.
    readersCope: true,
    up(db) {
      db.exec('ALTER TABLE llm_calls ADD COLUMN endpoint TEXT');
    },
  },
  {
    // Identical vectors stored once (memoryVectors.ts): most memories repeat an observation the agent or another made.
    version: 3,
    name: 'memory_vectors shared by identical vectors, memories.vector_id; vec0 and two of its indexes dropped',
    // Readers of an older file read its vectors from vec0 (vectorLayoutOf).
    readersCope: true,
    up: shareVectors,
  },
  {
    // Rows without repeated text: memories' words once per distinct text (memoryTexts.ts), most being observations
    // noted before in the same words; agents and event kinds as integer keys in memories, events and their indexes (eventRows.ts).
    version: 4,
    name: 'memory_rows, memory_texts, agents, event_rows, event_kinds; memories and events views over them',
    // The views have the tables' columns and values, so readers of an older file read its tables as they are.
    readersCope: true,
    up(db) {
      compactMemories(db);
      compactEvents(db);
    },
  },
  {
    // An agent's memories of some kinds since a game time (SqliteMemoryStore.since): the news an agent might tell reads the
    // last two days' talks and thoughts, which the newest rows (mostly observations) cover only for a few busy hours.
    version: 5,
    name: 'memory_rows by agent, kind and game time',
    // Without the index the same query reads the agent's rows one by one.
    readersCope: true,
    up(db) {
      db.exec('CREATE INDEX memory_rows_agent_kind ON memory_rows (agent, kind, created_ms)');
    },
  },
];

export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
