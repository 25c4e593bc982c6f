// Networking: joins the `town` room, keeps the decoded state, and estimates game time between patches.
// Nothing else in the client talks to the server.
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '@protocol/state';
import type { Role, WelcomeMessage } from '@protocol/messages';

export interface TownConnection {
  room: Room<unknown, TownState>;
  state: TownState;
  role: Role;
  /** Game time now, advanced locally at the town's rate between patches. */
  gameNow(): number;
  send(type: string, message: unknown): void;
  on(type: string, handler: (message: unknown) => void): () => void;
}

/** The operator token from `?token=` (remembered for the tab), or null for a spectator. */
export function readToken(): string | null {
  const fromUrl = new URLSearchParams(location.search).get('token');
  if (fromUrl) sessionStorage.setItem('smalltown-token', fromUrl);
  return fromUrl ?? sessionStorage.getItem('smalltown-token');
}

/** Joins the running town of that world (`town` rooms are found by world, on whichever process holds it). */
export async function connectToTown(world: string): Promise<TownConnection> {
  const client = new Client(`${location.protocol}//${location.host}`);
  const token = readToken();
  const room = await client.join<TownState>('town', token ? { world, token } : { world }, TownState);
  let role: Role = 'spectator';
  room.onMessage('welcome', (m: WelcomeMessage) => (role = m.role));
  // Lines and feed items also arrive as messages; panels subscribe with `on`. Until one does, keep quiet.
  for (const type of ['utterance', 'feed', 'inspect', 'interview', 'whispered']) room.onMessage(type, () => undefined);
  // Anchor for the local clock: the last game time received, and when.
  let anchorGameMs = 0;
  let anchorLocalMs = performance.now();
  room.onStateChange(() => {
    anchorGameMs = room.state.gameMs;
    anchorLocalMs = performance.now();
  });
  // The first full state arrives right after joining.
  await new Promise<void>((resolve) => {
    if (room.state?.mapWidth) return resolve();
    room.onStateChange.once(() => resolve());
  });
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
      if (s.paused || s.holdReason) return anchorGameMs;
      // Never run more than half a second of real time ahead of the last patch.
      const ahead = Math.min(performance.now() - anchorLocalMs, 500);
      return anchorGameMs + ahead * s.rate;
    },
    send(type, message) {
      room.send(type, message);
    },
    on(type, handler) {
      return room.onMessage(type, handler);
    },
  };
}
