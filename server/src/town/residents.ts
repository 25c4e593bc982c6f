// Turns personas into what the sim needs to know of them.
import { DEFAULT_BED, DEFAULT_BEDROOM, type Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import { parseClock } from '../world/clockText';
import type { ResidentSpec } from '../sim/types';
import type { EventInput, PersonaRecord } from '../protocol/events';

export function bedAddressOf(persona: Persona): string {
  return `${persona.home}: ${persona.bedroom ?? DEFAULT_BEDROOM}: ${persona.bed ?? DEFAULT_BED}`;
}

/**
 * What the sim knows of a persona. It first appears at `spawnName` (a spawn point of the map) when
 * given, else at a spawn point named after it, else at its bed.
 */
export function toResident(persona: Persona, map: TownMap, spawnName?: string): ResidentSpec {
  const bed = bedAddressOf(persona);
  const bedObject = map.objectsByAddress.get(bed);
  if (!bedObject) throw new Error(`${persona.file}: home: no '${bed}' in ${map.file}`);
  const chosen = spawnName !== undefined ? map.spawns.find((s) => s.name === spawnName) : undefined;
  if (spawnName !== undefined && !chosen) throw new Error(`no spawn point '${spawnName}' in ${map.file} (it has: ${map.spawns.map((s) => s.name).join(', ')})`);
  const pinned = chosen ?? map.spawns.find((s) => s.name === persona.id);
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

/** Whether two specs of one resident differ in what a persona file sets (not where it first appeared). */
export function residentChanged(a: ResidentSpec, b: ResidentSpec): boolean {
  const same = a.name === b.name && a.bedAddress === b.bedAddress && a.wakeMinute === b.wakeMinute && a.sleepMinute === b.sleepMinute;
  return !same || a.look.skin !== b.look.skin || a.look.hair !== b.look.hair || a.look.shirt !== b.look.shirt || a.look.pants !== b.look.pants;
}

export function personaRecord(p: Persona): PersonaRecord {
  return {
    name: p.name,
    age: p.age,
    innate: p.innate,
    learned: p.learned,
    currently: p.currently,
    lifestyle: p.lifestyle,
    home: p.home,
    workplace: p.workplace,
    relationships: p.relationships,
  };
}

/** The event that records a persona in the log, for replay and analysis. */
export function personaEvent(p: Persona, gameMs: number): EventInput {
  return { gameMs, kind: 'persona.set', agentId: p.id, data: personaRecord(p) };
}
