// Place references in persona files, resolved against the map's place tree.
//   "home: kitchen: stove"   an arena (and object) of the persona's home sector
//   "work" / "work: counter" the persona's workplace arena (and an object in it)
//   "Hobbs Cafe: cafe"       any arena, "Sector: arena[: object]"
import type { ArenaNode, GameObjectNode, TownMap } from './types';

export interface PlaceOwner {
  home: string;
  workplace: string | null;
}

/**
 * Whether the owner may use the object: any object, but one for staff (the map's `staff` property: the staff side of a counter
 * or a bar) only by those who work in its sector. A customer sits at the cafe's tables, not behind its counter.
 */
export function usableBy(object: GameObjectNode, owner: PlaceOwner): boolean {
  return !object.staff || (owner.workplace !== null && owner.workplace.split(': ')[0] === object.sector);
}

export type ResolvedPlace = { arena: ArenaNode; object: GameObjectNode | null } | { error: string };

export function resolvePlaceRef(ref: string, owner: PlaceOwner, map: TownMap): ResolvedPlace {
  const parts = ref.split(':').map((p) => p.trim());
  let arenaAddress: string;
  let objectName: string | undefined;
  if (parts[0] === 'home') {
    if (parts.length < 2) return { error: `'${ref}': say which part of home, e.g. 'home: kitchen'` };
    arenaAddress = `${owner.home}: ${parts[1]}`;
    objectName = parts[2];
  } else if (parts[0] === 'work') {
    if (!owner.workplace) return { error: `'${ref}': this persona has no workplace` };
    arenaAddress = owner.workplace;
    objectName = parts[1];
  } else {
    if (parts.length < 2) return { error: `'${ref}' must be "Sector: arena" or "Sector: arena: object"${suggest(ref, map)}` };
    arenaAddress = `${parts[0]}: ${parts[1]}`;
    objectName = parts[2];
  }
  const arena = map.arenasByAddress.get(arenaAddress);
  if (!arena) return { error: `'${ref}': there is no place '${arenaAddress}' in ${map.file}${suggest(arenaAddress, map)}` };
  if (objectName === undefined || objectName === '') return { arena, object: null };
  const object = map.objectsByAddress.get(`${arena.address}: ${objectName}`);
  if (!object) {
    const names = arena.objects.map((o) => o.name);
    return { error: `'${ref}': '${arena.address}' has no '${objectName}'${names.length ? ` (it has: ${names.join(', ')})` : ''}` };
  }
  return { arena, object };
}

/** ", did you mean 'X'?" for the closest known arena address, or ''. */
function suggest(text: string, map: TownMap): string {
  let best = '';
  let bestD = Infinity;
  for (const a of map.arenasByAddress.keys()) {
    const d = editDistance(text.toLowerCase(), a.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = a;
    }
  }
  return best && bestD <= Math.max(3, Math.floor(best.length / 3)) ? `; did you mean '${best}'?` : '';
}

/** `names` sorted by edit distance to `text` (ignoring case), nearest first; ties keep their order. */
export function closestFirst(text: string, names: readonly string[]): string[] {
  const t = text.toLowerCase();
  return names
    .map((name, i) => ({ name, i, d: editDistance(t, name.toLowerCase()) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((x) => x.name);
}

export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}
