// How a world keeps its memories' rows, in one of two layouts:
// - 'rows' (schema 4 on): `memory_rows`, one narrow row per memory (integer keys, no text), each naming its
//   agent in `agents` (the persona id, once per agent) and its words in `memory_texts` (description and triple,
//   once per DISTINCT text: most of a town's memories are observations that the agent or another agent noted
//   before in the same words). `memories` is a view over the three with the columns and values the table had,
//   so every reader (retrieval, replay, analysis, exports) reads a memory as it was written. Texts are matched
//   by their words, not only by a 48-bit hash of them: different texts never share a row, even on a collision.
// - 'table' (files made before schema 4, read as they are, read-only): the `memories` table of schema 1.
// Writes go to `memory_rows` (MemoryRowWriter); the view takes a DELETE, and an UPDATE of last access or vector,
// of one memory (INSTEAD OF triggers), as the table did.
import type Database from 'better-sqlite3';
import { MEMORY_KINDS, type MemoryKind } from './types';
import { sha1Int48 } from './memoryVectors';
import { ContentRows } from './contentRows';

export type MemoryLayout = 'rows' | 'table';

export function memoryLayoutOf(db: Database.Database): MemoryLayout {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'memory_rows'").get() ? 'rows' : 'table';
}

/** A memory's words: what `memory_texts` keeps once for every memory that has them. */
export interface MemoryText {
  description: string;
  subject: string | null;
  predicate: string | null;
  object: string | null;
}

/** 48 bits of the SHA-1 of the text's fields (as JSON, so no two field splits hash alike by construction): a safe integer. */
export function textHash(t: MemoryText): number {
  return sha1Int48(JSON.stringify([t.description, t.subject, t.predicate, t.object]));
}

/** A memory kind as `memory_rows.kind` keeps it: its index in MEMORY_KINDS (the order of schema 1's CHECK). */
export function kindCode(kind: MemoryKind): number {
  const code = MEMORY_KINDS.indexOf(kind);
  if (code < 0) throw new Error(`memory kind '${String(kind)}' is not one of ${MEMORY_KINDS.join(', ')}`);
  return code;
}

/** SQL giving a kind's name back from its code (the view's `kind`). */
const KIND_NAME_SQL = `CASE r.kind ${MEMORY_KINDS.map((k, i) => `WHEN ${i} THEN '${k}'`).join(' ')} END`;

/**
 * Finds or adds the `memory_texts` row holding exactly these words. `hash` is a parameter for tests only
 * (a constant one makes every text collide, which must still keep different texts apart).
 */
export class TextRows extends ContentRows<MemoryText> {
  constructor(db: Database.Database, hash: (t: MemoryText) => number = textHash) {
    super(db, 'memory_texts', ['description', 'subject', 'predicate', 'object'], (t) => [t.description, t.subject, t.predicate, t.object], hash);
  }
}

/** A memory as `MemoryRowWriter` writes it (the store's row, before its text and agent are keyed). */
export interface MemoryRowInput extends MemoryText {
  agentId: string;
  kind: MemoryKind;
  createdMs: number;
  importance: number;
  /** JSON text of the evidence ids ('[]' when none). */
  evidence: string;
  vectorId: number | null;
}

/**
 * An agent's integer key (`agents`, shared by memories and events), found or added. Read each time, not held:
 * a key added inside a transaction that rolls back is gone again, and a rename or a cleared start changes the rows.
 */
export function agentKeys(db: Database.Database): (agentId: string) => number {
  const agentKey = db.prepare('SELECT key FROM agents WHERE id = ?').pluck();
  const addAgent = db.prepare('INSERT INTO agents (id) VALUES (?)');
  return (agentId) => (agentKey.get(agentId) as number | undefined) ?? Number(addAgent.run(agentId).lastInsertRowid);
}

/** Writes memories in the 'rows' layout: the agent's key and the text's row found or added, then one narrow row. */
export class MemoryRowWriter {
  private readonly texts: TextRows;
  readonly keyOf: (agentId: string) => number;
  private readonly insert;

  constructor(db: Database.Database, hash?: (t: MemoryText) => number) {
    this.texts = new TextRows(db, hash);
    this.keyOf = agentKeys(db);
    this.insert = db.prepare(
      'INSERT INTO memory_rows (agent, kind, text_id, created_ms, last_accessed_ms, importance, evidence, vector_id) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)',
    );
  }

  /** The new memory's id. A last access equal to creation is kept as NULL, evidence '[]' as NULL: the view reads them back. */
  add(m: MemoryRowInput): number {
    const agent = this.keyOf(m.agentId);
    const text = this.texts.idOf(m);
    return Number(
      this.insert.run(agent, kindCode(m.kind), text, m.createdMs, m.importance, m.evidence === '[]' ? null : m.evidence, m.vectorId).lastInsertRowid,
    );
  }
}

/** The `memories` view and its triggers (the table's columns, in its order, and its values). */
const MEMORIES_VIEW = `
  CREATE VIEW memories AS
    SELECT r.id AS id, a.id AS agent_id, ${KIND_NAME_SQL} AS kind, t.description AS description, r.created_ms AS created_ms,
           coalesce(r.last_accessed_ms, r.created_ms) AS last_accessed_ms, r.importance AS importance,
           t.subject AS subject, t.predicate AS predicate, t.object AS object, coalesce(r.evidence, '[]') AS evidence, r.vector_id AS vector_id
    FROM memory_rows r LEFT JOIN agents a ON a.key = r.agent LEFT JOIN memory_texts t ON t.id = r.text_id;
  CREATE TRIGGER memories_delete INSTEAD OF DELETE ON memories BEGIN DELETE FROM memory_rows WHERE id = OLD.id; END;
  CREATE TRIGGER memories_update INSTEAD OF UPDATE OF last_accessed_ms, vector_id ON memories BEGIN
    UPDATE memory_rows SET last_accessed_ms = NEW.last_accessed_ms, vector_id = NEW.vector_id WHERE id = OLD.id;
  END;
`;

/**
 * Schema 4 on an existing file: every memory's row moved from the `memories` table into `memory_rows`, its agent
 * into `agents` and its words into `memory_texts` (once per distinct text), and `memories` made a view over them.
 * The joins are LEFT joins on integer primary keys, so a query that reads no text (the column cache's load, counts)
 * skips the texts (SQLite omits such a join), and a query by agent starts from the agent's key (EXPLAIN QUERY PLAN
 * in tests/unit/memoryTexts.test.ts). The foreign keys keep every row's agent and text present.
 */
export function compactMemories(db: Database.Database): void {
  db.exec(`
    CREATE TABLE agents (key INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);
    CREATE TABLE memory_texts (id INTEGER PRIMARY KEY, hash INTEGER NOT NULL, description TEXT NOT NULL, subject TEXT, predicate TEXT, object TEXT);
    CREATE INDEX memory_texts_hash ON memory_texts (hash);
    CREATE TABLE memory_rows (
      id INTEGER PRIMARY KEY,
      agent INTEGER NOT NULL REFERENCES agents (key),
      kind INTEGER NOT NULL CHECK (kind BETWEEN 0 AND ${MEMORY_KINDS.length - 1}),
      text_id INTEGER NOT NULL REFERENCES memory_texts (id),
      created_ms INTEGER NOT NULL,
      last_accessed_ms INTEGER,
      importance INTEGER NOT NULL CHECK (importance BETWEEN 1 AND 10),
      evidence TEXT,
      vector_id INTEGER
    );
    CREATE INDEX memory_rows_agent ON memory_rows (agent);
  `);
  // In id order, a slice at a time (a week of a big town is millions of rows): a statement cannot write while another iterates.
  const slice = db.prepare(
    'SELECT id, agent_id AS agentId, kind, description, subject, predicate, object, created_ms, last_accessed_ms, importance, evidence, vector_id ' +
      'FROM memories WHERE id > ? ORDER BY id LIMIT 5000',
  );
  const writer = new MemoryRowWriter(db);
  const put = db.prepare(
    'INSERT INTO memory_rows (id, agent, kind, text_id, created_ms, last_accessed_ms, importance, evidence, vector_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const texts = new TextRows(db);
  for (let after = 0; ;) {
    const rows = slice.all(after) as Array<
      MemoryText & {
        id: number;
        agentId: string;
        kind: MemoryKind;
        created_ms: number;
        last_accessed_ms: number;
        importance: number;
        evidence: string;
        vector_id: number | null;
      }
    >;
    if (rows.length === 0) break;
    for (const r of rows) {
      const accessed = r.last_accessed_ms === r.created_ms ? null : r.last_accessed_ms;
      put.run(
        r.id,
        writer.keyOf(r.agentId),
        kindCode(r.kind),
        texts.idOf(r),
        r.created_ms,
        accessed,
        r.importance,
        r.evidence === '[]' ? null : r.evidence,
        r.vector_id,
      );
    }
    after = rows[rows.length - 1].id;
  }
  // The table's id sequence goes on where it stood (a memory id is never reused: events refer to them).
  db.exec('DROP TABLE memories');
  db.exec(MEMORIES_VIEW);
}

/**
 * A rename in the 'rows' layout: the agent's one `agents` row (its memories' and its events' key), and every text whose subject or object is the old id
 * (a text shared by several agents' memories is renamed for all of them, as renaming each memory's row did).
 * Returns how many memories the agent has.
 */
export function renameInMemoryRows(db: Database.Database, from: string, to: string): number {
  const key = db.prepare('SELECT key FROM agents WHERE id = ?').pluck().get(from) as number | undefined;
  const memories = key === undefined ? 0 : (db.prepare('SELECT count(*) FROM memory_rows WHERE agent = ?').pluck().get(key) as number);
  // A key left for the new id with no memories or events (none is made so, but a file may hold one) would block the rename.
  db.prepare(
    'DELETE FROM agents WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memory_rows WHERE agent = agents.key) ' +
      'AND NOT EXISTS (SELECT 1 FROM event_rows WHERE agent = agents.key)',
  ).run(to);
  db.prepare('UPDATE agents SET id = ? WHERE id = ?').run(to, from);
  const rehash = db.prepare('UPDATE memory_texts SET hash = ?, subject = ?, object = ? WHERE id = ?');
  const named = db.prepare('SELECT id, description, subject, predicate, object FROM memory_texts WHERE subject = ? OR object = ?').all(from, from) as Array<
    MemoryText & { id: number }
  >;
  for (const t of named) {
    const renamed = { ...t, subject: t.subject === from ? to : t.subject, object: t.object === from ? to : t.object };
    rehash.run(textHash(renamed), renamed.subject, renamed.object, t.id);
  }
  return memories;
}
