// Benchmarks of the memory stream: exact retrieval at 1k and 10k memories per agent (d=100) and at
// 100k (d=1536), batched inserts (into an agent not yet cached, and into one whose columns are
// cached), bytes per memory on disk and in the column cache, and the offline embedder's load time.
// Run alone with `npx tsx bench/memory.ts` (prints, writes nothing).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openWorldDb } from '../server/src/store/WorldDb';
import type { MemoryInput } from '../server/src/store/types';
import { loadWordTable, OfflineEmbedder } from '../server/src/llm/OfflineEmbedder';
import { Rng } from '../server/src/sim/rng';
import { asAgentId } from '../server/src/world/types';
import { percentile } from './sim';
import { findGroup, type Settings } from './groups';

const HOUR = 3_600_000;

function makeInputs(rng: Rng, agent: string, n: number, d: number, centres: Float32Array[]): MemoryInput[] {
  const out: MemoryInput[] = [];
  for (let i = 0; i < n; i++) {
    const c = centres[rng.int(0, centres.length - 1)];
    const v = new Float32Array(d);
    let norm = 0;
    for (let k = 0; k < d; k++) {
      v[k] = c[k] + (rng.next() - 0.5) * 0.8;
      norm += v[k] * v[k];
    }
    norm = Math.sqrt(norm);
    for (let k = 0; k < d; k++) v[k] /= norm;
    out.push({
      agentId: asAgentId(agent),
      kind: 'observation',
      description: `memory ${i} of ${agent}: someone is doing something`,
      createdGameMs: rng.int(0, 500) * HOUR,
      importance: rng.int(1, 10),
      embedding: v,
    });
  }
  return out;
}

function centresFor(rng: Rng, d: number): Float32Array[] {
  return Array.from({ length: 12 }, () => Float32Array.from({ length: d }, () => rng.next() * 2 - 1));
}

interface RetrieveFigures {
  p50: number;
  p99: number;
  max: number;
  /** CPU time (user + system, all threads) per retrieval: what it costs on a core of its own. */
  cpuP50: number;
  /** The first retrieval: loads the agent into the column cache. */
  firstMs: number;
  insertPerS: number;
  cachedInsertPerS: number;
  bytesPerMemory: number;
  cacheBytesPerMemory: number;
  exactReadsPerRetrieval: number;
  fullScans: number;
}

export function benchRetrieve(perAgent: number, d: number, queries: number): RetrieveFigures {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-'));
  const file = path.join(dir, 'bench.sqlite');
  const world = openWorldDb(file, { model: 'bench', dimension: d });
  const rng = new Rng(perAgent + d);
  const centres = centresFor(rng, d);
  // Agent 'b' is measured; two neighbours share the table, so the partition key has to do its job.
  let inserted = 0;
  let insertMs = 0;
  for (const agent of ['a', 'b', 'c']) {
    const all = makeInputs(rng, agent, agent === 'b' ? perAgent : Math.min(perAgent, 5_000), d, centres);
    for (let i = 0; i < all.length; i += 1000) {
      const batch = all.slice(i, i + 1000);
      const t0 = performance.now();
      world.memories.add(batch);
      insertMs += performance.now() - t0;
      inserted += batch.length;
    }
  }
  world.checkpoint();
  const bytes = fs.statSync(file).size;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let q = 0; q < queries; q++) {
    const query = makeInputs(rng, 'q', 1, d, centres)[0].embedding;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    world.memories.retrieve({
      agentId: asAgentId('b'),
      query,
      nowGameMs: 501 * HOUR,
      k: 10,
      weights: { recency: 0.5, importance: 2, relevance: 3 },
      decayPerGameHour: 0.995,
      touch: true,
    });
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const stats = world.memories.stats;
  const cache = world.memories.columnCache();
  const cacheBytesPerMemory = cache.agents.includes('b') ? cache.bytes / world.memories.count(asAgentId('b')) : 0;
  const exactReadsPerRetrieval = stats.columnScans ? stats.exactReads / stats.columnScans : 0;
  // Inserts into the measured agent now that its columns are cached: each is quantised as it lands.
  let cachedMs = 0;
  let cachedInserted = 0;
  for (let i = 0; i < Math.min(10, perAgent / 1000); i++) {
    const batch = makeInputs(rng, 'b', 1000, d, centres);
    const t0 = performance.now();
    world.memories.add(batch);
    cachedMs += performance.now() - t0;
    cachedInserted += batch.length;
  }
  world.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const warm = times.slice(Math.min(5, times.length - 1));
  return {
    p50: percentile(warm, 50),
    p99: percentile(warm, 99),
    max: Math.max(...warm),
    cpuP50: percentile(cpu.slice(Math.min(5, cpu.length - 1)), 50),
    firstMs: times[0],
    insertPerS: inserted / (insertMs / 1000),
    cachedInsertPerS: cachedInserted / (cachedMs / 1000),
    bytesPerMemory: bytes / inserted,
    cacheBytesPerMemory,
    exactReadsPerRetrieval,
    fullScans: stats.fullScans,
  };
}

/**
 * What a column cache too small for the town costs a retrieval (CPU ms, median of `queries`): an agent with a
 * week of memories (1,400 at d=100, the soak's ~190 an agent-day) answered from its cached columns, reloaded
 * into the cache first (what every retrieval pays once the agents retrieving outgrow the cap: they are used in
 * turn, so the least recently used one is always the next asked), or through SQL (MEMORY_CACHE_MB=0).
 */
export function benchCacheMiss(perAgent: number, d: number, queries: number): Record<'cached' | 'reload' | 'sql', number> {
  const out = { cached: 0, reload: 0, sql: 0 };
  for (const capMb of [512, 0]) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-'));
    const world = openWorldDb(path.join(dir, 'bench.sqlite'), { model: 'bench', dimension: d }, { columnCacheBytes: capMb * 1024 * 1024 });
    const rng = new Rng(perAgent + d + capMb);
    const centres = centresFor(rng, d);
    for (const agent of ['a', 'b']) world.memories.add(makeInputs(rng, agent, perAgent, d, centres));
    for (const mode of capMb ? (['cached', 'reload'] as const) : (['sql'] as const)) {
      const cpu: number[] = [];
      for (let q = 0; q < queries; q++) {
        // Another agent's retrieval takes the cache's place of the measured one, as a full cache does.
        if (mode === 'reload') world.memories.forgetColumns('b');
        const query = makeInputs(rng, 'q', 1, d, centres)[0].embedding;
        const c0 = process.cpuUsage();
        world.memories.retrieve({
          agentId: asAgentId('b'),
          query,
          nowGameMs: 501 * HOUR,
          k: 10,
          weights: { recency: 0.5, importance: 2, relevance: 3 },
          decayPerGameHour: 0.995,
          touch: true,
        });
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
      out[mode] = percentile(cpu.slice(2), 50);
    }
    world.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** The memory group (bench/groups.ts gives its settings). */
export async function benchMemory(settings: Settings = findGroup('memory')!.settings!(false)): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const t0 = performance.now();
  const embedder = new OfflineEmbedder(loadWordTable());
  out['embedder.load_ms'] = performance.now() - t0;
  const texts = Array.from({ length: Number(settings.embedderTexts) }, (_, i) => `Isabella Rivera is serving coffee to customer number ${i} at Hobbs Cafe`);
  const t1 = performance.now();
  await embedder.embed(texts);
  out['embedder.texts_per_s'] = texts.length / ((performance.now() - t1) / 1000);
  const small = Number(settings.queriesSmall);
  for (const [perAgent, d, queries, name] of [
    [1_000, 100, small, 'n1k_d100'],
    [10_000, 100, small, 'n10k_d100'],
    [100_000, 1536, Number(settings.queriesD1536), 'n100k_d1536'],
  ] as const) {
    const r = benchRetrieve(perAgent, d, queries);
    out[`memory.retrieve_p50_ms.${name}`] = r.p50;
    // A p99 needs 1,000 samples; under that the slowest is reported as what it is.
    if (queries - 5 >= 1000) out[`memory.retrieve_p99_ms.${name}`] = r.p99;
    else out[`memory.retrieve_max_ms.${name}`] = r.max;
    out[`memory.retrieve_cpu_p50_ms.${name}`] = r.cpuP50;
    out[`memory.first_retrieve_ms.${name}`] = r.firstMs;
    out[`memory.exact_reads_per_retrieval.${name}`] = r.exactReadsPerRetrieval;
    out[`memory.full_scans.${name}`] = r.fullScans;
    if (name === 'n10k_d100') {
      out['memory.insert_per_s'] = r.insertPerS;
      out['memory.insert_per_s.cached'] = r.cachedInsertPerS;
      out['memory.bytes_per_memory'] = r.bytesPerMemory;
      out['memory.cache_bytes_per_memory'] = r.cacheBytesPerMemory;
    }
    if (name === 'n100k_d1536') {
      out['memory.insert_per_s.d1536'] = r.insertPerS;
      out['memory.insert_per_s.cached.d1536'] = r.cachedInsertPerS;
      out['memory.bytes_per_memory.d1536'] = r.bytesPerMemory;
      out['memory.cache_bytes_per_memory.d1536'] = r.cacheBytesPerMemory;
    }
  }
  const miss = benchCacheMiss(1_400, 100, Number(settings.cacheMissQueries));
  for (const [mode, ms] of Object.entries(miss)) out[`memory.retrieve_cpu_p50_ms.n1400_d100.${mode}`] = ms;
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchMemory().then((r) => console.table(r));
}
