// HTTP reads of the town's API (server/src/api/routes.ts); the reply types come from @protocol/api.
import type { AddablePersonasReply, TownInfo } from '@protocol/api';
import type { FeedItem } from '@protocol/messages';
import type { ReplayWorldInfo, Timeline, WorldListing } from '@protocol/replay';
import type { TownList } from '@protocol/towns';

/** The world named in the page's address (`?world=<name>`), or null for the server's default. */
export function chosenWorld(): string | null {
  return new URLSearchParams(location.search).get('world');
}

/** An /api URL for the world this page watches. */
export function withWorld(url: string): string {
  const world = chosenWorld();
  if (world === null) return url;
  return `${url}${url.includes('?') ? '&' : '?'}world=${encodeURIComponent(world)}`;
}

/** An /api URL naming a world file explicitly (null: the live world). */
function forFile(url: string, world: string | null): string {
  return world === null ? url : `${url}${url.includes('?') ? '&' : '?'}world=${encodeURIComponent(world)}`;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: string } | null;
    // The server's own words when it gives them (they name what is wrong); else the address and status.
    throw new Error(body?.error ?? `${url}: HTTP ${res.status}`);
  }
  return (await res.json()) as T;
}

export const fetchTownInfo = (): Promise<TownInfo> => getJson<TownInfo>(withWorld('/api/town'));

export const fetchAddablePersonas = async (): Promise<AddablePersonasReply['personas']> =>
  (await getJson<AddablePersonasReply>(withWorld('/api/personas'))).personas;

export const fetchFeed = async (limit: number): Promise<FeedItem[]> => (await getJson<{ items: FeedItem[] }>(withWorld(`/api/feed?limit=${limit}`))).items;

/** The world files a viewer may replay (DATA_DIR and its backups). */
export const fetchWorlds = (): Promise<WorldListing> => getJson<WorldListing>('/api/worlds');

/** The towns running now, in this process and the others that share its Redis. */
export const fetchTowns = (): Promise<TownList> => getJson<TownList>('/api/towns');

/**
 * The running town a world file belongs to, or null when none runs: the town of the file's own name, or for
 * a backup (`backups/<world>-<time>`, as the backup job names them) the running town whose name begins it.
 */
export function liveTownOf(fileId: string, running: readonly string[]): string | null {
  if (running.includes(fileId)) return fileId;
  if (!fileId.startsWith('backups/')) return null;
  const name = fileId.slice('backups/'.length);
  // The longest name that fits: a backup of "town-2" is not one of "town".
  const owners = running.filter((t) => name.startsWith(`${t}-`)).sort((a, b) => b.length - a.length);
  return owners[0] ?? null;
}

/** A world's recorded span and its timeline markers (null: the live world the page watches). */
export const fetchTimeline = (world: string | null): Promise<Timeline> => getJson<Timeline>(forFile('/api/timeline', world));

/** What the page needs to replay a world file that is no running town: its map and place tree. */
export const fetchReplayWorld = (world: string): Promise<ReplayWorldInfo> => getJson<ReplayWorldInfo>(forFile('/api/replay/world', world));
