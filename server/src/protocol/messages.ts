// Messages between the browser and the town room, validated with zod at the boundary.
// Client -> server messages carry no authority of their own: the room checks the sender's role.
import { z } from 'zod';
import { MAX_TEXT_CHARS } from './constants';

export { INVALID_TOKEN_MESSAGE, MAX_TEXT_CHARS } from './constants';
const agentId = z.string().min(1).max(64);
const text = z.string().trim().min(1).max(MAX_TEXT_CHARS);

/** Operator only. */
export const ControlMessage = z.discriminatedUnion('op', [
  z.object({ op: z.literal('pause') }).strict(),
  z.object({ op: z.literal('resume') }).strict(),
  /** Advance the paused clock by this many game minutes. */
  z.object({ op: z.literal('step'), gameMinutes: z.number().int().min(1).max(240) }).strict(),
  /** Game ms per real ms: 60 = 1x (one game minute a second); the client offers 1x, 2x, 5x, 10x and max. */
  z.object({ op: z.literal('speed'), rate: z.number().min(1).max(3600) }).strict(),
]);
export type ControlMessage = z.infer<typeof ControlMessage>;

export const InterviewMessage = z.object({ requestId: z.string().max(64), agentId, question: text }).strict();
export type InterviewMessage = z.infer<typeof InterviewMessage>;

/** Writes a memory into one agent's stream: the paper's "inner voice". */
export const WhisperMessage = z.object({ agentId, text }).strict();
export type WhisperMessage = z.infer<typeof WhisperMessage>;

/** An event in the world, perceived by the agents in the arena (or by everyone when no arena is given). */
export const InjectMessage = z.object({ text, arena: z.string().max(120).optional() }).strict();
export type InjectMessage = z.infer<typeof InjectMessage>;

/** Anyone: ask for an agent's details for the inspector (read-only). */
export const InspectMessage = z.object({ requestId: z.string().max(64), agentId }).strict();
export type InspectMessage = z.infer<typeof InspectMessage>;

/** Operator only: bring a persona from the personas folder into town, or take an agent out. */
export const AgentMessage = z.discriminatedUnion('op', [
  z
    .object({
      op: z.literal('add'),
      personaId: z
        .string()
        .regex(/^[a-z][a-z0-9-]*$/)
        .max(64),
    })
    .strict(),
  z.object({ op: z.literal('remove'), agentId }).strict(),
]);
export type AgentMessage = z.infer<typeof AgentMessage>;

/** Who a client is: spectators watch; operators (with the token) may change the world. */
export type Role = 'spectator' | 'operator';

/** Server -> client. */
export interface WelcomeMessage {
  role: Role;
  world: string;
}
export interface UtteranceEvent {
  conversationId: number;
  speaker: string;
  listener: string;
  text: string;
  gameMs: number;
}
export interface FeedItem {
  seq: number;
  gameMs: number;
  kind: string;
  agentId: string | null;
  text: string;
}
export interface ErrorReply {
  type: string;
  message: string;
}
