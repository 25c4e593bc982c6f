// Replay: the messages a viewer sends its own replay room, and what the page shows about the past.
import { z } from 'zod';
import type { FeedItem, UtteranceEvent } from './messages';
import type { PlaceTree } from './places';

/** Speeds a replay plays at: game ms per real ms (60 = 1×), up to 600×. */
export const REPLAY_RATES = [60, 300, 600, 3_600, 36_000] as const;

export const SeekMessage = z.object({ t: z.number().finite() }).strict();
export const PlayMessage = z.object({ rate: z.number().min(1).max(36_000) }).strict();
export const PauseMessage = z.object({}).strict();
export type SeekMessage = z.infer<typeof SeekMessage>;
export type PlayMessage = z.infer<typeof PlayMessage>;

/** What the page shows along the timeline, colour by kind; hover shows `label`. */
export type MarkerKind = 'conversation' | 'reflection' | 'plan' | 'world' | 'operator';

export interface TimelineMarker {
  kind: MarkerKind;
  gameMs: number;
  /** For spans (a conversation): when it ended. */
  endGameMs?: number;
  agentId: string | null;
  label: string;
}

/** The feed and conversation lines up to the moment a viewer seeks to. */
export interface ReplayHistory {
  gameMs: number;
  feed: FeedItem[];
  utterances: UtteranceEvent[];
}

/** GET /api/worlds: the world files in DATA_DIR and its backups, for the replay picker and the analysis page. */
export interface WorldListing {
  /** The live (default) world's id. */
  live: string;
  worlds: WorldFileListing[];
}

export interface WorldFileListing {
  /** "smalltown", or "backups/smalltown-2026-…": what `?world=` names. */
  id: string;
  kind: 'world' | 'backup';
  /** A town running in this server (its file is read through a second, read-only connection). */
  live: boolean;
  sizeBytes: number;
  span: { firstGameMs: number; lastGameMs: number } | null;
  agents: number;
  mind: string | null;
  /** Replays with less detail (recorded before events carried everything). */
  reduced: boolean;
  /** Why it cannot be opened, naming the file. */
  error?: string;
}

/** GET /api/timeline?world=: a world's recorded span and its markers. */
export interface Timeline {
  span: { firstGameMs: number; lastGameMs: number };
  markers: TimelineMarker[];
  /** Why it replays with less detail, or ''. */
  detail: string;
}

/** GET /api/replay/world?world=: what the page needs to replay a world file that is not a running town. */
export interface ReplayWorldInfo {
  id: string;
  /** The map's name for its world (the place tree's root). */
  world: string;
  /** Where its Tiled map is served. */
  mapUrl: string;
  places: PlaceTree;
  mind: string;
  span: { firstGameMs: number; lastGameMs: number };
  detail: string;
}
