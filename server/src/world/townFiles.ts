// The map and the persona files of a town, loaded together so that one start reports every problem of
// both: persona files are checked against a map with problems as far as the map could be read, and a
// user never fixes the map only to meet the persona problems at the next start.
import { MapErrors, readTownMapFile } from './map';
import { loadPersonaFolder, loadPersonas, PersonasError, type Persona, type PersonaError, type PersonaWarning } from './persona';
import type { TownMap } from './types';

/** Loads both, or throws: MapErrors (with the persona problems found against what was read) or PersonasError. */
export function loadTownFiles(mapFile: string, personasDir: string, onWarning?: (w: PersonaWarning) => void): { map: TownMap; personas: Persona[] } {
  const read = readTownMapFile(mapFile);
  if (read.problems.length === 0) return { map: read.map!, personas: loadPersonas(personasDir, read.map!, onWarning) };
  let personaErrors: PersonaError[] = [];
  if (read.map)
    try {
      loadPersonaFolder(personasDir, read.map);
    } catch (error) {
      if (!(error instanceof PersonasError)) throw error;
      personaErrors = error.errors;
    }
  throw new MapErrors(mapFile, read.problems, personaErrors);
}
