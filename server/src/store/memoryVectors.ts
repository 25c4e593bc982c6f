// Where a world keeps its memories' float32 vectors, in one of two layouts:
// - 'shared' (schema 3 on): one row per DISTINCT vector in `memory_vectors`, each memory naming its row in
//   `memories.vector_id`. An agent that notes the same event again, and every agent that notes it in the same
//   words, share one vector: a memory reads back exactly the bytes it was written with, because rows are
//   matched by their bytes (a 48-bit hash finds the rows to compare; equal hashes of different bytes get rows
//   of their own).
// - 'vec0' (files made before schema 3, read as they are, read-only): sqlite-vec's `vec_memories`, one row per
//   memory under the memory's id, partitioned by agent.
import { hash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { ContentRows } from './contentRows';

export type VectorLayout = 'shared' | 'vec0';

export function vectorLayoutOf(db: Database.Database): VectorLayout {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'memory_vectors'").get() ? 'shared' : 'vec0';
}

/**
 * A float32 vector from the bytes of a stored one. A buffer that is its whole ArrayBuffer (what SQLite's rows give: a
 * copy of their own) is read in place; any other (a slice of a pool, which may be reused) is copied. Retrieval at
 * 10,000 reads ~250 vectors a tick: a copy of each doubled the memory made outside V8's heap, which V8 answers
 * with full collections.
 */
export const vectorOf = (buf: Buffer): Float32Array =>
  buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength && buf.byteLength % 4 === 0
    ? new Float32Array(buf.buffer)
    : new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));

/** The bytes a vector is stored as (a view, not a copy). */
export const bytesOf = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/**
 * The first 48 bits of the SHA-1 of `data` as a signed integer, as `digest().readIntBE(0, 6)` reads them (the
 * hashes files already hold): a safe integer for SQLite and JS alike. One call: a `createHash` object is a native
 * object with a weak handle, and its digest a Buffer outside V8's heap, both freed only by a full collection.
 */
export function sha1Int48(data: string | NodeJS.ArrayBufferView): number {
  const n = parseInt(hash('sha1', data, 'hex').slice(0, 12), 16);
  return n >= 2 ** 47 ? n - 2 ** 48 : n;
}

/**
 * The SQL that reads vectors in a layout: `ofAgent` and `ofMemories` yield `id` (a memory id) and `embedding`,
 * `ofMemory` the `embedding` of one memory (a subquery: as a join the one-row read took ~10× as long).
 */
export function vectorQueries(layout: VectorLayout): { ofAgent: string; ofMemory: string; ofMemories: string } {
  if (layout === 'vec0')
    return {
      ofAgent: 'SELECT rowid AS id, embedding FROM vec_memories WHERE agent_id = ?',
      ofMemory: 'SELECT embedding FROM vec_memories WHERE rowid = ?',
      ofMemories: 'SELECT rowid AS id, embedding FROM vec_memories WHERE rowid IN (SELECT value FROM json_each(?))',
    };
  return {
    ofAgent: 'SELECT m.id AS id, v.embedding AS embedding FROM memories m JOIN memory_vectors v ON v.id = m.vector_id WHERE m.agent_id = ?',
    ofMemory: 'SELECT embedding FROM memory_vectors WHERE id = (SELECT vector_id FROM memories WHERE id = ?)',
    ofMemories:
      'SELECT m.id AS id, v.embedding AS embedding FROM memories m JOIN memory_vectors v ON v.id = m.vector_id WHERE m.id IN (SELECT value FROM json_each(?))',
  };
}

/**
 * Finds or adds the `memory_vectors` row holding exactly these bytes. `hash` is a parameter for tests only
 * (a constant one makes every vector collide, which must still keep different vectors apart).
 */
export class VectorRows extends ContentRows<Float32Array> {
  constructor(db: Database.Database, hash: (bytes: Buffer) => number = sha1Int48) {
    super(
      db,
      'memory_vectors',
      ['embedding'],
      (vector) => [bytesOf(vector)],
      (_, [bytes]) => hash(bytes as Buffer),
    );
  }
}

/**
 * Schema 3 on an existing file: the shared vector table, each memory's vector moved there from vec0 (when the
 * file has one) and vec0 dropped, and the two indexes only vec0's bounded retrieval read (by last access and by
 * importance) dropped.
 */
export function shareVectors(db: Database.Database): void {
  db.exec(`
    CREATE TABLE memory_vectors (id INTEGER PRIMARY KEY, hash INTEGER NOT NULL, embedding BLOB NOT NULL);
    CREATE INDEX memory_vectors_hash ON memory_vectors (hash);
    ALTER TABLE memories ADD COLUMN vector_id INTEGER;
    DROP INDEX IF EXISTS memories_agent_accessed;
    DROP INDEX IF EXISTS memories_agent_importance;
  `);
  if (!db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'vec_memories'").get()) return;
  const rows = new VectorRows(db);
  const setVector = db.prepare('UPDATE memories SET vector_id = ? WHERE id = ?');
  // One vector at a time (a week of a big town is gigabytes of them), by rowid: a statement cannot write while another iterates.
  const vectorAt = db.prepare('SELECT embedding FROM vec_memories WHERE rowid = ?').pluck();
  for (const id of db.prepare('SELECT rowid FROM vec_memories').pluck().all() as number[])
    setVector.run(rows.idOf(vectorOf(vectorAt.get(BigInt(id)) as Buffer)), id);
  db.exec('DROP TABLE vec_memories');
}
