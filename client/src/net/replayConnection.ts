// A viewer's own replay room: the same state and messages as the live town, so every panel draws it
// the same way; game time between patches advances at the replay's rate and never past its span.
import { Client } from '@colyseus/sdk';
import { TownState } from '@protocol/state';
import { followGameClock, type TownConnection } from './townConnection';

export interface ReplayTarget {
  /** A world file id from /api/worlds; null for the live world. */
  world: string | null;
  gameMs: number;
}

/** Opens a replay room at a moment. Rejects with the server's reason when the world cannot be replayed. */
export async function connectToReplay(target: ReplayTarget): Promise<TownConnection> {
  const client = new Client(`${location.protocol}//${location.host}`);
  const options: Record<string, unknown> = { t: Math.round(target.gameMs) };
  if (target.world) options.world = target.world;
  const room = await client.join<TownState>('replay', options, TownState);
  for (const type of ['welcome', 'news', 'inspect', 'history']) room.onMessage(type, () => undefined);
  const clock = await followGameClock(room);
  return {
    room,
    get state() {
      return room.state;
    },
    role: 'spectator',
    gameNow() {
      const s = room.state;
      return s.replayRate > 0 ? Math.min(clock.ahead(s.replayRate), s.spanEndGameMs) : s.gameMs;
    },
    send(type, message) {
      room.send(type, message);
    },
    on(type, handler) {
      return room.onMessage(type, handler);
    },
  };
}
