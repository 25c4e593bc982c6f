// Snapshots of a big town are serialised in slices while the town steps on (town/snapshots.ts): what is
// captured at a step's end must not change with the steps after it, the sliced bytes must read back as
// the state, and the live loop's snapshot must be the state of the step it was taken at.
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { captureState } from '../../server/src/sim/state';
import type { SimState } from '../../server/src/sim/types';
import { deflateInSlices, SnapshotBuffers } from '../../server/src/town/snapshots';
import { readSavedTown, type SavedTown } from '../../server/src/history/stateAt';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import { openOfflineTown } from '../helpers';

const json = (s: unknown) => JSON.stringify(s);

describe('a captured sim state', () => {
  it('is not changed by the steps after it, over a day with talks, walks and a world event', async () => {
    const town = await openOfflineTown({ startTime: '2026-02-13T06:00' });
    const captures: Array<{ at: number; state: SimState; text: string }> = [];
    // A copy of each agent's own fields only (its lists shared): the control, which later steps must change.
    const shallow: Array<{ state: SimState; text: string }> = [];
    let n = 0;
    const take = () => {
      if (n++ % 25 !== 0) return;
      const state = captureState(town.sim.peekState());
      captures.push({ at: town.gameMs, state, text: json(state) });
      const s = town.sim.peekState();
      const control = { ...s, agents: s.agents.map((a) => ({ ...a })), conversations: s.conversations.map((c) => ({ ...c })) };
      shallow.push({ state: control, text: json(control) });
    };
    await town.loop.runLockstep(town.gameMs + 8 * GAME_MS_PER_HOUR, 20_000, take);
    town.commands.inject('The bakery is giving away bread', null, 'test');
    await town.loop.runLockstep(town.gameMs + 10 * GAME_MS_PER_HOUR, 20_000, take);
    expect(captures.length).toBeGreaterThan(50);
    // The day had what changes state in place: conversations and perceptions.
    expect(captures.some((c) => c.state.conversations.length > 0)).toBe(true);
    for (const c of captures) expect(json(c.state), new Date(c.at).toISOString()).toBe(c.text);
    // A capture that shared the lists would have been changed by later steps.
    expect(shallow.filter((c) => json(c.state) !== c.text).length).toBeGreaterThan(captures.length / 2);
    await town.close();
  }, 120_000);
});

describe('a snapshot serialised in slices', () => {
  it('reads back as the state, while the event loop runs between its slices', async () => {
    const town = await openOfflineTown({ startTime: '2026-02-13T06:00' });
    await town.loop.runLockstep(town.gameMs + 3 * GAME_MS_PER_HOUR, 20_000);
    const saved: SavedTown = { sim: captureState(town.sim.peekState()), clock: town.clock.getState() };
    // One resident a slice, and a turn of the event loop after each: what a slice books there runs before the next slice.
    const order: string[] = [];
    const deflated = await deflateInSlices(saved, {
      sliceMs: 0,
      onSlice: (done) => {
        order.push(`slice ${done}`);
        setImmediate(() => order.push(`turn after ${done}`));
      },
    });
    const agents = saved.sim.agents.length;
    expect(agents).toBeGreaterThan(3);
    expect(order).toEqual(Array.from({ length: agents }, (_, i) => [`slice ${i + 1}`, `turn after ${i + 1}`]).flat());
    const read = JSON.parse(inflateSync(deflated!).toString('utf8')) as unknown;
    expect(read).toEqual(JSON.parse(json(saved)));
    expect(readSavedTown({ seq: 0, gameMs: 0, state: read }).sim).toEqual(JSON.parse(json(saved.sim)));
    await town.close();
  }, 60_000);

  it('reads back when a slice outgrows its buffer, in text of any script', async () => {
    const town = await openOfflineTown({ startTime: '2026-02-13T06:00' });
    const saved: SavedTown = { sim: captureState(town.sim.peekState()), clock: town.clock.getState() };
    // Past the buffers' first megabyte in one resident, in two- to four-byte UTF-8, and the rest alternating around it.
    saved.sim.agents[1].speech = 'é☕😴'.repeat(200_000);
    saved.sim.agents[3].speech = 'ß'.repeat(700_000);
    for (const sliceMs of [0, 60_000]) {
      const deflated = await deflateInSlices(saved, { sliceMs });
      expect(JSON.parse(inflateSync(deflated!).toString('utf8'))).toEqual(JSON.parse(json(saved)));
    }
    await town.close();
  });

  it('reads back with buffers kept from one snapshot to the next: a big one, an abandoned one, then a small one', async () => {
    const town = await openOfflineTown({ startTime: '2026-02-13T06:00' });
    const small: SavedTown = { sim: captureState(town.sim.peekState()), clock: town.clock.getState() };
    const big: SavedTown = { sim: captureState(town.sim.peekState()), clock: town.clock.getState() };
    big.sim.agents = big.sim.agents.map((a, i) => ({ ...a, speech: `${i} ${'é☕'.repeat(300_000)}` }));
    const buffers = new SnapshotBuffers();
    const reads = (deflated: Buffer | null) => JSON.parse(inflateSync(deflated!).toString('utf8')) as unknown;
    const first = await deflateInSlices(big, { sliceMs: 0, buffers });
    expect(reads(first)).toEqual(JSON.parse(json(big)));
    const firstLength = first!.length;
    let slices = 0;
    expect(await deflateInSlices(big, { sliceMs: 0, buffers, onSlice: () => slices++, abandoned: () => slices >= 2 })).toBeNull();
    const second = await deflateInSlices(small, { sliceMs: 0, buffers });
    // The small state's bytes alone, in the space the big one grew (a view of it: the first is overwritten).
    expect(second!.length).toBeLessThan(firstLength / 10);
    expect(reads(second)).toEqual(JSON.parse(json(small)));
    expect(second!.buffer).toBe(first!.buffer);
    await town.close();
  });

  it('is abandoned when asked between slices', async () => {
    const town = await openOfflineTown({ startTime: '2026-02-13T06:00' });
    const saved: SavedTown = { sim: captureState(town.sim.peekState()), clock: town.clock.getState() };
    let slices = 0;
    const out = await deflateInSlices(saved, { sliceMs: 0, onSlice: () => slices++, abandoned: () => slices >= 3 });
    expect(out).toBeNull();
    expect(slices).toBe(3);
    await town.close();
  });
});

describe('the live loop’s snapshots', () => {
  it('hold the state of the step they were taken at, though the town stepped on while they were written', async () => {
    const town = await openOfflineTown({ startTime: '2026-02-13T06:50', snapshotEveryGameMinutes: 5, idlePauseMinutes: 0 });
    const byGameMs = new Map<number, string>();
    let before = town.db.snapshots.headers().length;
    let written = 0;
    let steppedMeanwhile = 0;
    for (let i = 0; i < 400 && written < 4; i++) {
      // Ticks of 100 ms (6 game seconds), three in a row with no turn of the event loop between them.
      for (let k = 0; k < 3; k++) {
        town.loop.tick(100);
        byGameMs.set(town.gameMs, json(town.sim.getState()));
      }
      await new Promise((resolve) => setImmediate(resolve));
      const headers = town.db.snapshots.headers();
      if (headers.length > before) {
        const latest = town.db.snapshots.latest()!;
        expect(byGameMs.has(latest.gameMs)).toBe(true);
        // The same state (keys in another order: the residents are written last, in slices).
        expect(readSavedTown(latest).sim).toEqual(JSON.parse(byGameMs.get(latest.gameMs)!));
        if (town.gameMs > latest.gameMs) steppedMeanwhile++;
        written++;
        before = headers.length;
      }
    }
    expect(written).toBe(4);
    expect(steppedMeanwhile).toBe(4);
    await town.close();
  }, 60_000);
});

describe('a sliced snapshot the disk refuses', () => {
  it('holds the town with the reason, and the next one written lets it run on', async () => {
    const town = await openOfflineTown({ startTime: '2026-02-13T06:50', snapshotEveryGameMinutes: 5, idlePauseMinutes: 0 });
    const save = town.db.snapshots.saveDeflated.bind(town.db.snapshots);
    let refuse = true;
    let refused = 0;
    town.db.snapshots.saveDeflated = (at, bytes) => {
      if (refuse) {
        refused++;
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      }
      save(at, bytes);
    };
    const tickUntil = async (done: () => boolean) => {
      for (let i = 0; i < 2000 && !done(); i++) {
        town.loop.tick(100);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return done();
    };
    expect(await tickUntil(() => town.holds.has('storage'))).toBe(true);
    expect(refused).toBe(1);
    expect(town.loop.storageProblem?.error).toMatch(/SQLITE_FULL/);
    const before = town.db.snapshots.headers().length;
    // The disk takes writes again: the clock is held, so nothing but the snapshot still due is written.
    refuse = false;
    expect(await tickUntil(() => !town.holds.has('storage'))).toBe(true);
    expect(town.db.snapshots.headers().length).toBe(before + 1);
    expect(town.loop.storageProblem).toBeNull();
    await town.close();
  }, 60_000);
});
