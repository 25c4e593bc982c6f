// Reads what the importer needs from a checkout of the reference (joonspk-research/generative_agents),
// in the reference's own formats:
//   environment/frontend_server/static_dirs/assets/the_ville/
//     matrix/maze_meta_info.json          {"maze_width": 140, "maze_height": 100, "sq_tile_size": 32, ...}
//     matrix/maze/<layer>_maze.csv        one long row of width*height block ids, row-major; 0 = none
//     matrix/special_blocks/<layer>_blocks.csv   "id, world, sector, arena, object" (as deep as the layer)
//     visuals/the_ville_*.json            the Tiled map the reference's page draws
//     agent_history_init_n*.csv           "Name,Whisper": what each resident knows, "; "-separated, in the second person
//   environment/frontend_server/storage/<sim>/
//     personas/<Name>/bootstrap_memory/scratch.json                  the resident
//     personas/<Name>/bootstrap_memory/associative_memory/nodes.json the memory stream, when there is one
//     environment/0.json                                             where each resident starts
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

export const ASSETS_DIR = 'environment/frontend_server/static_dirs/assets/the_ville';
export const STORAGE_DIR = 'environment/frontend_server/storage';
export const MAZE_LAYERS = ['collision', 'sector', 'arena', 'game_object', 'spawning_location'] as const;
export type MazeLayer = (typeof MAZE_LAYERS)[number];

export class ImportError extends Error {
  override name = 'ImportError';
}

/** One row of a special blocks file: the id, and the names after it (world, sector, arena, object). */
export interface BlockRow {
  id: string;
  names: string[];
}

export interface ReferenceMaze {
  widthTiles: number;
  heightTiles: number;
  tileSizePx: number;
  world: string;
  /** Per layer, width*height block ids ('0' = none). */
  mazes: Record<MazeLayer, string[]>;
  /** Per layer but collision, the block rows by id. */
  blocks: Record<Exclude<MazeLayer, 'collision'>, Map<string, BlockRow>>;
}

/** The reference's scratch.json: the fields the importer reads (others are ignored). */
export interface Scratch {
  name: string;
  first_name?: string;
  last_name?: string;
  age?: number;
  innate?: string;
  learned?: string;
  currently?: string;
  lifestyle?: string;
  living_area?: string;
  daily_plan_req?: string;
  [other: string]: unknown;
}

export interface MemoryNode {
  node_count?: number;
  type?: string;
  description?: string;
  poignancy?: number;
  created?: string;
}

export interface ReferenceResident {
  folder: string;
  scratch: Scratch;
  /** The memory stream, oldest first; empty when nodes.json is missing or empty. */
  nodes: MemoryNode[];
  nodesFile: string | null;
  /** The reference's starting tile, from environment/0.json. */
  start: { x: number; y: number } | null;
}

export interface ReferenceSim {
  name: string;
  dir: string;
  residents: ReferenceResident[];
  /** When the simulation starts, as START_TIME takes it ("2023-02-13T00:00"), from reverie/meta.json; null when it says none. */
  startTime: string | null;
  /** Where the start came from, for the report ("reverie/meta.json curr_time 'February 13, 2023, 00:00:00'"), or why there is none. */
  startSource: string;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "February 13, 2023, 00:00:00" or "February 13, 2023" (the reference's date format) as "2023-02-13T00:00"; null if it is not one. */
export function referenceDateToStartTime(text: string): string | null {
  const m = /^\s*([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})(?:,\s*(\d{1,2}):(\d{2})(?::\d{2})?)?\s*$/.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[1].toLowerCase());
  const day = Number(m[2]);
  if (month < 0 || day < 1 || day > 31) return null;
  const pad = (n: number | string) => String(n).padStart(2, '0');
  return `${m[3]}-${pad(month + 1)}-${pad(day)}T${pad(m[4] ?? 0)}:${pad(m[5] ?? 0)}`;
}

/** The simulation's start from its reverie/meta.json: `curr_time`, else `start_date` at midnight. */
function readStart(dir: string): { startTime: string | null; startSource: string } {
  const file = path.join(dir, 'reverie', 'meta.json');
  if (!fs.existsSync(file)) return { startTime: null, startSource: `no ${path.join(path.basename(dir), 'reverie', 'meta.json')}` };
  const meta = readJson<{ curr_time?: unknown; start_date?: unknown }>(file);
  for (const key of ['curr_time', 'start_date'] as const) {
    const v = meta?.[key];
    const start = typeof v === 'string' ? referenceDateToStartTime(v) : null;
    if (start) return { startTime: start, startSource: `reverie/meta.json ${key} '${String(v)}'` };
  }
  return { startTime: null, startSource: 'reverie/meta.json has no curr_time or start_date in the form "February 13, 2023, 00:00:00"' };
}

/** The rows of a CSV file (csv-parse), each cell trimmed as the reference's reader does; blank rows dropped. */
export function parseCsv(text: string): string[][] {
  const rows = parse(text, { bom: true, trim: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }) as string[][];
  return rows.filter((r) => r.some((c) => c !== ''));
}

function readJson<T>(file: string): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (error) {
    throw new ImportError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function mustExist(file: string, what: string): string {
  if (!fs.existsSync(file)) throw new ImportError(`${what} is missing: ${file} (is this a checkout of joonspk-research/generative_agents?)`);
  return file;
}

/** The maze: meta info, the five maze CSVs and their special blocks. */
export function readMaze(checkout: string): ReferenceMaze {
  const matrix = mustExist(path.join(checkout, ASSETS_DIR, 'matrix'), 'the maze folder');
  const meta = readJson<{ maze_width: number | string; maze_height: number | string; sq_tile_size: number | string; world_name?: string }>(
    mustExist(path.join(matrix, 'maze_meta_info.json'), 'maze_meta_info.json'),
  );
  const widthTiles = Number(meta.maze_width);
  const heightTiles = Number(meta.maze_height);
  const tileSizePx = Number(meta.sq_tile_size);
  if (!(widthTiles > 0 && heightTiles > 0 && tileSizePx > 0))
    throw new ImportError(`${path.join(matrix, 'maze_meta_info.json')}: needs positive maze_width, maze_height and sq_tile_size`);
  const mazes = {} as ReferenceMaze['mazes'];
  for (const layer of MAZE_LAYERS) {
    const file = mustExist(path.join(matrix, 'maze', `${layer}_maze.csv`), `the ${layer} maze`);
    // One long row in the reference; read every cell of every row, in order, to be forgiving.
    const cells = parseCsv(fs.readFileSync(file, 'utf8')).flat();
    if (cells.length !== widthTiles * heightTiles)
      throw new ImportError(`${file}: has ${cells.length} cells, expected ${widthTiles}x${heightTiles} = ${widthTiles * heightTiles}`);
    mazes[layer] = cells.map((c) => (c === '' ? '0' : c));
  }
  const readBlocks = (name: string): Map<string, BlockRow> => {
    const file = mustExist(path.join(matrix, 'special_blocks', `${name}_blocks.csv`), `${name}_blocks.csv`);
    const map = new Map<string, BlockRow>();
    for (const r of parseCsv(fs.readFileSync(file, 'utf8'))) if (r[0]) map.set(r[0], { id: r[0], names: r.slice(1) });
    return map;
  };
  const worldRows = [...readBlocks('world').values()];
  const world = worldRows[0]?.names[worldRows[0].names.length - 1] || meta.world_name || 'the Ville';
  return {
    widthTiles,
    heightTiles,
    tileSizePx,
    world,
    mazes,
    blocks: {
      sector: readBlocks('sector'),
      arena: readBlocks('arena'),
      game_object: readBlocks('game_object'),
      spawning_location: readBlocks('spawning_location'),
    },
  };
}

/** The Tiled map the reference draws: `visual` if named, else the newest-looking the_ville*.json. */
export function findVisualMap(checkout: string, visual?: string): string | null {
  const dir = path.join(checkout, ASSETS_DIR, 'visuals');
  if (visual) return mustExist(path.isAbsolute(visual) ? visual : path.join(dir, visual), 'the visual map');
  if (!fs.existsSync(dir)) return null;
  const preferred = ['the_ville_jan7.json', 'the_ville.json', 'the_ville_dec31.json'];
  for (const name of preferred) if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  const any = fs
    .readdirSync(dir)
    .filter((f) => /^the_ville.*\.json$/.test(f) && !/old/.test(f))
    .sort();
  return any.length ? path.join(dir, any[any.length - 1]) : null;
}

/** The simulation folder to take residents from: `sim` if named, else the base_* folder with the most. */
export function readSim(checkout: string, sim?: string): ReferenceSim {
  const storage = path.join(checkout, STORAGE_DIR);
  const count = (dir: string): number => {
    const p = path.join(dir, 'personas');
    if (!fs.existsSync(p)) return 0;
    return fs.readdirSync(p).filter((n) => fs.existsSync(path.join(p, n, 'bootstrap_memory', 'scratch.json'))).length;
  };
  let dir: string;
  if (sim) dir = mustExist(path.join(storage, sim), `the simulation '${sim}'`);
  else {
    mustExist(storage, 'the storage folder');
    const candidates = fs
      .readdirSync(storage)
      .map((n) => ({ n, k: count(path.join(storage, n)) }))
      .filter((c) => c.k > 0)
      .sort((a, b) => Number(b.n.startsWith('base_')) - Number(a.n.startsWith('base_')) || b.k - a.k || a.n.localeCompare(b.n));
    if (!candidates.length) throw new ImportError(`no simulation in ${storage} has personas with bootstrap_memory/scratch.json`);
    dir = path.join(storage, candidates[0].n);
  }
  const startFile = path.join(dir, 'environment', '0.json');
  const starts = fs.existsSync(startFile) ? readJson<Record<string, { x: number; y: number }>>(startFile) : {};
  const personasDir = path.join(dir, 'personas');
  const residents: ReferenceResident[] = [];
  for (const folder of fs.readdirSync(personasDir).sort()) {
    const scratchFile = path.join(personasDir, folder, 'bootstrap_memory', 'scratch.json');
    if (!fs.existsSync(scratchFile)) continue;
    const scratch = readJson<Scratch>(scratchFile);
    if (typeof scratch.name !== 'string' || !scratch.name.trim()) scratch.name = folder;
    const nodesFile = path.join(personasDir, folder, 'bootstrap_memory', 'associative_memory', 'nodes.json');
    let nodes: MemoryNode[] = [];
    if (fs.existsSync(nodesFile)) {
      const raw = readJson<Record<string, MemoryNode>>(nodesFile);
      nodes = Object.values(raw ?? {})
        .filter((n): n is MemoryNode => n !== null && typeof n === 'object')
        .sort((a, b) => (a.node_count ?? 0) - (b.node_count ?? 0));
    }
    const start = starts[scratch.name] ?? starts[folder];
    residents.push({
      folder,
      scratch,
      nodes,
      nodesFile: fs.existsSync(nodesFile) ? nodesFile : null,
      start: start && Number.isFinite(start.x) && Number.isFinite(start.y) ? { x: start.x, y: start.y } : null,
    });
  }
  return { name: path.basename(dir), dir, residents, ...readStart(dir) };
}

/**
 * What each resident is told at the start ("whispers"), by name, from the agent_history_init_*.csv with the most of them; of files
 * that tell as many, the one written for this cast (the fewest rows for people not in it): with `--sim base_the_ville_isabella_maria_klaus`
 * the 3-person file, not the 25-person one that also names the three.
 */
export function readWhispers(checkout: string, names: readonly string[]): { file: string | null; byName: Map<string, string[]> } {
  const dir = path.join(checkout, ASSETS_DIR);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^agent_history_init.*\.csv$/.test(f)) : [];
  let best: { file: string | null; byName: Map<string, string[]>; strangers: number } = { file: null, byName: new Map(), strangers: Infinity };
  for (const f of files.sort()) {
    const rows = parseCsv(fs.readFileSync(path.join(dir, f), 'utf8'));
    const byName = new Map<string, string[]>();
    let strangers = 0;
    for (const [name, whisper] of rows.slice(1)) {
      if (name && !names.includes(name)) strangers++;
      if (!name || !whisper || !names.includes(name)) continue;
      byName.set(
        name,
        whisper
          .split(';')
          .map((s) => s.trim())
          .filter(Boolean),
      );
    }
    if (byName.size > best.byName.size || (byName.size === best.byName.size && byName.size > 0 && strangers < best.strangers))
      best = { file: path.join(dir, f), byName, strangers };
  }
  return { file: best.file, byName: best.byName };
}
