// Turns personas into what the sim needs to know of them.
import { DEFAULT_BED, DEFAULT_BEDROOM, type Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import { parseClock } from '../world/clockText';
import type { ResidentSpec } from '../sim/types';
import type { EventInput, PersonaRecord } from '../protocol/events';

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

export function personaRecord(p: Persona): PersonaRecord {
  return { name: p.name, age: p.age, innate: p.innate, learned: p.learned, currently: p.currently, lifestyle: p.lifestyle, home: p.home, workplace: p.workplace, relationships: p.relationships };
}

/** The event that records a persona in the log, for replay and analysis. */
export function personaEvent(p: Persona, gameMs: number): EventInput {
  return { gameMs, kind: 'persona.set', agentId: p.id, data: personaRecord(p) };
}
