// Networking: joins the `town` room, keeps the decoded state, and estimates game time between patches.
// Nothing else in the client talks to the room (HTTP reads are in ./api.ts).
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '@protocol/state';
import type { Role, WelcomeMessage } from '@protocol/messages';
import { INVALID_TOKEN_MESSAGE } from '@protocol/constants';

// The tab's operator token lives in ./token.ts (the persona editor reads it too, without Colyseus).
export { forgetToken, rememberToken, takeToken } from './token';

export interface TownConnection {
  room: Room<unknown, TownState>;
  state: TownState;
  role: Role;
  /** Game time now, advanced locally at the town's rate between patches. */
  gameNow(): number;
  send(type: string, message: unknown): void;
  on(type: string, handler: (message: unknown) => void): () => void;
}

/** Whether a failed join was the room refusing the operator token (not the network, not the server). */
export function isTokenRefused(error: unknown): boolean {
  return error instanceof Error && error.message.includes(INVALID_TOKEN_MESSAGE);
}

/** Joins the running town of that world (`town` rooms are found by world, on whichever process holds it). */
export async function connectToTown(world: string, token: string | null): Promise<TownConnection> {
  const client = new Client(`${location.protocol}//${location.host}`);
  const room = await client.join<TownState>('town', token ? { world, token } : { world }, TownState);
  let role: Role = 'spectator';
  room.onMessage('welcome', (m: WelcomeMessage) => (role = m.role));
  // Lines and feed items also arrive as messages; panels subscribe with `on`. Until one does, keep quiet.
  for (const type of ['news', 'inspect', 'interview', 'whispered', 'error']) room.onMessage(type, () => undefined);
  const clock = await followGameClock(room);
  return {
    room,
    get state() {
      return room.state;
    },
    get role() {
      return role;
    },
    gameNow() {
      const s = room.state;
      return s.paused || s.holdReason ? clock.gameMs : clock.ahead(s.rate);
    },
    send(type, message) {
      room.send(type, message);
    },
    on(type, handler) {
      return room.onMessage(type, handler);
    },
  };
}

/** Never run more than half a second of real time ahead of the last patch. */
const MAX_AHEAD_MS = 500;

/**
 * Follows a room's game clock between patches: the last game time received, and how far it has run
 * since at a rate. Resolves once the first full state has arrived (right after joining or creating).
 */
export async function followGameClock(room: Room<unknown, TownState>): Promise<{ readonly gameMs: number; ahead(rate: number): number }> {
  let anchorGameMs = 0;
  let anchorLocalMs = performance.now();
  room.onStateChange(() => {
    anchorGameMs = room.state.gameMs;
    anchorLocalMs = performance.now();
  });
  await new Promise<void>((resolve) => {
    if (room.state?.mapWidth) return resolve();
    room.onStateChange.once(() => resolve());
  });
  return {
    get gameMs() {
      return anchorGameMs;
    },
    ahead: (rate) => anchorGameMs + Math.min(performance.now() - anchorLocalMs, MAX_AHEAD_MS) * rate,
  };
}
