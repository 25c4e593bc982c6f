// Opening a world for replay: the live world's file (a second, read-only connection) or any world
// file in DATA_DIR, with the map it was recorded on. Every reason it cannot be replayed (no such
// file, corrupt, another schema or embedder, its map gone) is an error naming the file.
import fs from 'node:fs';
import path from 'node:path';
import { spectatorPath } from '../core/projectRoot';
import type { TownMap } from '../world/types';
import { loadTownMap } from '../world/map';
import { createSimWorld, type SimWorld } from '../sim/state';
import type { Embedder } from '../llm/types';
import type { RetrievalWeights } from '../store/types';
import { openWorldDb, type WorldDb } from '../store/WorldDb';
import { worldFileOf } from '../history/worlds';
import type { WallClock } from '../core/wallClock';
import { ReplaySession } from './ReplaySession';

export interface ReplayContext {
  dataDir: string;
  /** The live world: its name, file, map and mind. */
  live: { world: string; file: string; mapFile: string; simWorld: SimWorld; mind: string };
  embedder: Embedder;
  retrieval: { weights: RetrievalWeights; decayPerGameHour: number };
  wallClock: WallClock;
}

export interface OpenedReplay {
  session: ReplaySession;
  db: WorldDb;
  map: TownMap;
  /** The map file it was recorded on (the live town's when the log does not say). */
  mapFile: string;
  mind: string;
  /** Why it replays with less detail, or ''. */
  detail: string;
  close(): void;
}

export const REDUCED_DETAIL =
  'recorded before replay logged everything it needs: positions and actions are shown, but agents added later may be missing';

/** A world file (the live world's when `worldId` is null), opened read-only with this town's embedder. */
function openWorldFile(context: ReplayContext, worldId: string | null): { file: string; db: WorldDb } {
  const file = worldId === null ? context.live.file : worldFileOf(context.dataDir, worldId);
  if (!fs.existsSync(file)) throw new Error(`${file}: no such world file`);
  const embedding = { model: context.embedder.model, dimension: context.embedder.dimension };
  return { file, db: openWorldDb(file, embedding, { readonly: true, clock: context.wallClock }) };
}

export function openReplay(context: ReplayContext, worldId: string | null): OpenedReplay {
  const { file, db } = openWorldFile(context, worldId);
  try {
    const run = lastRun(db);
    const recordedMap = run?.map ?? null;
    const simWorld = worldOf(context, file, recordedMap);
    const session = new ReplaySession({ db, world: simWorld, embedder: context.embedder, retrieval: context.retrieval });
    return {
      session,
      db,
      map: simWorld.map,
      mapFile: recordedMap ?? context.live.mapFile,
      mind: run?.mind ?? context.live.mind,
      detail: db.eventFormat < 2 ? REDUCED_DETAIL : '',
      close: () => db.close(),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The map file a world was recorded on (the live town's when its log does not say), read from its log alone. */
export function recordedMapFile(context: ReplayContext, worldId: string | null): string {
  const { db } = openWorldFile(context, worldId);
  try {
    return lastRun(db)?.map ?? context.live.mapFile;
  } finally {
    db.close();
  }
}

function lastRun(db: WorldDb): { map: string | null; mind: string | null } | null {
  let map: string | null = null;
  let mind: string | null = null;
  for (const e of db.events.scan({ kinds: ['run.started', 'run.resumed'] })) {
    if (e.kind === 'run.started') map = e.data.map;
    if (e.kind === 'run.started' || e.kind === 'run.resumed') mind = e.data.mind;
  }
  // run.started names a map outside the working folder by its file name only (spectators read the log): the
  // world's recorded town (town/binding.ts) has its whole path.
  if (map !== null && !fs.existsSync(map)) map = (db.db.prepare("SELECT value FROM meta WHERE key = 'town_map'").pluck().get() as string | undefined) ?? map;
  return mind === null && map === null ? null : { map, mind };
}

/** The map a world was recorded on: the live one when it is the same file, else loaded from its path. */
function worldOf(context: ReplayContext, file: string, mapFile: string | null): SimWorld {
  if (mapFile === null || path.resolve(mapFile) === path.resolve(context.live.mapFile)) return context.live.simWorld;
  if (!fs.existsSync(mapFile)) throw new Error(`${path.basename(file)}: it was recorded on the map ${spectatorPath(mapFile)}, which is not there`);
  return createSimWorld(loadTownMap(mapFile));
}
