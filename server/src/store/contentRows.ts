// Content-addressed rows: a table whose row for a piece of content is found by its hash and its columns,
// and added when none holds it, so that content written many times is stored once (memory texts, vectors).

import type Database from 'better-sqlite3';

/**
 * Finds or adds the row of `table` holding exactly this content. The hash narrows the search; every column
 * is compared in SQL (IS: a null matches a null), so a colliding hash still keeps different contents apart.
 * Compared in SQL, not in JavaScript: reading each candidate back made a Buffer outside V8's heap, and
 * iterate() a native iterator that only a full collection frees, for every row written.
 */
export class ContentRows<T> {
  private readonly byHash;
  private readonly insert;

  constructor(
    db: Database.Database,
    table: string,
    columns: readonly string[],
    /** The content's column values, in the order of `columns`. */
    private readonly valuesOf: (content: T) => unknown[],
    /** The content's hash (an integer SQLite keeps exactly), given its column values too. */
    private readonly hash: (content: T, values: unknown[]) => number,
  ) {
    this.byHash = db.prepare(`SELECT id FROM ${table} WHERE hash = ? AND ${columns.map((c) => `${c} IS ?`).join(' AND ')}`).pluck();
    this.insert = db.prepare(`INSERT INTO ${table} (hash, ${columns.join(', ')}) VALUES (?${', ?'.repeat(columns.length)})`);
  }

  /** The row id of the content (every column compared, not only the hash), added when new. */
  idOf(content: T): number {
    const values = this.valuesOf(content);
    const h = this.hash(content, values);
    const found = this.byHash.get(h, ...values) as number | undefined;
    if (found !== undefined) return found;
    return Number(this.insert.run(h, ...values).lastInsertRowid);
  }
}
