// What a world file says about itself, read without opening it as a world (nothing is written, nothing migrated).
import fs from 'node:fs';
import Database from 'better-sqlite3';

/** The embedder a world file's vectors were made with, or null when there is no such file (or it records none). */
export function recordedEmbedder(file: string): string | null {
  if (!fs.existsSync(file)) return null;
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const row = db.prepare("SELECT value FROM meta WHERE key = 'embedding_model'").pluck().get() as string | undefined;
    return row ?? null;
  } catch {
    return null; // not a world file, or corrupt: opening it as a world says so
  } finally {
    db?.close();
  }
}
