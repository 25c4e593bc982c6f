// The matchmaking listing, where every town's room is found by its world's name.
import { matchMaker, type IRoomCache } from '@colyseus/core';
import type { TownListingMetadata } from '../protocol/towns';

/** A town's room in the listing, by world name. */
export async function townRoomOf(world: string): Promise<(IRoomCache & { metadata: TownListingMetadata }) | null> {
  const rooms = await matchMaker.query({ name: 'town', world } as Partial<IRoomCache>);
  return (rooms[0] as (IRoomCache & { metadata: TownListingMetadata }) | undefined) ?? null;
}
