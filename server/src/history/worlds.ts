// The world files in DATA_DIR (and its backups), for the replay picker and analysis: each with its
// span of game time, agents, mind and size, or the reason it cannot be read. Files are opened
// read-only, so a live world is never disturbed.
import fs from 'node:fs';
import path from 'node:path';
import { openWorldDb, type WorldDb } from '../store/WorldDb';

export interface WorldFileInfo {
  /** How URLs name it: "smalltown", or "backups/smalltown-2026-02-13T10-00-00-000Z". */
  id: string;
  file: string;
  kind: 'world' | 'backup';
  sizeBytes: number;
  /** Game times of the first and last event. */
  span: { firstGameMs: number; lastGameMs: number } | null;
  agents: number;
  /** The mind it last ran on ("offline", "llm: …"). */
  mind: string | null;
  embedder: { model: string; dimension: number } | null;
  /** 1: recorded before events carried what replay needs; it replays with less detail. */
  eventFormat: number;
  /** Why it cannot be opened, when it cannot. */
  error?: string;
}

const ID_PATTERN = /^(backups\/)?[A-Za-z0-9_.-]+$/;

/** The file behind a world id, inside DATA_DIR; throws on ids that would leave it. */
export function worldFileOf(dataDir: string, id: string): string {
  if (!ID_PATTERN.test(id) || id.includes('..')) throw new Error(`'${id}' is not a world name`);
  return path.join(dataDir, `${id}.sqlite`);
}

/** Opens a world file read-only, for replay and analysis. Errors name the file and the reason. */
export function openWorldForReading(dataDir: string, id: string, embedding: { model: string; dimension: number } | null): WorldDb {
  const file = worldFileOf(dataDir, id);
  if (!fs.existsSync(file)) throw new Error(`${file}: no such world file`);
  return openWorldDb(file, embedding, { readonly: true });
}

export function listWorldFiles(dataDir: string): WorldFileInfo[] {
  const found: Array<{ id: string; file: string; kind: 'world' | 'backup' }> = [];
  for (const [dir, kind, prefix] of [
    [dataDir, 'world', ''],
    [path.join(dataDir, 'backups'), 'backup', 'backups/'],
  ] as const) {
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort())
      if (name.endsWith('.sqlite') && ID_PATTERN.test(`${prefix}${name.slice(0, -'.sqlite'.length)}`))
        found.push({ id: `${prefix}${name.slice(0, -'.sqlite'.length)}`, file: path.join(dir, name), kind });
  }
  return found.map(({ id, file, kind }) => describeWorldFile(id, file, kind));
}

function describeWorldFile(id: string, file: string, kind: 'world' | 'backup'): WorldFileInfo {
  const sizeBytes = ['', '-wal'].reduce((sum, ext) => sum + (fs.existsSync(file + ext) ? fs.statSync(file + ext).size : 0), 0);
  const base = { id, file, kind, sizeBytes, span: null, agents: 0, mind: null, embedder: null, eventFormat: 0 };
  let db: WorldDb;
  try {
    db = openWorldDb(file, null, { readonly: true });
  } catch (error) {
    return { ...base, error: error instanceof Error ? error.message : String(error) };
  }
  try {
    const runs = db.db.prepare("SELECT data FROM events WHERE kind IN ('run.started', 'run.resumed') ORDER BY seq DESC LIMIT 1").pluck().get() as
      string | undefined;
    const mind = runs ? ((JSON.parse(runs) as { mind?: string }).mind ?? null) : null;
    const agents = db.db.prepare("SELECT count(DISTINCT agent_id) FROM events WHERE kind = 'agent.added'").pluck().get() as number;
    return { ...base, span: db.events.span(), agents, mind, embedder: db.embedding, eventFormat: db.eventFormat };
  } catch (error) {
    return { ...base, error: `${file}: cannot be read (${error instanceof Error ? error.message : String(error)})` };
  } finally {
    db.close();
  }
}
