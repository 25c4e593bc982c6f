// The running towns, as /api/towns lists them, and what an operator sends to start one.
import { z } from 'zod';

/** What a town's room publishes in the matchmaking listing (shared across processes with Redis). */
export interface TownListingMetadata {
  world: string;
  agents: number;
  mind: string;
}

export interface TownSummary {
  /** The world's name: its file, its room and `?world=` in the page's address. */
  name: string;
  agents: number;
  mind: string;
  /** Clients in the room now (spectators and operators). */
  spectators: number;
  /** Held by the process that answered (false: another process sharing the same Redis). */
  here: boolean;
  /** The page that watches it. */
  url: string;
}

export interface TownList {
  /** The world the page joins without `?world=` (this process's first). */
  defaultWorld: string;
  towns: TownSummary[];
}

/** POST /api/towns (operator): a new or resumed world on this process. */
export const StartTownRequest = z
  .object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'letters, digits, - and _ only (at most 64)'),
    /** A Tiled map on the server (default: the server's MAP_FILE). */
    map: z.string().min(1).max(1024).optional(),
    /** A persona folder on the server (default: the server's PERSONAS_DIR). */
    personas: z.string().min(1).max(1024).optional(),
  })
  .strict();
export type StartTownRequest = z.infer<typeof StartTownRequest>;

/** The page for a world. */
export function townUrl(name: string): string {
  return `/?world=${encodeURIComponent(name)}`;
}
