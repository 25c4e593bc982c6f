// A world file written before a schema migration still opens: read-only (replay, analysis) as it is when
// its readers cope with what the migration adds, and live after the upgrade. Schema 2 added the endpoint
// that served each LLM call; a schema-1 file is made here by taking the column and the version back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorldDb } from '../../server/src/store/WorldDb';
import { MIGRATIONS } from '../../server/src/store/migrations';
import { takeBackToVec0 } from '../fixtures/oldVectors';

const EMBEDDING = { model: 'test', dimension: 4 };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function schemaOneWorld(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-schema-'));
  dirs.push(dir);
  const file = path.join(dir, 'old.sqlite');
  const db = openWorldDb(file, EMBEDDING);
  db.callLog.record({
    agentId: 'ada',
    purpose: 'plan',
    model: 'm',
    promptTokens: 10,
    completionTokens: 5,
    latencyMs: 100,
    costUsd: 0,
    cached: false,
    outcome: 'ok',
    gameMs: 0,
    wallMs: 0,
  });
  db.close();
  const raw = new Database(file);
  takeBackToVec0(raw, EMBEDDING.dimension);
  raw.exec('ALTER TABLE llm_calls DROP COLUMN endpoint');
  raw.pragma('user_version = 1');
  raw.close();
  return file;
}

describe('a world file of an older schema', () => {
  it('opens read-only as it is (its calls name no endpoint), and live upgraded', () => {
    const file = schemaOneWorld();
    const readOnly = openWorldDb(file, EMBEDDING, { readonly: true });
    expect(readOnly.schemaVersion).toBe(1);
    expect(readOnly.summariseCalls().calls).toBe(1);
    readOnly.close();
    const live = openWorldDb(file, EMBEDDING);
    expect(live.schemaVersion).toBe(MIGRATIONS.length);
    expect(live.db.prepare('SELECT endpoint FROM llm_calls').pluck().all()).toEqual([null]);
    live.close();
  });

  it('is refused read-only when a migration it lacks leaves it unreadable (the control)', () => {
    const file = schemaOneWorld();
    const lacking = MIGRATIONS.find((m) => m.version === 2)!;
    const cope = lacking.readersCope;
    lacking.readersCope = false;
    try {
      expect(() => openWorldDb(file, EMBEDDING, { readonly: true })).toThrow(/written by an older Smalltown \(schema 1\)/);
    } finally {
      lacking.readersCope = cope;
    }
  });
});
