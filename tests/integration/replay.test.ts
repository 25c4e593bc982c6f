// Replay over a real server: a viewer opens its own replay room, seeks, plays and inspects the past;
// the live town and other viewers are untouched; broken and foreign files are refused with a reason.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '../../server/src/protocol/state';
import type { ReplayHistory, ReplayWorldInfo } from '../../server/src/protocol/replay';
import type { InspectReply } from '../../server/src/protocol/inspection';
import type { Timeline, WorldListing } from '../../server/src/protocol/replay';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { createLogger } from '../../server/src/town/logger';
import { stateAt } from '../../server/src/history/stateAt';
import { positionOnPath } from '../../server/src/protocol/movement';
import { GAME_MS_PER_HOUR, formatIsoMinute } from '../../server/src/protocol/time';
import { ManualClock } from '../../server/src/core/wallClock';
import { startTestTown } from '../helpers';

type Replay = Room<unknown, TownState>;
const nextPatch = (room: Replay) => new Promise<void>((resolve) => room.onStateChange.once(() => resolve()));
const nextMessage = <T>(room: Replay, type: string) =>
  new Promise<T>((resolve) => {
    const off = room.onMessage(type, (m: T) => {
      off();
      resolve(m);
    });
  });
/** The history of a fresh replay room: asked for once the handler listens. */
function historyOf(room: Replay): Promise<ReplayHistory> {
  const reply = nextMessage<ReplayHistory>(room, 'history');
  room.send('history', {});
  return reply;
}

/** Waits, patch by patch, until the state says so (a change always comes with a patch). */
async function until(room: Replay, check: () => boolean): Promise<void> {
  while (!check()) await nextPatch(room);
}

/** Where each agent stands at the room's game time, as the client would draw it. */
function positions(state: TownState) {
  const out: Record<string, { x: number; y: number; action: string; speech: string }> = {};
  state.agents.forEach((a, id) => {
    const p =
      a.path.length > 1 ? positionOnPath([...a.path], state.mapWidth, a.pathStartGameMs, a.tilesPerGameMinute, state.gameMs) : { x: a.tileX, y: a.tileY };
    out[id] = { x: p.x, y: p.y, action: a.action, speech: a.speech };
  });
  return out;
}

describe('replay', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  const wall = new ManualClock();
  let start: number;

  beforeAll(async () => {
    town = await startTestTown({ startTime: '2026-02-13T07:00', snapshotEveryGameMinutes: 15 }, { wallClock: wall });
    start = town.town.gameMs;
    await town.town.loop.runLockstep(start + 4 * GAME_MS_PER_HOUR, 20_000);
  }, 60_000);
  afterAll(async () => town?.close());

  it('lists the world files and gives the live world its timeline', async () => {
    const listing = (await (await fetch(`${town.url}/api/worlds`)).json()) as WorldListing;
    expect(listing.live).toBe('smalltown');
    const live = listing.worlds.find((w) => w.live)!;
    expect(live.agents).toBe(10);
    expect(live.span!.lastGameMs).toBeGreaterThan(start + 3 * GAME_MS_PER_HOUR);
    expect(JSON.stringify(listing)).not.toContain(town.dataDir);
    const timeline = (await (await fetch(`${town.url}/api/timeline`)).json()) as Timeline;
    expect(timeline.markers.some((m) => m.kind === 'plan')).toBe(true);
    expect(timeline.markers.some((m) => m.kind === 'conversation' && m.endGameMs! > m.gameMs)).toBe(true);
  });

  it('shows the town as it was at a moment, the same every time it comes back to it, while the live room stays live', async () => {
    const t = start + 2 * GAME_MS_PER_HOUR + 17 * 60_000;
    const viewer = new Client(town.url);
    const replay: Replay = await viewer.join<TownState>('replay', { t: formatIsoMinute(t) }, TownState);
    const history = await historyOf(replay);
    await until(replay, () => replay.state.mapWidth > 0);
    expect(replay.state.mode).toBe('replay');
    expect(replay.state.gameMs).toBe(t);
    expect(history.gameMs).toBe(t);
    expect(history.feed.every((f) => f.gameMs <= t)).toBe(true);
    const first = positions(replay.state);
    // The fold, straight from the file, agrees with what the room sends.
    const at = stateAt(town.town.db, town.town.world, t)!;
    for (const a of at.sim.agents) {
      const m = a.movement;
      const p = m
        ? positionOnPath(m.path, town.town.map.widthTiles, m.startGameMs, m.tilesPerGameMinute, t)
        : { x: a.tile % town.town.map.widthTiles, y: Math.floor(a.tile / town.town.map.widthTiles) };
      expect(first[a.spec.id], a.spec.id).toEqual({ x: p.x, y: p.y, action: a.current.description, speech: a.speech });
    }
    // A second viewer watches live meanwhile.
    const live = await new Client(town.url).join<TownState>('town', {}, TownState);
    live.onMessage('*', () => undefined);
    const liveBefore = live.state.gameMs || town.town.gameMs;

    // Forward, back again: the same.
    replay.send('seek', { t: t + GAME_MS_PER_HOUR });
    await until(replay, () => replay.state.gameMs === t + GAME_MS_PER_HOUR);
    expect(positions(replay.state)).not.toEqual(first);
    replay.send('seek', { t });
    await until(replay, () => replay.state.gameMs === t);
    expect(positions(replay.state)).toEqual(first);

    // Play at 600x: game time moves with the wall clock; the live town does not move because of it.
    replay.send('play', { rate: 600 });
    await until(replay, () => replay.state.replayRate === 600);
    wall.advance(1000);
    await until(replay, () => replay.state.gameMs >= t + 600_000);
    expect(replay.state.gameMs).toBe(t + 600_000);
    expect(live.state.mode).toBe('live');
    expect(town.town.gameMs).toBeGreaterThanOrEqual(liveBefore);
    await live.leave();
    await replay.leave();
  });

  it('inspects an agent as of the moment: its plan step then, and only memories it held then', async () => {
    const t = start + GAME_MS_PER_HOUR;
    const replay: Replay = await new Client(town.url).join<TownState>('replay', { t }, TownState);
    await historyOf(replay);
    // The busiest agent: the one with the most memories by the end of the run.
    const [busiest] = town.town.db.db.prepare('SELECT agent_id FROM memories GROUP BY agent_id ORDER BY count(*) DESC LIMIT 1').pluck().all() as string[];
    replay.send('inspect', { requestId: 'r1', agentId: busiest });
    const reply = await nextMessage<InspectReply>(replay, 'inspect');
    if ('error' in reply) throw new Error(reply.error);
    expect(reply.atGameMs).toBe(t);
    expect(reply.name).toBe(town.town.personas.get(busiest)!.name);
    expect(reply.recent.length).toBeGreaterThan(0);
    for (const m of [...reply.recent, ...reply.relevant]) expect(m.createdGameMs).toBeLessThanOrEqual(t);
    const liveCount = town.town.db.memories.count(busiest as never);
    expect(reply.recent.length).toBeLessThan(liveCount);
    expect(reply.plan?.currentIndex).toBeGreaterThanOrEqual(-1);
    await replay.leave();
  });

  it('opens a backup from the picker, and refuses a broken or foreign file with its name and the reason', async () => {
    const backups = path.join(town.dataDir, 'backups');
    fs.mkdirSync(backups, { recursive: true });
    await town.town.db.backupTo(path.join(backups, 'smalltown-copy.sqlite'));
    fs.writeFileSync(path.join(town.dataDir, 'broken.sqlite'), 'this is not a database '.repeat(50));
    const listing = (await (await fetch(`${town.url}/api/worlds`)).json()) as WorldListing;
    expect(listing.worlds.find((w) => w.id === 'backups/smalltown-copy')?.agents).toBe(10);
    expect(listing.worlds.find((w) => w.id === 'broken')?.error).toMatch(/broken\.sqlite.*not a readable world file/);

    const backup: Replay = await new Client(town.url).join<TownState>('replay', { world: 'backups/smalltown-copy', t: start + GAME_MS_PER_HOUR }, TownState);
    await historyOf(backup);
    expect(backup.state.agents.size).toBe(10);
    await backup.leave();
    await expect(new Client(town.url).join('replay', { world: 'broken' })).rejects.toThrow(/broken\.sqlite/);
    await expect(new Client(town.url).join('replay', { world: '../etc/passwd' })).rejects.toThrow(/not a world name/);
    const timeline = await fetch(`${town.url}/api/timeline?world=broken`);
    expect(timeline.status).toBe(404);
    expect(((await timeline.json()) as { error: string }).error).toMatch(/broken\.sqlite/);
    // The live town is fine.
    expect((await fetch(`${town.url}/healthz`)).status).toBe(200);
  });

  it('gives the page what it needs to replay a world recorded on another map, and serves that map by the same rules', async () => {
    // A world file from another map (a third-party map whose tileset sits in a sibling folder), written beside the live one.
    const config = loadConfig(
      {},
      {
        dataDir: town.dataDir,
        world: 'meadow',
        mapFile: 'tests/fixtures/adopted/maps/meadow.tmj',
        personasDir: 'tests/fixtures/adopted/personas',
        startTime: '2026-02-13T11:00',
        logLevel: 'silent',
      },
    );
    const meadow = await Town.open(config, {
      mind: new OfflineMind(),
      embedder: loadOfflineEmbedder(),
      logger: createLogger('silent'),
      runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
    });
    await meadow.loop.runLockstep(meadow.gameMs + GAME_MS_PER_HOUR, 20_000);
    await meadow.close();

    const info = (await (await fetch(`${town.url}/api/replay/world?world=meadow`)).json()) as ReplayWorldInfo;
    expect(info.mapUrl).toBe('/replays/meadow/map/meadow.tmj');
    expect(info.places.sectors.map((s) => s.name)).toContain('Camp');
    expect(info.span.lastGameMs).toBeGreaterThan(info.span.firstGameMs);
    const map = (await (await fetch(`${town.url}${info.mapUrl}`)).json()) as { tilesets: Array<{ image: string }> };
    const image = await fetch(`${town.url}/replays/meadow/map/${map.tilesets[0].image}`);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
    // Only the map and its images: nothing beside them, no way out of the folder.
    expect((await fetch(`${town.url}/replays/meadow/map/meadow.yaml`)).status).toBe(404);
    expect((await fetch(`${town.url}/replays/meadow/map/..%2F..%2Fpackage.json`)).status).toBe(404);
    // The live world's file replays on the map the page already has.
    const live = (await (await fetch(`${town.url}/api/replay/world?world=smalltown`)).json()) as ReplayWorldInfo;
    expect(live.mapUrl).toBe('/maps/town.tmj');
    const missing = await fetch(`${town.url}/api/replay/world?world=atlantis`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toMatch(/atlantis\.sqlite: no such world file/);
  });
});
