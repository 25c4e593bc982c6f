// Cognition benchmarks: 25 agents over one game day on the OpenAI-compatible stub (1 s latency,
// concurrency 32): calls and tokens per agent-day, by purpose, and the efficiency of the wall time
// against the bound the endpoint sets (calls × latency / concurrency). Plus the offline mind's speed.
// Run alone with `npx tsx bench/cognition.ts`.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import YAML from 'yaml';
import { performance } from 'node:perf_hooks';
import { OpenAIStub } from '../tests/fakes/openaiStub';
import { installTownResponders } from '../tests/fakes/townResponders';
import { loadConfig, type ConfigInput } from '../server/src/config';
import { Town } from '../server/src/town/Town';
import { buildMinds } from '../server/src/town/minds';
import { createLogger } from '../server/src/town/logger';
import { GAME_MS_PER_DAY } from '../server/src/protocol/time';

const AGENTS = 25;
const LATENCY_MS = 1000;
const CONCURRENCY = 32;

/** 25 personas cloned from the shipped 10, each clone knowing the clones of its own group. */
function clonePersonas(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-personas-'));
  const ids = fs.readdirSync('personas').filter((f) => f.endsWith('.yaml')).map((f) => f.replace('.yaml', '')).sort();
  for (let i = 0; i < count; i++) {
    const base = ids[i % ids.length];
    const group = Math.floor(i / ids.length);
    const doc = YAML.parse(fs.readFileSync(`personas/${base}.yaml`, 'utf8')) as { name: string; relationships: Record<string, string> };
    doc.name = group === 0 ? doc.name : `${doc.name} ${group + 1}`;
    doc.relationships = Object.fromEntries(
      Object.entries(doc.relationships)
        .map(([other, text]) => [`${other}-${group * ids.length + ids.indexOf(other)}`, text] as const)
        .filter(([other]) => Number(other.split('-').pop()) < count),
    );
    fs.writeFileSync(path.join(dir, `${base}-${i}.yaml`), YAML.stringify(doc));
  }
  return dir;
}

async function openTown(overrides: Partial<ConfigInput>): Promise<Town> {
  const config = loadConfig({}, { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-')), personasDir: clonePersonas(AGENTS), startTime: '2026-02-13T00:00', logLevel: 'silent', ...overrides });
  const minds = buildMinds(config, createLogger('silent'));
  return Town.open(config, { embedder: minds.embedder, createMind: minds.createMind, logger: createLogger('silent') });
}

export async function benchCognition(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};

  // The offline mind, headless: game days per second of wall time.
  const offline = await openTown({});
  const t0 = performance.now();
  await offline.loop.runLockstep(offline.gameMs + GAME_MS_PER_DAY, 10_000);
  out['offline.game_days_per_s.agents_25'] = 1000 / (performance.now() - t0);
  await offline.close();

  // The LLM mind, live: the clock runs as fast as cognition lets it (CLOCK_POLICY=wait).
  const stub = installTownResponders(await new OpenAIStub({ latencyMs: LATENCY_MS }).start());
  const town = await openTown({ rate: 6000, clockPolicy: 'wait', llm: { baseURL: stub.url, apiKey: 'bench', model: 'stub-model', concurrency: CONCURRENCY, timeoutMs: 30_000 } });
  const end = town.gameMs + GAME_MS_PER_DAY;
  const started = performance.now();
  let last = started;
  let peak = 0;
  while (town.gameMs < end || town.runtime.inFlight > 0) {
    await new Promise((r) => setTimeout(r, 50));
    const now = performance.now();
    if (town.gameMs < end) town.loop.tick(now - last);
    else town.loop.tick(0);
    last = now;
    peak = Math.max(peak, town.stack?.scheduler.inFlight ?? 0);
  }
  const wallS = (performance.now() - started) / 1000;
  const calls = town.db.summariseCalls();
  const bound = (stub.stats.requests * LATENCY_MS) / 1000 / CONCURRENCY;
  out['cognition.calls_per_agent_day'] = calls.calls / AGENTS;
  out['cognition.tokens_per_agent_day'] = (calls.promptTokens + calls.completionTokens) / AGENTS;
  out['cognition.wall_s'] = wallS;
  out['cognition.bound_s'] = bound;
  out['cognition.efficiency'] = bound / wallS;
  out['cognition.peak_in_flight'] = peak;
  for (const [purpose, p] of Object.entries(calls.byPurpose)) out[`cognition.calls_per_agent_day.${purpose}`] = p.calls / AGENTS;
  for (const [purpose, p] of Object.entries(calls.byPurpose)) out[`cognition.tokens_per_agent_day.${purpose}`] = p.tokens / AGENTS;
  await town.close();
  await stub.close();
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchCognition().then((r) => console.table(r));
}
