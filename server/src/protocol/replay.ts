// Replay: the messages a viewer sends its own replay room, and what the page shows about the past.
import { z } from 'zod';
import type { FeedItem, UtteranceEvent } from './messages';

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
