// Turns personas into what the sim needs to know of them.
import { DEFAULT_BED, DEFAULT_BEDROOM, type Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import { parseClock } from '../world/clockText';
import type { ResidentSpec } from '../sim/types';

export function bedAddressOf(persona: Persona): string {
  return `${persona.home}: ${persona.bedroom ?? DEFAULT_BEDROOM}: ${persona.bed ?? DEFAULT_BED}`;
}

export function toResident(persona: Persona, map: TownMap): ResidentSpec {
  const bed = bedAddressOf(persona);
  const bedObject = map.objectsByAddress.get(bed);
  if (!bedObject) throw new Error(`${persona.file}: home: no '${bed}' in ${map.file}`);
  const pinned = map.spawns.find((s) => s.name === persona.id);
  const spawn = pinned ? pinned.tile : bedObject.standTile;
  return {
    id: persona.id,
    name: persona.name,
    bedAddress: bed,
    wakeMinute: parseClock(persona.wakeAt),
    sleepMinute: parseClock(persona.sleepAt),
    spawnTile: spawn.y * map.widthTiles + spawn.x,
    look: { ...persona.sprite },
  };
}
