// A new world's first start in the background (TownParts.startInBackground, what the server does): the
// town is open and served while its residents' seed memories are rated, with the clock held 'starting';
// nothing steps until the start is done; a stop during it writes nothing more, and the next start
// seeds the rest. The mind here waits on a gate in its importance ratings, as a slow LLM would.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { Town, type TownParts } from '../../server/src/town/Town';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import type { MindContext } from '../../server/src/agent/mind';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { createLogger } from '../../server/src/town/logger';
import { subsetPersonas, tempDir } from '../helpers';

const RESIDENTS = ['isabella', 'kenji', 'ruth', 'arthur'];

/** The offline mind, its importance ratings held until the gate opens. */
class GatedMind extends OfflineMind {
  rated = 0;
  private open!: () => void;
  readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  release(): void {
    this.open();
  }
  override async rateImportance(ctx: MindContext, descriptions: string[]): Promise<number[]> {
    this.rated++;
    await this.gate;
    return super.rateImportance(ctx, descriptions);
  }
}

function setup() {
  const config = loadConfig({}, { dataDir: tempDir(), personasDir: subsetPersonas(RESIDENTS), startTime: '2026-02-13T08:00', logLevel: 'silent' });
  const warnings: string[] = [];
  const parts = (mind: OfflineMind, startInBackground: boolean): TownParts => ({
    embedder: loadOfflineEmbedder(),
    logger: { ...createLogger('silent'), warn: (m: string) => void warnings.push(m) },
    runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
    mind,
    startInBackground,
  });
  return { config, parts, warnings };
}

const started = (town: Town) => town.db.db.prepare("SELECT count(*) FROM events WHERE kind = 'run.started'").pluck().get();

describe('a new world started in the background', () => {
  it('is open at once, held while its residents are seeded, and steps only once they are', async () => {
    const { config, parts } = setup();
    const mind = new GatedMind();
    const town = await Town.open(config, parts(mind, true));
    // Every resident's ratings were asked at once, none answered: the town is open, not started.
    expect(mind.rated).toBe(RESIDENTS.length);
    expect(town.isStarted).toBe(false);
    expect(town.holds.list()).toContain('starting');
    const before = town.gameMs;
    town.loop.tick(60_000);
    expect(town.gameMs).toBe(before);
    await expect(town.commands.step(10, 'operator')).rejects.toThrow(/still starting/);
    expect(started(town)).toBe(0);

    mind.release();
    await town.whenStarted();
    expect(town.isStarted).toBe(true);
    expect(town.holds.list()).not.toContain('starting');
    expect(started(town)).toBe(1);
    for (const id of RESIDENTS) expect(town.db.memories.count(id as never), id).toBeGreaterThan(0);
    town.loop.tick(1_000);
    expect(town.gameMs).toBeGreaterThan(before);
    await town.close();
  });

  it('without it (scenarios, tests), open returns only a started town', async () => {
    const { config, parts } = setup();
    const mind = new GatedMind();
    let opened = false;
    const opening = Town.open(config, parts(mind, false)).then((t) => ((opened = true), t));
    await new Promise((r) => setTimeout(r, 50));
    expect(opened).toBe(false);
    mind.release();
    const town = await opening;
    expect(town.isStarted).toBe(true);
    expect(started(town)).toBe(1);
    await town.close();
  });

  it('stopped during its start writes nothing more: the next start seeds every resident, each once', async () => {
    const { config, parts, warnings } = setup();
    const mind = new GatedMind();
    const town = await Town.open(config, parts(mind, true));
    const closing = town.close();
    mind.release();
    await closing;

    const again = await Town.open(config, parts(new OfflineMind(), true));
    await again.whenStarted();
    expect(again.opening.kind).toBe('new');
    // The ratings came after the stop: no resident was written, so there is nothing to keep or drop.
    expect(warnings.join('\n')).not.toMatch(/first start stopped/);
    for (const id of RESIDENTS) expect(again.db.memories.count(id as never), id).toBeGreaterThan(0);
    const twice = again.db.db.prepare('SELECT count(*) FROM (SELECT 1 FROM memories GROUP BY agent_id, description HAVING count(*) > 1)').pluck().get();
    expect(twice).toBe(0);
    expect(started(again)).toBe(1);
    await again.close();
  });
});
