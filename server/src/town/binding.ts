// A world file knows the town it belongs to: its map and its persona folder, each by path and by content
// (the map file's bytes; the persona ids the folder holds). Opening a world on another town (the README's
// big-town command run where the small town lives) would remove every resident from it and write that into
// its log, so it is refused before anything is written, with the command that does what was meant. A town
// moved (same content, new path) or edited in place (same path) is still its town; `--move-world` takes a
// world onto another on purpose.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { WorldDb } from '../store/WorldDb';
import { displayPath } from '../core/projectRoot';

export interface TownIdentity {
  /** As displayPath shows it: relative to the working folder when inside it. */
  mapFile: string;
  mapSha256: string;
  personasDir: string;
  /** sha256 of the sorted persona ids, one a line: editing a persona keeps it, another town's people change it. */
  personasSha256: string;
}

const KEYS = { mapFile: 'town_map', mapSha256: 'town_map_sha256', personasDir: 'town_personas', personasSha256: 'town_personas_sha256' } as const;

export class TownMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TownMismatchError';
  }
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export function townIdentityOf(mapFile: string, personasDir: string, personaIds: Iterable<string>): TownIdentity {
  return {
    mapFile: displayPath(mapFile),
    mapSha256: sha256(fs.readFileSync(mapFile)),
    personasDir: displayPath(personasDir),
    personasSha256: sha256([...personaIds].sort().join('\n')),
  };
}

function recordedIdentity(db: WorldDb): TownIdentity | null {
  const get = db.db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  const values = Object.fromEntries(Object.entries(KEYS).map(([field, key]) => [field, get.get(key) as string | undefined]));
  return values.mapFile && values.mapSha256 && values.personasDir && values.personasSha256 ? (values as unknown as TownIdentity) : null;
}

function recordIdentity(db: WorldDb, identity: TownIdentity): void {
  const set = db.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  db.db.transaction(() => {
    for (const [field, key] of Object.entries(KEYS)) set.run(key, identity[field as keyof TownIdentity]);
  })();
}

const samePath = (a: string, b: string) => path.resolve(a) === path.resolve(b);

export interface BindingContext {
  world: string;
  /** The world file, as the message names it. */
  file: string;
  /** The town this start names. */
  identity: TownIdentity;
  personaIds: ReadonlySet<string>;
  /** `--move-world` / MOVE_WORLD=1: take the world onto this town on purpose. */
  moveWorld: boolean;
}

/**
 * Throws a TownMismatchError when `db` (an existing world, opened but not yet written by this start) belongs
 * to another town; otherwise records this town as its own (a new world, one made before worlds recorded their
 * town, a town moved or edited). Returns what changed, for the log: null when nothing worth saying did.
 */
export function bindWorldToTown(db: WorldDb, context: BindingContext): string | null {
  const { identity } = context;
  const recorded = recordedIdentity(db);
  const hasLog = db.events.lastSeq() > 0;
  if (recorded) {
    const mapOther = !samePath(recorded.mapFile, identity.mapFile) && recorded.mapSha256 !== identity.mapSha256;
    const peopleOther = !samePath(recorded.personasDir, identity.personasDir) && recorded.personasSha256 !== identity.personasSha256;
    if ((mapOther || peopleOther) && !context.moveWorld) throw mismatch(context, recorded.mapFile, recorded.personasDir, null);
  } else if (hasLog && !context.moveWorld) {
    // A world made before files recorded their town: its first run's map, and the residents it ever had.
    const legacy = legacyTownOf(db);
    const mapOther = legacy.mapFile !== null && !samePath(legacy.mapFile, identity.mapFile) && !sameContent(legacy.mapFile, identity.mapSha256);
    const nobodyStays = legacy.residents.size > 0 && ![...legacy.residents].some((id) => context.personaIds.has(id));
    if (mapOther || nobodyStays) throw mismatch(context, legacy.mapFile, null, legacy.residents.size);
  }
  const changed =
    !recorded ||
    recorded.mapFile !== identity.mapFile ||
    recorded.mapSha256 !== identity.mapSha256 ||
    recorded.personasDir !== identity.personasDir ||
    recorded.personasSha256 !== identity.personasSha256;
  if (!changed) return null;
  recordIdentity(db, identity);
  if (!recorded || !hasLog) return null;
  return context.moveWorld
    ? `world '${context.world}' moved onto the town of ${identity.mapFile} and ${identity.personasDir} (--move-world)`
    : `world '${context.world}': its town's files changed (now ${identity.mapFile} and ${identity.personasDir})`;
}

function legacyTownOf(db: WorldDb): { mapFile: string | null; residents: Set<string> } {
  let mapFile: string | null = null;
  for (const e of db.events.scan({ kinds: ['run.started'] })) {
    if (e.kind === 'run.started' && typeof e.data.map === 'string') mapFile = e.data.map;
    break;
  }
  const residents = new Set<string>();
  for (const e of db.events.scan({ kinds: ['persona.set'] })) if (e.agentId) residents.add(e.agentId);
  return { mapFile, residents };
}

function sameContent(file: string, expected: string): boolean {
  try {
    return sha256(fs.readFileSync(file)) === expected;
  } catch {
    return false;
  }
}

function mismatch(context: BindingContext, mapFile: string | null, personasDir: string | null, residents: number | null): TownMismatchError {
  const { identity, world } = context;
  const theirs = [mapFile ? `the map ${mapFile}` : null, personasDir ? `the personas in ${personasDir}` : null, residents ? `${residents} residents` : null]
    .filter(Boolean)
    .join(', ');
  const name = suggestWorldName(identity.mapFile, world);
  return new TownMismatchError(
    `${context.file} is the world of another town (${theirs || 'another map and people'}); this start names the map ${identity.mapFile} ` +
      `and the personas in ${identity.personasDir}. Opening it there would remove its residents, so it was left as it was.\n` +
      `To run that town in a world of its own:\n  WORLD=${name} MAP_FILE=${identity.mapFile} PERSONAS_DIR=${identity.personasDir} npm start\n` +
      `To move world '${world}' onto that town on purpose (its residents without a persona file there leave): add --move-world (or MOVE_WORLD=1).`,
  );
}

/** A world name for a town's map: its folder's name for a generic file name (data/big/town.tmj → big), else the file's. */
export function suggestWorldName(mapFile: string, besides: string): string {
  const base = path.basename(mapFile).replace(/\.(tmj|json)$/i, '');
  const folder = path.basename(path.dirname(path.resolve(mapFile)));
  const raw = base === 'town' || base === 'map' ? folder : base;
  const name = raw.replace(/[^a-zA-Z0-9_-]+/g, '-').slice(0, 60) || 'town';
  return name === besides ? `${name}-2` : name;
}
