// A new world's first start commits its residents' seed memories a slice at a time, each slice in one
// transaction with its `memory.created` events, so a start cut short (a kill, a stop, a failed rating)
// leaves whole residents in the file; the next start keeps them and seeds only the rest. A persona edited
// in between makes the next start clear what was written and start anew.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateTown } from '../../scripts/generateTown';
import { loadConfig } from '../../server/src/config';
import { Town, type TownParts } from '../../server/src/town/Town';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import type { MindContext } from '../../server/src/agent/mind';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { SEED_AGENTS_PER_TURN } from '../../server/src/agent/operations/interview';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { createLogger } from '../../server/src/town/logger';
import { tempDir, waitFor } from '../helpers';

const AGENTS = 60;

/** The offline mind, counting its importance ratings; the `holdAt`-th waits for release(), the `failAt`-th throws. */
class SeedingMind extends OfflineMind {
  rated = 0;
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  constructor(private readonly at: { holdAt?: number; failAt?: number } = {}) {
    super();
  }
  release(): void {
    this.open();
  }
  override async rateImportance(ctx: MindContext, descriptions: string[]): Promise<number[]> {
    const n = ++this.rated;
    if (n === this.at.failAt) throw new Error('the process died here');
    if (n === this.at.holdAt) await this.gate;
    return super.rateImportance(ctx, descriptions);
  }
}

let town: { mapFile: string; personasDir: string };
beforeAll(() => {
  town = generateTown({ agents: AGENTS, outDir: tempDir(), seed: 2 });
});

function setup() {
  const dataDir = tempDir();
  const config = loadConfig({}, { dataDir, mapFile: town.mapFile, personasDir: town.personasDir, startTime: '2026-02-13T08:00', logLevel: 'silent' });
  const warnings: string[] = [];
  const parts = (mind: OfflineMind, startInBackground = false): TownParts => ({
    embedder: loadOfflineEmbedder(),
    logger: { ...createLogger('silent'), warn: (m: string) => void warnings.push(m) },
    runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
    mind,
    startInBackground,
  });
  return { config, parts, warnings, file: path.join(dataDir, `${config.world}.sqlite`) };
}

/** What another process finds in the file (a restart after a kill): each agent's memory count and its logged memories. */
function committed(file: string): { seeded: string[]; memories: number; logged: number; started: number } {
  const db = new Database(file, { readonly: true });
  try {
    const seeded = db.prepare('SELECT agent_id FROM memories GROUP BY agent_id ORDER BY min(id)').pluck().all() as string[];
    const memories = db.prepare('SELECT count(*) FROM memories').pluck().get() as number;
    const logged = db.prepare("SELECT count(*) FROM events WHERE kind = 'memory.created'").pluck().get() as number;
    const started = db.prepare("SELECT count(*) FROM events WHERE kind = 'run.started'").pluck().get() as number;
    return { seeded, memories, logged, started };
  } finally {
    db.close();
  }
}

function expectEachSeededOnce(t: Town): void {
  for (const [id, p] of t.personas) expect(t.db.memories.count(id as never), id).toBe(1 + p.seedMemories.length);
  const logged = t.db.db.prepare("SELECT count(*) FROM events WHERE kind = 'memory.created'").pluck().get();
  expect(logged).toBe(t.db.memories.count());
  expect(t.db.db.prepare("SELECT count(*) FROM events WHERE kind = 'run.started'").pluck().get()).toBe(1);
}

describe('a new world’s first start, in slices', () => {
  it('commits a slice of residents at a time, each with its events; stopped, the next start seeds only the rest', async () => {
    const { config, parts, warnings, file } = setup();
    // The rating of the 31st resident waits: the first slice is written, the second waits for it.
    const mind = new SeedingMind({ holdAt: SEED_AGENTS_PER_TURN + 6 });
    const first = await Town.open(config, parts(mind, true));
    const order = [...first.personas.keys()];
    await waitFor('the first slice', () => committed(file).memories > 0);
    const seen = committed(file);
    expect(seen.seeded).toEqual(order.slice(0, SEED_AGENTS_PER_TURN));
    expect(seen.logged).toBe(seen.memories);
    expect(seen.started).toBe(0);

    // A stop now: the slice waiting for its ratings is not written.
    const closing = first.close();
    mind.release();
    await closing;
    expect(committed(file).seeded).toHaveLength(SEED_AGENTS_PER_TURN);

    const counting = new SeedingMind();
    const again = await Town.open(config, parts(counting));
    expect(again.opening.kind).toBe('new');
    expect(warnings.join('\n')).toMatch(new RegExp(`with ${SEED_AGENTS_PER_TURN} of ${AGENTS} residents seeded; seeding the rest`));
    expect(counting.rated).toBe(AGENTS - SEED_AGENTS_PER_TURN);
    expectEachSeededOnce(again);
    const before = again.gameMs;
    await again.loop.runLockstep(before + 10 * 60_000);
    expect(again.gameMs).toBeGreaterThan(before);
    await again.close();
  });

  it('cut short by a failed rating, keeps the residents before it, their rows as they were, and seeds the rest', async () => {
    const { config, parts, warnings, file } = setup();
    await expect(Town.open(config, parts(new SeedingMind({ failAt: 40 })))).rejects.toThrow(/died here/);
    const left = committed(file);
    expect(left.seeded).toHaveLength(39);
    expect(left.logged).toBe(left.memories);
    const reader = new Database(file, { readonly: true });
    const rows = reader.prepare('SELECT id, agent_id, description, importance FROM memories ORDER BY id').all();
    reader.close();

    const counting = new SeedingMind();
    const again = await Town.open(config, parts(counting));
    expect(warnings.join('\n')).toMatch(new RegExp(`with 39 of ${AGENTS} residents seeded; seeding the rest`));
    expect(counting.rated).toBe(AGENTS - 39);
    expectEachSeededOnce(again);
    expect(again.db.db.prepare(`SELECT id, agent_id, description, importance FROM memories ORDER BY id LIMIT ${rows.length}`).all()).toEqual(rows);
    await again.close();
  });

  it('starts anew when a seeded persona was edited since: its old seeds are not kept', async () => {
    const { config, parts, warnings } = setup();
    const personasDir = fs.mkdtempSync(path.join(tempDir(), 'personas-'));
    fs.cpSync(town.personasDir, personasDir, { recursive: true });
    const edited = { ...config, personasDir };
    await expect(Town.open(edited, parts(new SeedingMind({ failAt: 30 })))).rejects.toThrow(/died here/);
    const firstFile = fs.readdirSync(personasDir).filter((f) => f.endsWith('.yaml'))[0];
    const text = fs.readFileSync(path.join(personasDir, firstFile), 'utf8');
    fs.writeFileSync(path.join(personasDir, firstFile), text.replace(/^currently: .*$/m, 'currently: reading a new book about the sea.'));

    const counting = new SeedingMind();
    const again = await Town.open(edited, parts(counting));
    expect(warnings.join('\n')).toMatch(/first start stopped before the world was first saved; starting anew \(dropped \d+ memories/);
    expect(counting.rated).toBe(AGENTS);
    expectEachSeededOnce(again);
    const id = path.basename(firstFile, '.yaml');
    expect(again.db.memories.recent(id as never, 10).map((m) => m.description)).toContain('reading a new book about the sea.');
    await again.close();
  });
});
