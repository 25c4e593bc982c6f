// The state-at-time fold: snapshot + events gives the state the live sim had, at any moment of a day;
// a world stopped without saving resumes from its last event with one history in the log.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Town } from '../../server/src/town/Town';
import { stateAt } from '../../server/src/history/stateAt';
import { isSimEvent } from '../../server/src/history/fold';
import { abandonedRanges, historyEvents } from '../../server/src/history/log';
import { positionOnPath } from '../../server/src/protocol/movement';
import { GAME_MS_PER_DAY, GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import { Rng } from '../../server/src/sim/rng';
import { openWorldDb } from '../../server/src/store/WorldDb';
import type { SimState } from '../../server/src/sim/types';
import type { DayPlan } from '../../server/src/protocol/plan';
import { asAgentId } from '../../server/src/protocol/ids';
import type { TownMap } from '../../server/src/world/types';
import { tempDir, openOfflineTown } from '../helpers';

const openTown = openOfflineTown;

/** Everything a viewer sees of the town at game time t. */
function view(state: SimState, map: TownMap, t: number) {
  return {
    agents: [...state.agents]
      .sort((a, b) => a.spec.id.localeCompare(b.spec.id))
      .map((a) => {
        const m = a.movement;
        const at = m ? positionOnPath(m.path, map.widthTiles, m.startGameMs, m.tilesPerGameMinute, t) : null;
        return {
          id: a.spec.id,
          spec: a.spec,
          x: at ? at.x : a.tile % map.widthTiles,
          y: at ? at.y : Math.floor(a.tile / map.widthTiles),
          current: a.current,
          asleep: a.asleep,
          conversationId: a.conversationId,
          speech: a.speech,
          plan: a.plan,
        };
      }),
    conversations: state.conversations.map((c) => ({ id: c.id, a: c.a, b: c.b, arena: c.arena, startedGameMs: c.startedGameMs, lines: c.lines })),
    worldEvents: state.worldEvents.filter((e) => e.untilGameMs > t),
    nextConversationId: state.nextConversationId,
  };
}

describe('the state at a game time', () => {
  it('equals the state the live sim had, over a whole offline day, at many random moments', async () => {
    const town = await openTown({ startTime: '2026-02-13T05:00', snapshotEveryGameMinutes: 15 });
    const start = town.gameMs;
    const STEP = 20_000;
    // 80 random step times of the day, seen live as the town runs.
    const rng = new Rng(7);
    const samples = Array.from({ length: 80 }, () => start + STEP * rng.int(1, GAME_MS_PER_DAY / STEP));
    const wanted = new Set(samples);
    const live = new Map<number, ReturnType<typeof view>>();
    const record = () => void (wanted.has(town.gameMs) && live.set(town.gameMs, view(town.sim.getState(), town.map, town.gameMs)));
    // The operator injects a world event midway, as in a real run.
    await town.loop.runLockstep(start + 6 * GAME_MS_PER_HOUR, STEP, record);
    town.commands.inject('The fountain in the park is flowing again', null, 'test');
    await town.loop.runLockstep(start + GAME_MS_PER_DAY, STEP, record);
    expect(live.size).toBe(wanted.size);
    let talking = 0;
    for (const t of samples) {
      const at = stateAt(town.db, town.world, t)!;
      expect(at, `a state at ${new Date(t).toISOString()}`).not.toBeNull();
      expect(at.skipped).toBe(0);
      const folded = view(at.sim, town.map, t);
      expect(folded, new Date(t).toISOString()).toEqual(live.get(t));
      talking += folded.conversations.length;
    }
    // The samples cover the interesting moments too: conversations in progress, walks half done.
    expect(talking).toBeGreaterThan(0);
    // The states above were folded from thinned snapshots: past the last 6 game hours, one every 3 game hours.
    const headers = town.db.snapshots.headers();
    const old = headers.filter((h) => h.gameMs < town.gameMs - 6 * GAME_MS_PER_HOUR);
    expect(new Set(old.map((h) => Math.floor(h.gameMs / (3 * GAME_MS_PER_HOUR)))).size).toBe(old.length);
    expect(old.length).toBeGreaterThanOrEqual(5);
    expect(old.length).toBeLessThanOrEqual(7);
    expect(headers.filter((h) => h.gameMs >= town.gameMs - 6 * GAME_MS_PER_HOUR).length).toBeGreaterThanOrEqual(23);
    await town.close();
  }, 120_000);

  it('is null before the world began, and at the end of the log is where the town stopped', async () => {
    const town = await openTown({ startTime: '2026-02-13T07:00' });
    await town.loop.runLockstep(town.gameMs + GAME_MS_PER_HOUR, 20_000);
    expect(stateAt(town.db, town.world, Date.UTC(2026, 1, 12))).toBeNull();
    const end = stateAt(town.db, town.world, null)!;
    expect(view(end.sim, town.map, town.gameMs)).toEqual(view(town.sim.getState(), town.map, town.gameMs));
    await town.close();
  }, 60_000);
});

describe('thinning old snapshots', () => {
  const saveAt = (db: ReturnType<typeof openWorldDb>, minutes: number[]) => {
    for (const m of minutes) db.snapshots.save({ seq: m, gameMs: m * 60_000, state: { m } });
  };

  it('keeps the first of each game hour before the cut, and every one after it', () => {
    const db = openWorldDb(':memory:', { model: 'm', dimension: 4 });
    saveAt(db, [0, 15, 30, 45, 60, 75, 90, 105, 120, 135]);
    expect(db.snapshots.thin(100 * 60_000, 60 * 60_000)).toBe(5);
    expect(db.snapshots.headers().map((h) => h.gameMs / 60_000)).toEqual([0, 60, 105, 120, 135]);
    // Thinning again changes nothing; the newest always stays.
    expect(db.snapshots.thin(100 * 60_000, 60 * 60_000)).toBe(0);
    expect(db.snapshots.latest()!.gameMs).toBe(135 * 60_000);
    expect(db.snapshots.atOrBefore(59 * 60_000)!.state).toEqual({ m: 0 });
    db.close();
  });

  it('keeps only the newest day of each agent in the plans table (the log holds every plan)', () => {
    const db = openWorldDb(':memory:', { model: 'm', dimension: 4 });
    const plan = (day: number) => ({ day, broadStrokes: [`day ${day}`], hourBlocks: [], actions: [] }) as unknown as DayPlan;
    for (const day of [1, 2, 3]) for (const agent of ['ana', 'ben']) db.savePlan(asAgentId(agent), plan(day));
    // A re-plan of the same day replaces it; an older day never comes back.
    db.savePlan(asAgentId('ana'), plan(3));
    const rows = db.db.prepare('SELECT agent_id AS agent, day FROM plans ORDER BY agent_id').all();
    expect(rows).toEqual([
      { agent: 'ana', day: 3 },
      { agent: 'ben', day: 3 },
    ]);
    db.close();
  });

  it('keeps every snapshot of a town that turned thinning off', async () => {
    const town = await openTown({ startTime: '2026-02-13T07:00', snapshotEveryGameMinutes: 15, snapshotThinAfterGameHours: 0 });
    await town.loop.runLockstep(town.gameMs + 3 * GAME_MS_PER_HOUR, 60_000);
    expect(town.db.snapshots.headers().length).toBeGreaterThanOrEqual(12);
    await town.close();
    const thinning = await openTown({ startTime: '2026-02-13T07:00', snapshotEveryGameMinutes: 15, snapshotThinAfterGameHours: 1 });
    await thinning.loop.runLockstep(thinning.gameMs + 3 * GAME_MS_PER_HOUR, 60_000);
    expect(thinning.db.snapshots.headers().length).toBeLessThanOrEqual(7);
    await thinning.close();
  }, 60_000);
});

describe('resuming after an unclean stop', () => {
  it('goes on from the last logged event, and the log holds one history', async () => {
    const dataDir = tempDir();
    const town = await openTown({ dataDir, startTime: '2026-02-13T07:00', snapshotEveryGameMinutes: 60 });
    await town.loop.runLockstep(town.gameMs + 100 * 60_000, 20_000);
    const before = view(town.sim.getState(), town.map, town.gameMs);
    const lastSimEvent = [...town.db.events.scan()].filter(isSimEvent).at(-1)!;
    // No close(): like a kill -9, 40 game minutes after the last snapshot.
    expect(town.gameMs - town.db.snapshots.latest()!.gameMs).toBeGreaterThanOrEqual(30 * 60_000);

    const again = await openTown({ dataDir });
    expect(again.opening.kind).toBe('resumed');
    expect(again.gameMs).toBeGreaterThanOrEqual(lastSimEvent.gameMs);
    // Where everyone was, and what they were doing, is where they are now.
    const after = view(again.sim.getState(), again.map, town.gameMs);
    expect(after.agents.map(({ id, x, y, current, asleep, plan }) => ({ id, x, y, current, asleep, plan }))).toEqual(
      before.agents.map(({ id, x, y, current, asleep, plan }) => ({ id, x, y, current, asleep, plan })),
    );
    await again.loop.runLockstep(again.gameMs + GAME_MS_PER_HOUR, 20_000);
    await again.close();

    // One history: the sim's events never go back in game time, across the restart.
    const db = openWorldDb(path.join(dataDir, 'smalltown.sqlite'), { model: again.embedder.model, dimension: again.embedder.dimension }, { readonly: true });
    expect(abandonedRanges(db)).toEqual([]);
    let last = 0;
    for (const e of historyEvents(db, {}, [])) {
      if (!isSimEvent(e)) continue;
      expect(e.gameMs, `event #${e.seq} ${e.kind}`).toBeGreaterThanOrEqual(last);
      last = e.gameMs;
    }
    db.close();
  }, 60_000);
});

describe('worlds written before event format 2', () => {
  it('skip the minutes a restart from a snapshot logged twice', () => {
    const db = openWorldDb(':memory:', { model: 'm', dimension: 4 });
    const add = (gameMs: number, kind: 'agent.action' | 'run.resumed', data: object) => db.events.append([{ gameMs, kind, agentId: null, data } as never]);
    const act = { description: 'x', emoji: '', address: 'a', asleep: false };
    add(0, 'agent.action', act);
    db.snapshots.save({ seq: db.events.lastSeq(), gameMs: 0, state: {} });
    add(60_000, 'agent.action', act); // seq 2: abandoned by the restart below
    add(120_000, 'agent.action', act); // seq 3: abandoned
    add(0, 'run.resumed', { mind: 'offline', agents: 1 }); // seq 4, no `folded`: it restarted from the snapshot
    add(60_000, 'agent.action', act); // seq 5: the history that counts
    expect(abandonedRanges(db)).toEqual([{ afterSeq: 1, beforeSeq: 4 }]);
    expect([...historyEvents(db, {}, abandonedRanges(db))].map((e) => e.seq)).toEqual([1, 4, 5]);
    db.close();
  });
});
