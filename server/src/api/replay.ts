// HTTP for replay: the world files a viewer may open, a world's timeline (span and markers), what the
// page needs to replay a world file that is no running town (its map and place tree), and that map's
// files. Read-only, open to spectators. Files are opened read-only; the live world is read from its own file.
import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import { listWorldFiles } from '../history/worlds';
import { openReplay, recordedMapFile, type OpenedReplay, type ReplayContext } from '../replay/open';
import { timelineMarkers } from '../replay/markers';
import type { ReplayWorldInfo, Timeline, WorldListing } from '../protocol/replay';
import { serveWorldMaps, worldMapOf, type WorldMap } from './mapFiles';
import { hidePaths } from './errors';

export type { Timeline, WorldListing } from '../protocol/replay';

/** Where the page loads a recorded world's map: the live town's own address when it is the same map. */
export function recordedMapUrl(context: ReplayContext, worldId: string, mapFile: string): string {
  if (path.resolve(mapFile) === path.resolve(context.live.mapFile)) return `/maps/${encodeURIComponent(path.basename(mapFile))}`;
  return `/replays/${encodeURIComponent(worldId)}/map/${encodeURIComponent(path.basename(mapFile))}`;
}

export function replayRouter(context: ReplayContext): express.Router {
  const router = express.Router();
  /** Opens the world named by ?world= (the live one when absent), answering 404 with the reason when it cannot. */
  const withReplay = <T>(req: express.Request, res: express.Response, use: (opened: OpenedReplay, world: string | null) => T): void => {
    const world = typeof req.query.world === 'string' && req.query.world !== '' ? req.query.world : null;
    let opened: OpenedReplay;
    try {
      opened = openReplay(context, world === context.live.world ? null : world);
    } catch (error) {
      res.status(404).json({ error: hidePaths(error instanceof Error ? error.message.replace(context.dataDir, 'DATA_DIR') : String(error)) });
      return;
    }
    try {
      res.json(use(opened, world));
    } finally {
      opened.close();
    }
  };

  router.get('/worlds', (_req, res) => {
    const listing: WorldListing = {
      live: context.live.world,
      worlds: listWorldFiles(context.dataDir).map((w) => ({
        id: w.id,
        kind: w.kind,
        live: w.kind === 'world' && w.id === context.live.world,
        sizeBytes: w.sizeBytes,
        span: w.span,
        agents: w.agents,
        mind: w.mind,
        reduced: w.eventFormat > 0 && w.eventFormat < 2,
        // The reason, without the server's folders.
        error: w.error?.replace(w.file, `${w.id}.sqlite`),
      })),
    };
    res.json(listing);
  });
  router.get('/timeline', (req, res) =>
    withReplay(req, res, (opened): Timeline => ({
      span: opened.session.currentSpan(),
      markers: timelineMarkers(opened.db, opened.session.nameOf),
      detail: opened.detail,
    })),
  );
  router.get('/replay/world', (req, res) =>
    withReplay(req, res, (opened, world): ReplayWorldInfo => {
      const id = world ?? context.live.world;
      return {
        id,
        world: opened.map.places.world,
        mapUrl: recordedMapUrl(context, id, opened.mapFile),
        places: opened.map.places,
        mind: opened.mind,
        span: opened.session.currentSpan(),
        detail: opened.detail,
      };
    }),
  );
  return router;
}

/**
 * GET /replays/<world>/map/…: the map a recorded world was made on, by the same rules as /maps (the map
 * and the images it names, nothing else). Which map is read from the world's log; each map is read once.
 */
export function serveRecordedMaps(context: ReplayContext): express.RequestHandler {
  const maps = new Map<string, WorldMap>();
  return serveWorldMaps((world) => {
    let mapFile: string;
    try {
      mapFile = recordedMapFile(context, world === context.live.world ? null : world);
    } catch {
      return null;
    }
    if (!fs.existsSync(mapFile)) return null;
    let map = maps.get(mapFile);
    if (!map) maps.set(mapFile, (map = worldMapOf(mapFile)));
    return map;
  });
}
