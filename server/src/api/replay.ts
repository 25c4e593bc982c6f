// HTTP for replay: the world files a viewer may open, and a world's timeline (span and markers).
// Read-only, open to spectators. Files are opened read-only; the live world is read from its own file.
import express from 'express';
import { listWorldFiles } from '../history/worlds';
import { openReplay, type ReplayContext } from '../replay/open';
import { timelineMarkers } from '../replay/markers';
import type { TimelineMarker } from '../protocol/replay';

export interface WorldListing {
  /** The live world's id. */
  live: string;
  worlds: Array<{
    id: string;
    kind: 'world' | 'backup';
    live: boolean;
    sizeBytes: number;
    span: { firstGameMs: number; lastGameMs: number } | null;
    agents: number;
    mind: string | null;
    /** Replays with less detail (recorded before events carried everything). */
    reduced: boolean;
    error?: string;
  }>;
}

export interface Timeline {
  span: { firstGameMs: number; lastGameMs: number };
  markers: TimelineMarker[];
  detail: string;
}

export function replayRouter(context: ReplayContext): express.Router {
  const router = express.Router();
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
  router.get('/timeline', (req, res) => {
    const world = typeof req.query.world === 'string' && req.query.world !== '' ? req.query.world : null;
    let opened;
    try {
      opened = openReplay(context, world === context.live.world ? null : world);
    } catch (error) {
      res.status(404).json({ error: error instanceof Error ? error.message.replace(context.dataDir, 'DATA_DIR') : String(error) });
      return;
    }
    try {
      const timeline: Timeline = { span: opened.session.currentSpan(), markers: timelineMarkers(opened.db, opened.session.nameOf), detail: opened.detail };
      res.json(timeline);
    } finally {
      opened.close();
    }
  });
  return router;
}
