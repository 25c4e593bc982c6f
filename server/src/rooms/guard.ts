// The checks every room makes on a client message before acting on it: rate (a token bucket per
// client), role, and shape (zod). Every refusal is answered with an `error` naming the message.
import type { Client } from '@colyseus/core';
import type { z } from 'zod';
import type { ErrorReply, Role } from '../protocol/messages';
import { hidePaths } from '../core/projectRoot';
import type { WallClock } from '../core/wallClock';

/** Messages a client may send per second before it gets "slow down" errors. */
export const MESSAGES_PER_SECOND = 8;
const MESSAGE_BURST = 16;

export interface ClientAuth {
  role: Role;
}

export class MessageGuard {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly clock: WallClock) {}

  /** Checks rate, role and shape, then runs the action; its failure is answered too. */
  handle<S extends z.ZodType>(
    client: Client,
    type: string,
    schema: S,
    raw: unknown,
    operatorOnly: boolean,
    run: (message: z.infer<S>) => Promise<void> | void,
  ): void {
    if (!this.allow(client)) return refuse(client, type, `too many messages: at most ${MESSAGES_PER_SECOND} a second`);
    if (operatorOnly && (client.auth as ClientAuth | undefined)?.role !== 'operator')
      return refuse(client, type, `'${type}' needs the operator token; spectators can only watch`);
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refuse(client, type, `bad '${type}' message: ${issue.path.join('.') || '(message)'}: ${issue.message}`);
    }
    Promise.resolve()
      .then(() => run(parsed.data))
      .catch((error: unknown) => refuse(client, type, error instanceof Error ? error.message : String(error)));
  }

  forget(client: Client): void {
    this.buckets.delete(client.sessionId);
  }

  private allow(client: Client): boolean {
    const now = this.clock.now();
    const b = this.buckets.get(client.sessionId) ?? { tokens: MESSAGE_BURST, at: now };
    b.tokens = Math.min(MESSAGE_BURST, b.tokens + ((now - b.at) / 1000) * MESSAGES_PER_SECOND);
    b.at = now;
    this.buckets.set(client.sessionId, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

export function refuse(client: Client, type: string, message: string): void {
  // Scrubbed as HTTP errors are: a server folder never reaches a client (api/errors.ts).
  const reply: ErrorReply = { type, message: hidePaths(message) };
  client.send('error', reply);
}
