// Several processes, one set of towns: with REDIS_URL, Colyseus's own Redis presence and driver share
// the matchmaking listing and its messages between processes. This module adds only what Colyseus
// leaves to the deployment: which process creates a room (a town's room where its Town is; a replay
// where the live world it replays is), and where each process can be reached by the others, so the
// one a viewer reached can relay them to the holder (relay.ts).
import { matchMaker, type Presence, type IRoomCache } from '@colyseus/core';
// The Redis packages are loaded only when REDIS_URL is set (connectRedis): a single process never loads them.
import type { RedisPresence } from '@colyseus/redis-presence';
import type { RedisDriver } from '@colyseus/redis-driver';
import { redactUrl } from '../config';
import type { TownListingMetadata } from '../protocol/towns';

/** Process id -> host:port, in the shared presence. */
const ADDRESSES_KEY = 'smalltown:process-addresses';
const CONNECT_TIMEOUT_MS = 5000;

export interface RedisServices {
  presence: RedisPresence;
  driver: RedisDriver;
}

/** Presence and driver over REDIS_URL; refuses to start, naming the setting, when Redis does not answer. */
export async function connectRedis(url: string): Promise<RedisServices> {
  const [{ RedisPresence }, { RedisDriver }] = await Promise.all([import('@colyseus/redis-presence'), import('@colyseus/redis-driver')]);
  const presence = new RedisPresence(url);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      presence.exists(ADDRESSES_KEY),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS))),
    ]);
  } catch (error) {
    presence.shutdown();
    throw new Error(`REDIS_URL: cannot reach ${redactUrl(url)}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
  return { presence, driver: new RedisDriver(url) };
}

/** A town's room in the listing (this process's or another's), by world name. */
export async function townRoomOf(world: string): Promise<(IRoomCache & { metadata: TownListingMetadata }) | null> {
  const rooms = await matchMaker.query({ name: 'town', world } as Partial<IRoomCache>);
  return (rooms[0] as (IRoomCache & { metadata: TownListingMetadata }) | undefined) ?? null;
}

/**
 * Colyseus asks which process creates a room; its default picks the least busy one. A town's room must
 * be where its Town runs (the host creates it locally), and a replay where its live world is (the
 * holder has the world's file and its map).
 */
export async function selectProcessForRoom(roomName: string, options: Record<string, unknown>): Promise<string> {
  // A replay names its live world, or only the world file, which may be a live town elsewhere (?world=<name>&t=…).
  const live = typeof options.live === 'string' ? options.live : typeof options.world === 'string' ? options.world : null;
  if (roomName === 'replay' && live !== null) {
    const holder = await townRoomOf(live);
    if (holder) return holder.processId;
  }
  return matchMaker.processId;
}

/** Where the processes sharing the presence can be reached by each other. */
export class ProcessAddresses {
  constructor(private readonly presence: Presence) {}

  async register(address: string): Promise<void> {
    await this.presence.hset(ADDRESSES_KEY, matchMaker.processId, address);
  }

  async unregister(): Promise<void> {
    await this.presence.hdel(ADDRESSES_KEY, matchMaker.processId);
  }

  async addressOf(processId: string): Promise<{ host: string; port: number } | null> {
    const address = (await this.presence.hget(ADDRESSES_KEY, processId)) as string | null;
    const match = address ? /^(.+):(\d+)$/.exec(address) : null;
    return match ? { host: match[1]!, port: Number(match[2]) } : null;
  }
}
