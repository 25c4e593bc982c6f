// Every setting of the server, parsed and checked with zod. This is the only module that reads
// process.env; everything else receives a Config. README.md lists each setting.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PURPOSES, type Purpose } from './llm/types';
import { modelFileProblem } from './llm/modelFile';
import { MIN_TOKEN_CHARS } from './core/operatorToken';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const num = (min: number, max: number) => z.coerce.number().min(min).max(max);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** The paper's ablations, and relationships off: one part of cognition turned off ('none' runs the full architecture). */
export const ABLATIONS = ['none', 'no-observation', 'no-planning', 'no-reflection', 'no-relationships'] as const;
export type Ablation = (typeof ABLATIONS)[number];
/** 'turns': one call per line, as in the paper; 'whole': a whole conversation in one call. */
export const CONVERSATION_MODES = ['turns', 'whole'] as const;
export type ConversationMode = (typeof CONVERSATION_MODES)[number];

/** A world's name: its file is DATA_DIR/<name>.sqlite, its room is filtered by it. */
export const WorldName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'letters, digits, - and _ only (at most 64)');

/** One world a server hosts: its name, map and persona folder (MAP_FILE and PERSONAS_DIR where left out). */
export const WorldEntry = z.object({ name: WorldName, mapFile: z.string().min(1).optional(), personasDir: z.string().min(1).optional() });
export type WorldSpec = { name: string; mapFile: string; personasDir: string };

/** An origin as browsers send it: scheme://host[:port], nothing after. */
const Origin = z.string().regex(/^https?:\/\/[^/\s?#]+$/, 'expected an origin like https://example.org (scheme, host and port only)');

export const ConfigSchema = z.object({
  port: int(0, 65535).default(2567),
  host: z.string().default('0.0.0.0'),
  dataDir: z.string().default('data'),
  world: WorldName.default('smalltown'),
  mapFile: z.string().default('maps/town.tmj'),
  personasDir: z.string().default('personas'),
  /** The worlds this server hosts at start-up, the first being the default one; unset: just WORLD. */
  worlds: z.array(WorldEntry).min(1, 'at least one world').optional(),
  /** Share matchmaking and presence with other processes through this Redis (unset: this process alone). */
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'expected redis://host:port (or rediss:// for TLS)')
    .optional(),
  /** host:port where the other processes reach this one (with REDIS_URL); default 127.0.0.1:<port>. */
  advertiseAddress: z
    .string()
    .regex(/^[^\s/:]+:\d{1,5}$/, 'expected host:port')
    .optional(),
  /** Other origins whose pages may call this server's HTTP routes; empty: same origin only. */
  corsOrigins: z.array(z.union([z.literal('*'), Origin])).default([]),
  seed: int(0, 2 ** 31 - 1).default(1),
  /** Game date and time at which a new world starts, UTC. */
  startTime: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'expected YYYY-MM-DDTHH:MM')
    .refine((v) => isRealMinute(v), 'not a real date and time (month 01-12, day of that month, hour 00-23, minute 00-59)')
    .default('2026-02-13T06:00'),
  /** Replay rooms one client address may hold at once, and the server in all. */
  replayRoomsPerClient: int(1, 100).default(4),
  replayRoomsMax: int(1, 100_000).default(64),
  /** Seconds a viewer has to join the replay room the server made for it. */
  replayJoinSeconds: int(1, 600).default(15),
  /** Game ms per real ms: 60 = one game minute per real second. */
  rate: num(0.001, 100_000).default(60),
  tickHz: num(1, 60).default(10),
  /** What the clock does when minds fall behind: 'wait' holds game time until plans arrive; 'run' never waits. */
  clockPolicy: z.enum(['wait', 'run']).default('wait'),
  operatorToken: optionalText.refine(
    (v) => v === undefined || (v.length >= MIN_TOKEN_CHARS && new Set(v).size >= 6),
    `too weak: at least ${MIN_TOKEN_CHARS} characters, 6 of them different (anyone who can reach the port may guess it; ` +
      'wrong guesses are only slowed down). Leave it unset and the server makes a strong one, kept in DATA_DIR',
  ),
  /** Make a new operator token instead of the one kept in DATA_DIR/operator-token (when OPERATOR_TOKEN is unset). */
  rotateOperatorToken: z.boolean().default(false),
  /** Pause the clock when nobody has watched for this many real minutes; 0 turns it off. */
  idlePauseMinutes: num(0, 10_000).default(10),
  snapshotEveryGameMinutes: num(1, 24 * 60).default(15),
  /** Snapshots older than this many game hours are thinned to one per SNAPSHOT_KEEP_EVERY_GAME_MINUTES; 0 keeps all. */
  snapshotThinAfterGameHours: num(0, 10_000).default(6),
  snapshotKeepEveryGameMinutes: num(1, 7 * 24 * 60).default(180),
  /** Cron expressions (node-cron, optional seconds field); 'off' turns a job off. */
  backupCron: z.string().default('0 * * * *'),
  idleCheckCron: z.string().default('*/10 * * * * *'),
  backupKeep: int(1, 1000).default(24),
  housekeepingCron: z.string().default('*/15 * * * *'),
  /** Keep this many days of LLM call logs and cached replies; 0 keeps everything. */
  pruneAfterDays: num(0, 3650).default(30),
  logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Memory kept per world for exact retrieval's quantised column cache, MiB (least recently used agents leave first). */
  memoryCacheMb: num(0, 1_000_000).default(512),
  ablation: z.enum(ABLATIONS).default('none'),
  conversationMode: z.enum(CONVERSATION_MODES).default('turns'),
  /** Serve the client through Vite with hot reload instead of the built bundle. */
  dev: z.coerce.boolean().default(false),
  /** A GGUF sentence embedder run in this process; 'none' keeps the word vectors. Unset: models/ has one, or none. */
  embedderFile: optionalText,
  /** Open a world on another town's map and personas than it was made on (town/binding.ts); refused otherwise. */
  moveWorld: z.boolean().default(false),
  llm: z.object({
    baseURL: optionalText.refine((v) => v === undefined || isHttpUrl(v), 'expected an http(s) URL, like http://localhost:11434/v1'),
    apiKey: optionalText,
    model: z.string().default('gpt-4o-mini'),
    models: z.partialRecord(z.enum(PURPOSES), z.string()).default({}),
    responseFormat: z.enum(['auto', 'json_schema', 'json_object', 'none']).default('auto'),
    concurrency: int(1, 1024).default(8),
    rpm: int(0, 1_000_000).default(0),
    tpm: int(0, 100_000_000).default(0),
    timeoutMs: int(1000, 600_000).default(60_000),
    maxRetries: int(0, 10).default(3),
    budgetTokens: int(0, 10_000_000_000).default(0),
    budgetUsd: num(0, 1_000_000).default(0),
    prices: z.record(z.string(), z.object({ inputPerMTok: z.number().min(0), outputPerMTok: z.number().min(0) })).default({}),
    embeddingModel: optionalText,
    embeddingDimension: int(1, 8192).optional(),
    /** A .gguf file run in this process (node-llama-cpp): the embedded mind, no server. */
    modelFile: optionalText,
    /** Inference threads for the embedded model; 0: every core but one. */
    threads: int(0, 1024).default(0),
    /** Tokens of context for each of the embedded model's sequences. */
    contextSize: int(512, 131_072).default(4096),
    /** Asks the embedded model serves at once (the scheduler's cap is matched to it). */
    sequences: int(1, 64).default(2),
    /** Layers of the embedded model offloaded to a GPU; 0: CPU only. */
    gpuLayers: int(0, 1000).default(0),
    /** 'on': each reply constrained to its JSON schema at generation; 'off': the model writes freely. */
    grammar: z.enum(['on', 'off']).default('on'),
    /** Several endpoints, calls spread by load (llm/RoutingChatModel.ts); each leaves out what OPENAI_* and LLM_* give. */
    endpoints: z
      .array(
        z
          .object({
            baseURL: z.string().regex(/^https?:\/\/\S+$/, 'expected http(s)://host[:port]/path'),
            apiKey: z.string().optional(),
            model: z.string().min(1).optional(),
            concurrency: int(1, 1024).optional(),
            weight: num(0.001, 1000).default(1),
          })
          .strict(),
      )
      .default([]),
  }),
});

export type ConfigInput = z.input<typeof ConfigSchema>;
/** The settings, with `worlds` always filled in and its first entry mirrored in world, mapFile and personasDir. */
export type Config = Omit<z.infer<typeof ConfigSchema>, 'worlds'> & { worlds: WorldSpec[] };

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** Settings from the environment (and overrides, for tests and tools). Throws ConfigError naming each bad variable. */
export function loadConfig(env: Env = process.env, overrides: Partial<ConfigInput> = {}): Config {
  const models: Partial<Record<Purpose, string>> = {};
  for (const p of PURPOSES) {
    const v = env[`LLM_MODEL_${p.toUpperCase()}`];
    if (v) models[p] = v;
  }
  let prices: unknown = undefined;
  if (env.LLM_PRICES) {
    try {
      prices = JSON.parse(env.LLM_PRICES);
    } catch {
      throw new ConfigError('LLM_PRICES: not valid JSON (expected {"model": {"inputPerMTok": 0.15, "outputPerMTok": 0.6}})');
    }
  }
  let endpoints: unknown = undefined;
  if (env.LLM_ENDPOINTS) {
    try {
      endpoints = JSON.parse(env.LLM_ENDPOINTS);
    } catch {
      throw new ConfigError('LLM_ENDPOINTS: not valid JSON (expected [{"baseURL": "http://gpu1:8000/v1", "model": "m", "concurrency": 8}, …])');
    }
  }
  const worlds = env.WORLDS !== undefined ? parseWorlds(env.WORLDS) : undefined;
  if (worlds && env.WORLD) throw new ConfigError('WORLDS: set either WORLD (one world) or WORLDS (several), not both');
  const raw = {
    port: env.PORT,
    host: env.HOST,
    dataDir: env.DATA_DIR,
    world: env.WORLD,
    mapFile: env.MAP_FILE,
    personasDir: env.PERSONAS_DIR,
    worlds,
    redisUrl: env.REDIS_URL?.trim() || undefined,
    advertiseAddress: env.ADVERTISE_ADDRESS?.trim() || undefined,
    corsOrigins: env.CORS_ORIGINS === undefined ? undefined : splitList(env.CORS_ORIGINS),
    seed: env.SEED,
    startTime: env.START_TIME,
    replayRoomsPerClient: env.REPLAY_ROOMS_PER_CLIENT,
    replayRoomsMax: env.REPLAY_ROOMS_MAX,
    replayJoinSeconds: env.REPLAY_JOIN_SECONDS,
    rate: env.CLOCK_RATE,
    tickHz: env.TICK_HZ,
    clockPolicy: env.CLOCK_POLICY,
    operatorToken: env.OPERATOR_TOKEN,
    idlePauseMinutes: env.IDLE_PAUSE_MINUTES,
    snapshotEveryGameMinutes: env.SNAPSHOT_EVERY_GAME_MINUTES,
    snapshotThinAfterGameHours: env.SNAPSHOT_THIN_AFTER_GAME_HOURS,
    snapshotKeepEveryGameMinutes: env.SNAPSHOT_KEEP_EVERY_GAME_MINUTES,
    backupCron: env.BACKUP_CRON,
    idleCheckCron: env.IDLE_CHECK_CRON,
    backupKeep: env.BACKUP_KEEP,
    housekeepingCron: env.HOUSEKEEPING_CRON,
    pruneAfterDays: env.PRUNE_AFTER_DAYS,
    logLevel: env.LOG_LEVEL,
    memoryCacheMb: env.MEMORY_CACHE_MB,
    ablation: env.COGNITION_ABLATION,
    conversationMode: env.CONVERSATION_MODE,
    embedderFile: env.EMBEDDER_FILE,
    dev: env.SMALLTOWN_DEV === '1' || env.SMALLTOWN_DEV === 'true' ? true : undefined,
    moveWorld: env.MOVE_WORLD === '1' || env.MOVE_WORLD === 'true' ? true : undefined,
    rotateOperatorToken: env.ROTATE_OPERATOR_TOKEN === '1' || env.ROTATE_OPERATOR_TOKEN === 'true' ? true : undefined,
    llm: {
      baseURL: env.OPENAI_BASE_URL,
      apiKey: env.OPENAI_API_KEY,
      model: env.LLM_MODEL,
      models,
      responseFormat: env.LLM_RESPONSE_FORMAT,
      concurrency: env.LLM_CONCURRENCY,
      rpm: env.LLM_RPM,
      tpm: env.LLM_TPM,
      timeoutMs: env.LLM_TIMEOUT_MS,
      maxRetries: env.LLM_MAX_RETRIES,
      budgetTokens: env.LLM_BUDGET_TOKENS,
      budgetUsd: env.LLM_BUDGET_USD,
      prices,
      embeddingModel: env.EMBEDDING_MODEL,
      embeddingDimension: env.EMBEDDING_DIMENSION,
      modelFile: env.LLM_MODEL_FILE,
      threads: env.LLM_THREADS,
      contextSize: env.LLM_CONTEXT_SIZE,
      sequences: env.LLM_SEQUENCES,
      gpuLayers: env.LLM_GPU_LAYERS,
      grammar: env.LLM_GRAMMAR,
      endpoints,
    },
  };
  const merged = { ...stripUndefined(raw), ...overrides, llm: { ...stripUndefined(raw.llm), ...(overrides.llm ?? {}) } };
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${envName(i.path)}: ${i.message}`);
    throw new ConfigError(`bad settings:\n  ${lines.join('\n  ')}`);
  }
  return withWorlds(parsed.data);
}

/** WORLDS=name[:map[:personas]],…; an entry that leaves out its map or personas takes MAP_FILE and PERSONAS_DIR. */
function parseWorlds(text: string): Array<{ name: string; mapFile?: string; personasDir?: string }> {
  const seen = new Set<string>();
  return splitList(text).map((entry) => {
    const [name, mapFile, personasDir, ...rest] = entry.split(':');
    if (rest.length > 0) throw new ConfigError(`WORLDS: '${entry}' has more than name:map:personas`);
    if (seen.has(name!)) throw new ConfigError(`WORLDS: the world '${name}' appears twice`);
    seen.add(name!);
    return { name: name!, mapFile: mapFile || undefined, personasDir: personasDir || undefined };
  });
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** One list of worlds whatever was set: WORLDS, or WORLD with MAP_FILE and PERSONAS_DIR. The first is the default world. */
function withWorlds(c: z.infer<typeof ConfigSchema>): Config {
  const worlds = (c.worlds ?? [{ name: c.world }]).map((w) => ({ name: w.name, mapFile: w.mapFile ?? c.mapFile, personasDir: w.personasDir ?? c.personasDir }));
  const names = new Set(worlds.map((w) => w.name));
  if (names.size !== worlds.length) throw new ConfigError('WORLDS: a world appears twice');
  if (c.llm.modelFile && (c.llm.baseURL || c.llm.endpoints.length > 0)) {
    throw new ConfigError('LLM_MODEL_FILE: set either LLM_MODEL_FILE (a model in this process) or OPENAI_BASE_URL / LLM_ENDPOINTS (a server), not both');
  }
  if (c.redisUrl && !c.operatorToken) {
    throw new ConfigError('OPERATOR_TOKEN: with REDIS_URL, set the same OPERATOR_TOKEN in every process (each would otherwise make its own)');
  }
  const first = worlds[0]!;
  return { ...c, worlds, world: first.name, mapFile: first.mapFile, personasDir: first.personasDir };
}

/** The settings of one hosted world: the server's, with that world's name, map and personas. */
export function worldConfig(config: Config, world: WorldSpec): Config {
  return { ...config, world: world.name, mapFile: world.mapFile, personasDir: world.personasDir };
}

/** A URL fit for a log line: a user name, password or query value in it (where keys hide) replaced by ***. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1***@').replace(/\?.*$/, '?***');
  }
  if (parsed.username || parsed.password) {
    parsed.username = '***';
    parsed.password = '';
  }
  for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, '***');
  return parsed.toString().replace(/%2A/g, '*');
}

/** Each setting's environment variable (README.md's table lists them all; a test checks it). */
export const ENV_NAMES: Record<string, string> = {
  port: 'PORT',
  host: 'HOST',
  dataDir: 'DATA_DIR',
  world: 'WORLD',
  mapFile: 'MAP_FILE',
  personasDir: 'PERSONAS_DIR',
  worlds: 'WORLDS',
  redisUrl: 'REDIS_URL',
  advertiseAddress: 'ADVERTISE_ADDRESS',
  corsOrigins: 'CORS_ORIGINS',
  seed: 'SEED',
  startTime: 'START_TIME',
  replayRoomsPerClient: 'REPLAY_ROOMS_PER_CLIENT',
  replayRoomsMax: 'REPLAY_ROOMS_MAX',
  replayJoinSeconds: 'REPLAY_JOIN_SECONDS',
  rate: 'CLOCK_RATE',
  tickHz: 'TICK_HZ',
  clockPolicy: 'CLOCK_POLICY',
  operatorToken: 'OPERATOR_TOKEN',
  idlePauseMinutes: 'IDLE_PAUSE_MINUTES',
  snapshotEveryGameMinutes: 'SNAPSHOT_EVERY_GAME_MINUTES',
  snapshotThinAfterGameHours: 'SNAPSHOT_THIN_AFTER_GAME_HOURS',
  snapshotKeepEveryGameMinutes: 'SNAPSHOT_KEEP_EVERY_GAME_MINUTES',
  backupCron: 'BACKUP_CRON',
  idleCheckCron: 'IDLE_CHECK_CRON',
  backupKeep: 'BACKUP_KEEP',
  housekeepingCron: 'HOUSEKEEPING_CRON',
  pruneAfterDays: 'PRUNE_AFTER_DAYS',
  logLevel: 'LOG_LEVEL',
  memoryCacheMb: 'MEMORY_CACHE_MB',
  ablation: 'COGNITION_ABLATION',
  conversationMode: 'CONVERSATION_MODE',
  moveWorld: 'MOVE_WORLD',
  rotateOperatorToken: 'ROTATE_OPERATOR_TOKEN',
  'llm.baseURL': 'OPENAI_BASE_URL',
  'llm.apiKey': 'OPENAI_API_KEY',
  'llm.model': 'LLM_MODEL',
  'llm.responseFormat': 'LLM_RESPONSE_FORMAT',
  'llm.concurrency': 'LLM_CONCURRENCY',
  'llm.rpm': 'LLM_RPM',
  'llm.tpm': 'LLM_TPM',
  'llm.timeoutMs': 'LLM_TIMEOUT_MS',
  'llm.maxRetries': 'LLM_MAX_RETRIES',
  'llm.budgetTokens': 'LLM_BUDGET_TOKENS',
  'llm.budgetUsd': 'LLM_BUDGET_USD',
  'llm.prices': 'LLM_PRICES',
  'llm.embeddingModel': 'EMBEDDING_MODEL',
  'llm.embeddingDimension': 'EMBEDDING_DIMENSION',
  'llm.endpoints': 'LLM_ENDPOINTS',
  'llm.modelFile': 'LLM_MODEL_FILE',
  'llm.threads': 'LLM_THREADS',
  'llm.contextSize': 'LLM_CONTEXT_SIZE',
  'llm.sequences': 'LLM_SEQUENCES',
  'llm.gpuLayers': 'LLM_GPU_LAYERS',
  'llm.grammar': 'LLM_GRAMMAR',
  embedderFile: 'EMBEDDER_FILE',
};

function envName(path: PropertyKey[]): string {
  const key = path.map(String).join('.');
  const prefix = Object.keys(ENV_NAMES).find((k) => key === k || key.startsWith(`${k}.`));
  return prefix ? `${ENV_NAMES[prefix]}${key.length > prefix.length ? ` (${key.slice(prefix.length + 1)})` : ''}` : key;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The settings that name files and folders, checked against the disk before anything is written:
 * DATA_DIR a writable folder (or one that can be made), each world's map a readable Tiled JSON file,
 * each persona folder a folder. Throws one ConfigError naming every bad variable.
 */
export function checkSettingsOnDisk(config: Config): void {
  const problems: string[] = [];
  const dataDir = path.resolve(config.dataDir);
  const existing = nearestExisting(dataDir);
  if (existing === dataDir && !fs.statSync(dataDir).isDirectory()) problems.push(`DATA_DIR: '${config.dataDir}' is a file, not a folder`);
  else if (!writable(existing))
    problems.push(`DATA_DIR: '${config.dataDir}' is read-only${existing === dataDir ? '' : ` (its parent '${existing}' cannot be written to make it)`}`);
  const multiple = config.worlds.length > 1;
  for (const w of config.worlds) {
    const mapVar = multiple ? `WORLDS (${w.name}: map)` : 'MAP_FILE';
    const personasVar = multiple ? `WORLDS (${w.name}: personas)` : 'PERSONAS_DIR';
    const map = statOf(w.mapFile);
    if (!map) problems.push(`${mapVar}: '${w.mapFile}' does not exist`);
    else if (map.isDirectory()) problems.push(`${mapVar}: '${w.mapFile}' is a folder, not a map file`);
    else if (!/\.(tmj|json)$/i.test(w.mapFile)) problems.push(`${mapVar}: '${w.mapFile}' is not a Tiled JSON map (expected a .tmj or .json file)`);
    const personas = statOf(w.personasDir);
    if (!personas) problems.push(`${personasVar}: '${w.personasDir}' does not exist`);
    else if (!personas.isDirectory()) problems.push(`${personasVar}: '${w.personasDir}' is a file, not a folder of persona files`);
  }
  if (config.llm.modelFile) {
    const problem = modelFileProblem(config.llm.modelFile);
    if (problem) problems.push(`LLM_MODEL_FILE: ${problem}`);
  }
  if (config.embedderFile && config.embedderFile !== 'none' && config.embedderFile !== 'auto') {
    const problem = modelFileProblem(config.embedderFile);
    if (problem) problems.push(`EMBEDDER_FILE: ${problem}`);
  }
  if (problems.length) throw new ConfigError(`bad settings:\n  ${[...new Set(problems)].join('\n  ')}`);
}

function statOf(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function nearestExisting(dir: string): string {
  let at = dir;
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether "YYYY-MM-DDTHH:MM" names a minute that exists (Date.parse rolls 2026-02-30 over to March). */
function isRealMinute(text: string): boolean {
  const ms = Date.parse(`${text}:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 16) === text;
}

/** Game ms of the configured start time. */
export function startGameMs(config: Pick<Config, 'startTime'>): number {
  return Date.parse(`${config.startTime}:00Z`);
}

/** `npm start` and `npm run dev`: the environment, plus `--dev` on the command line. */
/**
 * The server's settings from its environment. Unlike loadConfig (tests and tools), an unset EMBEDDER_FILE is
 * 'auto' here: the sentence embedder in models/ when `npm run models:fetch` put it there (town/minds.ts).
 */
export function loadConfigFromProcess(): Config {
  const config = loadConfig(process.env, {
    ...(process.argv.includes('--dev') ? { dev: true } : {}),
    ...(process.argv.includes('--move-world') ? { moveWorld: true } : {}),
    ...(process.argv.includes('--rotate-token') ? { rotateOperatorToken: true } : {}),
  });
  return config.embedderFile === undefined ? { ...config, embedderFile: 'auto' } : config;
}
