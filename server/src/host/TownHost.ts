// The worlds one process hosts. Each is its own Town (its own SQLite file, clock, minds and jobs), its
// own `town` room (found by `world` in the matchmaking listing, which Redis shares between processes)
// and its own replay context. Worlds come from WORLDS at start-up and from an operator later; names
// are unique across every process that shares the listing.
import fs from 'node:fs';
import path from 'node:path';
import type express from 'express';
import { matchMaker } from '@colyseus/core';
import { serverMade } from '../rooms/admission';
import { worldConfig, type Config, type WorldSpec } from '../config';
import { Town } from '../town/Town';
import type { Logger } from '../town/logger';
import type { Minds } from '../town/minds';
import type { WallClock } from '../core/wallClock';
import type { ReplayContext } from '../replay/open';
import { towns } from '../rooms/TownRoom';
import { replayContexts } from '../rooms/ReplayRoom';
import { apiRouter } from '../api/routes';
import { HttpError } from '../api/errors';
import { worldMapOf, type WorldMap } from '../api/mapFiles';
import type { TownDirectory } from '../api/towns';
import { startJobs, type Jobs } from '../jobs/jobs';
import { townUrl, type StartTownRequest, type TownList, type TownListingMetadata } from '../protocol/towns';
import { townRoomOf } from './cluster';
import { displayPath } from '../core/projectRoot';

export interface HostedTown {
  spec: WorldSpec;
  config: Config;
  town: Town;
  /** Its read-only views (/api/town, /api/feed, …), picked by `?world=`. */
  api: express.Router;
  /** Its map and tileset images, served at /towns/<world>/map/. */
  map: WorldMap;
  jobs: Jobs;
  roomId: string;
}

export interface HostParts {
  logger: Logger;
  minds: Minds;
  operatorToken: string;
  wallClock?: WallClock;
}

export class TownHost implements TownDirectory {
  private readonly hosted = new Map<string, HostedTown>();
  /** Names being started or stopped: a second request for one of them waits its turn by failing. */
  private readonly busy = new Set<string>();
  /** The world the page joins without `?world=`: the first of WORLDS. */
  readonly defaultWorld: string;

  constructor(
    private readonly config: Config,
    private readonly parts: HostParts,
  ) {
    this.defaultWorld = config.worlds[0]!.name;
  }

  get(name: string): HostedTown | null {
    return this.hosted.get(name) ?? null;
  }

  has(name: string): boolean {
    return this.hosted.has(name);
  }

  names(): string[] {
    return [...this.hosted.keys()];
  }

  /** The operator's request: a new world, or one whose file exists, resumed. */
  async start(request: StartTownRequest): Promise<{ name: string; url: string }> {
    const mapFile = request.map === undefined ? this.config.mapFile : this.confinedMap(request.map);
    const personasDir = request.personas === undefined ? this.config.personasDir : this.confinedPersonas(request.personas);
    const spec = { name: request.name, mapFile, personasDir };
    await this.startWorld(spec, { operatorRequest: true });
    return { name: spec.name, url: townUrl(spec.name) };
  }

  /**
   * A map the operator names over HTTP: a .tmj or .json file inside a folder this server's worlds take
   * their maps from (MAP_FILE's, WORLDS'), never elsewhere on the server; refused without opening it.
   */
  private confinedMap(requested: string): string {
    const folders = [...new Set(this.config.worlds.map((w) => path.resolve(path.dirname(w.mapFile))))];
    const resolved = path.resolve(requested);
    const inside = folders.some((f) => resolved.startsWith(`${f}${path.sep}`)) && isInside(requested, folders.map(realPath), false);
    const shown = folders.map((f) => `${path.relative(process.cwd(), f) || '.'}/`).map((f) => (path.isAbsolute(f) ? path.basename(f) : f));
    if (!inside || !/\.(tmj|json)$/i.test(resolved))
      throw new HttpError(400, `map: '${path.basename(requested)}' is not a map this server offers (a .tmj or .json file in ${shown.join(', ')})`);
    return requested;
  }

  /**
   * A persona folder the operator names over HTTP: one of this server's worlds' persona folders
   * (PERSONAS_DIR's, WORLDS'), or a folder inside one, never elsewhere on the server (the persona editor
   * writes into it); refused without listing it. Links are followed before the check.
   */
  private confinedPersonas(requested: string): string {
    const folders = [...new Set(this.config.worlds.map((w) => realPath(w.personasDir)))];
    if (!isInside(requested, folders, true)) {
      // Named as the operator set them when inside the working folder, else by their last part only.
      const shown = [...new Set(this.config.worlds.map((w) => displayPath(w.personasDir)))].map((f) => `${path.isAbsolute(f) ? path.basename(f) : f}/`);
      const what = `'${path.basename(requested)}' is not a persona folder this server offers`;
      throw new HttpError(400, `personas: ${what} (${shown.join(', ')} or a folder inside one)`);
    }
    return requested;
  }

  /** Opens the world's file (new or resumed), starts its jobs and publishes its room. */
  async startWorld(spec: WorldSpec, how: { operatorRequest?: boolean } = {}): Promise<HostedTown> {
    const { name } = spec;
    if (this.hosted.has(name) || this.busy.has(name)) throw new HttpError(409, `the world '${name}' is already running here`);
    this.busy.add(name);
    try {
      // Two processes writing one world's file would interleave two histories: refuse before opening it.
      if (await townRoomOf(name)) throw new HttpError(409, `the world '${name}' is already running on another process`);
      const config: Config = { ...worldConfig(this.config, spec), operatorToken: this.parts.operatorToken };
      let town: Town;
      try {
        const { minds, logger, wallClock } = this.parts;
        town = await Town.open(config, { embedder: minds.embedder, createMind: minds.createMind, logger, wallClock, startInBackground: true });
      } catch (error) {
        // A bad map or persona folder is the operator's to fix: the message names the file and field.
        if (how.operatorRequest) throw new HttpError(400, error instanceof Error ? error.message : String(error));
        throw error;
      }
      try {
        return await this.publish(spec, config, town);
      } catch (error) {
        await town.close();
        throw error;
      }
    } finally {
      this.busy.delete(name);
    }
  }

  private async publish(spec: WorldSpec, config: Config, town: Town): Promise<HostedTown> {
    const { name } = spec;
    towns.set(name, town);
    replayContexts.set(name, replayContextOf(config, town));
    let room;
    try {
      room = await matchMaker.createRoom('town', serverMade({ world: name }));
    } catch (error) {
      towns.delete(name);
      replayContexts.delete(name);
      throw error;
    }
    const map = worldMapOf(spec.mapFile);
    const worldMapUrl = `/towns/${name}/map/${path.basename(spec.mapFile)}`;
    const api = apiRouter(town, { operatorToken: this.parts.operatorToken, mapFile: spec.mapFile, worldMapUrl });
    const jobs = startJobs(config, town, this.parts.logger);
    const hosted: HostedTown = { spec, config, town, api, map, jobs, roomId: room.roomId };
    this.hosted.set(name, hosted);
    const agents = town.sim.agents().length;
    this.parts.logger.info(`world '${name}': ${agents} agents on ${spec.mapFile}, ${town.mind.label} mind, ${town.resumed ? 'resumed' : 'new world'}`);
    return hosted;
  }

  /** The operator's request: closes the room (its viewers are told), the jobs, then saves and closes the file. */
  async stop(name: string): Promise<void> {
    const hosted = this.hosted.get(name);
    if (!hosted) {
      const elsewhere = await townRoomOf(name);
      throw new HttpError(404, elsewhere ? `the world '${name}' runs on another process that this one cannot reach` : `no world '${name}' is running`);
    }
    if (name === this.defaultWorld) throw new HttpError(409, `'${name}' is this server's default world: it stops with the server`);
    if (this.busy.has(name)) throw new HttpError(409, `the world '${name}' is starting or stopping`);
    this.busy.add(name);
    try {
      await this.shutDown(hosted);
      this.parts.logger.info(`world '${name}' stopped`);
    } finally {
      this.busy.delete(name);
    }
  }

  /** Every running town, on this process and on the others sharing its listing. */
  async list(): Promise<TownList> {
    const rooms = await matchMaker.query({ name: 'town' });
    const list = rooms
      .map((room) => ({ room, meta: room.metadata as Partial<TownListingMetadata> | undefined }))
      .filter(({ meta }) => typeof meta?.world === 'string')
      .map(({ room, meta }) => ({
        name: meta!.world!,
        agents: meta!.agents ?? 0,
        mind: meta!.mind ?? '',
        spectators: room.clients,
        here: room.processId === matchMaker.processId,
        url: townUrl(meta!.world!),
      }));
    list.sort((a, b) => Number(b.name === this.defaultWorld) - Number(a.name === this.defaultWorld) || a.name.localeCompare(b.name));
    return { defaultWorld: this.defaultWorld, towns: list };
  }

  /** At shutdown, once the game server has closed the rooms: stops the jobs and closes every file. */
  async closeAll(): Promise<void> {
    for (const hosted of [...this.hosted.values()].reverse()) await this.shutDown(hosted);
  }

  /** Stops every world's jobs (first thing at shutdown, so no backup starts while files close). */
  stopJobs(): void {
    for (const hosted of this.hosted.values()) hosted.jobs.stop();
  }

  private async shutDown(hosted: HostedTown): Promise<void> {
    const { name } = hosted.spec;
    this.hosted.delete(name);
    hosted.jobs.stop();
    await matchMaker.getLocalRoomById(hosted.roomId)?.disconnect();
    towns.delete(name);
    replayContexts.delete(name);
    await hosted.town.close();
  }
}

/** What a replay of this world (or of any file beside it) needs from the live town. */
function replayContextOf(config: Config, town: Town): ReplayContext {
  return {
    dataDir: config.dataDir,
    live: { world: config.world, file: town.db.file, mapFile: config.mapFile, simWorld: town.world, mind: town.mind.label },
    embedder: town.embedder,
    retrieval: { weights: town.runtime.settings.retrievalWeights, decayPerGameHour: town.runtime.settings.decayPerGameHour },
    wallClock: town.wallClock,
  };
}

/** The path with every link followed (as far as it exists: a name not there yet is resolved as written). */
function realPath(file: string): string {
  const resolved = path.resolve(file);
  try {
    return fs.realpathSync(resolved);
  } catch {
    const parent = path.dirname(resolved);
    return parent === resolved ? resolved : path.join(realPath(parent), path.basename(resolved));
  }
}

/** Whether `requested`, links followed, is inside one of `folders` (or is one of them, when `orEqual`). */
function isInside(requested: string, folders: string[], orEqual: boolean): boolean {
  const real = realPath(requested);
  return folders.some((f) => (orEqual && real === f) || real.startsWith(`${f}${path.sep}`));
}
