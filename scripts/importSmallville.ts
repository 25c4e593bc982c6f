// `npm run import:smallville -- <checkout of joonspk-research/generative_agents> [--out DIR] [--sim NAME] [--visual FILE]`
//
// Converts the reference's town, the Ville, and its residents from the user's own checkout into a map
// and persona files this project runs: <out>/the_ville.tmj, <out>/personas/*.yaml, and
// <out>/import-report.md saying what was converted, what was dropped and why. Nothing of the
// reference is copied into this repository: the map names the checkout's tileset images by relative
// path (tall ones are cut into <out>/tilesets/), and <out> defaults to data/the_ville (not committed).
// Then: WORLD=the_ville MAP_FILE=<out>/the_ville.tmj PERSONAS_DIR=<out>/personas npm start
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadTownMap } from '../server/src/world/map';
import { loadPersonaFolder } from '../server/src/world/persona';
import { convertMap } from './smallville/convertMap';
import { convertResidents, type ConvertedResident } from './smallville/convertResidents';
import { findVisualMap, ImportError, readMaze, readSim, readWhispers } from './smallville/reference';
import { personaYaml, writePersonasWithLlm, type LlmPersonaOutcome } from './smallville/llmPersonas';
import { loadConfig } from '../server/src/config';
import { suggestWorldName } from '../server/src/town/binding';
import { OpenAIChatModel } from '../server/src/llm/OpenAIChatModel';
import { RetryingChatModel } from '../server/src/llm/RetryingChatModel';
import type { ChatModel } from '../server/src/llm/types';

export interface ImportOptions {
  checkout: string;
  outDir: string;
  sim?: string;
  visual?: string;
  /** Let the LLM the settings name (OPENAI_BASE_URL, LLM_MODEL…) write each persona (the command line's --llm). */
  llm?: boolean;
}

export interface ImportResult {
  mapFile: string;
  personasDir: string;
  reportFile: string;
  report: string;
  residents: ConvertedResident[];
  /** With --llm: who wrote each persona (the model, the model after a repair turn, or the rules) and why. */
  llm: LlmPersonaOutcome[] | null;
  /** The reference simulation's start, as START_TIME takes it, or null when it could not be read. */
  startTime: string | null;
  /** The command that starts the imported town, START_TIME included. */
  command: string;
}

export const DEFAULT_OUT = 'data/the_ville';

/** Runs the whole import by the rules; throws ImportError (or the loaders' errors) with what is wrong. */
export function importSmallville(options: ImportOptions): ImportResult {
  if (options.llm) throw new ImportError('llm: the model writes personas in importSmallvilleWithLlm (this one uses the rules only)');
  return finishImport(beginImport(options), null);
}

/**
 * The import with the model writing each persona from its scratch file (smallville/llmPersonas.ts): checked
 * by the persona loader, one repair turn, and the rules' persona for any the model cannot get right.
 */
export async function importSmallvilleWithLlm(options: ImportOptions, model: ChatModel, onOutcome?: (o: LlmPersonaOutcome) => void): Promise<ImportResult> {
  const begun = beginImport(options);
  const written = await writePersonasWithLlm(begun.residents, begun.sim.residents, { model, map: begun.loadedMap, onOutcome });
  return finishImport({ ...begun, residents: written.residents }, written.outcomes);
}

type Begun = ReturnType<typeof beginImport>;

/** Reads the checkout, converts the map and the residents by the rules, and writes the map. */
function beginImport(options: ImportOptions) {
  const checkout = path.resolve(options.checkout);
  const outDir = path.resolve(options.outDir);
  if (!fs.existsSync(checkout)) throw new ImportError(`no such folder: ${checkout}`);
  const maze = readMaze(checkout);
  const visualFile = findVisualMap(checkout, options.visual);
  const sim = readSim(checkout, options.sim);
  const whispers = readWhispers(
    checkout,
    sim.residents.map((r) => r.scratch.name.trim()),
  );

  fs.mkdirSync(outDir, { recursive: true });
  const map = convertMap(maze, { visualFile, outDir });
  const { residents, skipped } = convertResidents(sim.residents, map, whispers.byName);

  // Residents start where the reference starts them: a spawn named after each id.
  const tmj = map.tmj as { layers: Array<{ name: string; objects?: Array<Record<string, unknown>> }>; nextobjectid: number; tilewidth: number };
  const spawnLayer = tmj.layers.find((l) => l.name === 'spawns')!;
  for (const r of residents)
    if (r.start)
      spawnLayer.objects!.push({
        id: tmj.nextobjectid++,
        name: r.id,
        type: '',
        x: r.start.x * tmj.tilewidth + tmj.tilewidth / 2,
        y: r.start.y * tmj.tilewidth + tmj.tilewidth / 2,
        width: 0,
        height: 0,
        rotation: 0,
        visible: true,
        point: true,
      });

  const mapFile = path.join(outDir, 'the_ville.tmj');
  fs.writeFileSync(mapFile, `${JSON.stringify(tmj)}\n`);
  const loadedMap = loadTownMap(mapFile);
  return { checkout, outDir, sim, whispers, visualFile, map, residents, skipped, mapFile, loadedMap };
}

/** Writes the persona files and the report; `outcomes` are the model's, per resident, with `--llm`. */
function finishImport(begun: Begun, outcomes: LlmPersonaOutcome[] | null): ImportResult {
  const { checkout, outDir, sim, whispers, visualFile, map, residents, skipped, mapFile, loadedMap } = begun;
  const personasDir = path.join(outDir, 'personas');
  fs.rmSync(personasDir, { recursive: true, force: true });
  fs.mkdirSync(personasDir, { recursive: true });
  const schema = path.relative(personasDir, path.resolve('personas/persona.schema.json')).split(path.sep).join('/');
  for (const r of residents) {
    const by = outcomes?.find((o) => o.id === r.id && o.source !== 'rules') ? ' --llm (written by the model)' : '';
    const from = path.join(sim.name, 'personas', r.folder);
    const header = `# yaml-language-server: $schema=${schema}\n# Imported by npm run import:smallville${by} from ${from}\n`;
    fs.writeFileSync(path.join(personasDir, `${r.id}.yaml`), header + personaYaml(r.persona));
  }

  // What we wrote must load, as the server will load it.
  const loaded = loadPersonaFolder(personasDir, loadedMap);

  const rel = (p: string) => {
    const r = path.relative(process.cwd(), p);
    return r.startsWith('..') ? p : r || '.';
  };
  const world = `WORLD=${suggestWorldName(mapFile, '')}`;
  const command = `${sim.startTime ? `START_TIME=${sim.startTime} ` : ''}${world} MAP_FILE=${rel(mapFile)} PERSONAS_DIR=${rel(personasDir)} npm start`;
  const lines = [
    "# Import of the reference's town",
    '',
    `From \`${checkout}\` (simulation \`${sim.name}\`), by \`npm run import:smallville\`. Run it with:`,
    '',
    '```sh',
    command,
    '```',
    '',
    sim.startTime
      ? `The town starts when the reference's does: ${sim.startTime} (${sim.startSource}), the date its residents speak of.`
      : `The start date could not be read (${sim.startSource}): START_TIME is left to its default; set it to the reference's date.`,
    '',
    '## The map',
    '',
    `\`${rel(mapFile)}\`: ${loadedMap.widthTiles}x${loadedMap.heightTiles} ` +
      `tiles, ${loadedMap.places.sectors.length} sectors, ${loadedMap.arenas.length} ` +
      `arenas, ${loadedMap.objectsByAddress.size} objects, ${loadedMap.spawns.length} spawns; it loads with the ` +
      `server's map loader.`,
    '',
    'Converted:',
    '',
    ...map.converted.map((l) => `- ${l}`),
    `- ${residents.filter((r) => r.start).length} residents' starting tiles (environment/0.json) as spawns named after their ids`,
    visualFile
      ? `- art: the checkout's tileset images, referenced from the map by relative path ` +
        `(${path.relative(outDir, path.dirname(visualFile)).split(path.sep).join('/')}/…)`
      : '- art: none',
    '',
    'Dropped:',
    '',
    ...(map.dropped.length ? map.dropped.map((l) => `- ${l}`) : ['- nothing']),
    '',
    '## The residents',
    '',
    `${residents.length} of ${sim.residents.length} residents of \`${sim.name}\` as persona files in ` +
      `\`${rel(personasDir)}\`; they load with the server's persona ` +
      `loader${loaded.warnings.length ? ` (${loaded.warnings.length} warnings)` : ''}.`,
    whispers.file ? `Whispers (what each resident knows at the start) from \`${path.basename(whispers.file)}\`.` : 'No agent_history_init_*.csv: no whispers.',
    '',
    ...(skipped.length ? ['Not converted:', '', ...skipped.map((l) => `- ${l}`), ''] : []),
    '| id | name | home, bed | awake | workplace | routine | memories | relationships |',
    '|---|---|---|---|---|---|---|---|',
    ...residents.map((r) => {
      const p = r.persona;
      return (
        `| ${r.id} | ${p.name} | ${p.home}: ${p.bedroom}: ${p.bed} | ${p.wakeAt}-${p.sleepAt} | ${p.workplace ?? '-'} ` +
        `| ${p.routine.length} blocks | ${p.seedMemories.length} | ${Object.keys(p.relationships).length} |`
      );
    }),
    '',
    'Derived and guessed, per resident:',
    '',
    ...residents.flatMap((r) => [`- **${r.persona.name}**: ${r.notes.length ? r.notes.join('; ') : 'everything from scratch.json as it is'}`]),
    '',
    ...(outcomes ? llmSection(outcomes) : []),
    ...(residents.some((r) => r.undecided.length)
      ? [
          'Undecided: what no rule could tell, and what was taken instead (check these, or edit the persona files):',
          '',
          ...residents.flatMap((r) => r.undecided.map((u) => `- **${r.persona.name}**: ${u}`)),
          '',
        ]
      : ['Undecided: nothing.', '']),
    "Dropped for every resident: the reference's cognition settings in scratch.json (vision_r, att_bandwidth, " +
      'retention, recency/relevance/importance weights, reflection thresholds and counters) and its runtime state ' +
      '(current action, path, chat, schedules): this project has its own (server/src/sim/constants.ts), and every ' +
      'resident starts a fresh day. nodes.json embeddings and keyword strengths are not read: memories are embedded ' +
      "again by this project's embedder.",
    ...(loaded.warnings.length ? ['', 'Warnings from the persona loader:', '', ...loaded.warnings.map((w) => `- ${w.message}`)] : []),
    '',
  ];
  const report = lines.join('\n');
  const reportFile = path.join(outDir, 'import-report.md');
  fs.writeFileSync(reportFile, report);
  return { mapFile, personasDir, reportFile, report, residents, llm: outcomes, startTime: sim.startTime, command };
}

/** The report's account of --llm: who wrote each persona, and each resident the rules stand in for, with why. */
function llmSection(outcomes: readonly LlmPersonaOutcome[]): string[] {
  const count = (s: LlmPersonaOutcome['source']) => outcomes.filter((o) => o.source === s).length;
  const rules = outcomes.filter((o) => o.source === 'rules');
  return [
    '## Written by the model (--llm)',
    '',
    `${count('model')} of ${outcomes.length} personas written by the model and passed by the persona loader at once, ${count('repaired')} after ` +
      `one repair turn, ${rules.length} by the rules (the model's could not be used).`,
    '',
    ...outcomes
      .filter((o) => o.source === 'repaired')
      .map((o) => `- **${o.name}**: the model's, after a repair turn (${o.reason?.replace(/^repaired: /, '')})`),
    ...(rules.length ? ['', "The rules' persona stands for (check these first):", '', ...rules.map((o) => `- **${o.name}** (\`${o.id}\`): ${o.reason}`)] : []),
    '',
  ];
}

/** The command line's options (node:util parseArgs); 'usage' for help or no checkout, else what was wrong. */
function optionsFromArgs(argv: string[]): ImportOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string', default: DEFAULT_OUT },
        sim: { type: 'string' },
        visual: { type: 'string' },
        llm: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new ImportError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) throw new ImportError('usage');
  if (positionals.length > 1) throw new ImportError(`one checkout only (got '${positionals.join("' and '")}')`);
  return { checkout: positionals[0], outDir: values.out, sim: values.sim, visual: values.visual, ...(values.llm ? { llm: true } : {}) };
}

const USAGE = `usage: npm run import:smallville -- <checkout of joonspk-research/generative_agents> [--out DIR] [--sim NAME] [--visual FILE] [--llm]
  --out DIR      where to write the_ville.tmj, personas/ and import-report.md (default ${DEFAULT_OUT})
  --sim NAME     the simulation under environment/frontend_server/storage/ to take residents from
                 (default: the base_* one with the most residents, e.g. base_the_ville_n25)
  --visual FILE  the reference's Tiled map under the_ville/visuals/ (default: the_ville_jan7.json)
  --llm          the LLM of OPENAI_BASE_URL (and LLM_MODEL, LLM_MODEL_PLAN, OPENAI_API_KEY, LLM_RESPONSE_FORMAT,
                 LLM_TIMEOUT_MS, LLM_MAX_RETRIES, as for the town) writes each persona from its scratch file;
                 the persona loader checks it, one repair turn, else the rules' persona (listed in the report)`;

/** The model of the town's settings, with transport retries, for --llm; an ImportError when no endpoint is set. */
export function importModel(env: Record<string, string | undefined> = process.env): ChatModel {
  const { llm } = loadConfig(env);
  if (!llm.baseURL) throw new ImportError('--llm needs an LLM: set OPENAI_BASE_URL (and LLM_MODEL), as for the town');
  const adapter = new OpenAIChatModel({
    baseURL: llm.baseURL,
    apiKey: llm.apiKey,
    models: { default: llm.model, ...llm.models },
    responseFormat: llm.responseFormat,
    timeoutMs: llm.timeoutMs,
  });
  return new RetryingChatModel(adapter, { maxRetries: llm.maxRetries });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const options = optionsFromArgs(process.argv.slice(2));
    const result = options.llm
      ? await importSmallvilleWithLlm(options, importModel(), (o) =>
          console.error(`${o.name}: ${o.source === 'rules' ? `the rules' (${o.reason})` : o.source}`),
        )
      : importSmallville(options);
    console.log(result.report);
    console.log(`wrote ${result.reportFile}`);
  } catch (error) {
    if (error instanceof ImportError && error.message === 'usage') {
      console.error(USAGE);
      process.exit(2);
    }
    console.error(`import failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
