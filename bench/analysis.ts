// Analysis benchmarks: the Valentine scenario (25 agents) headless on the offline mind for two game
// days (`simulate.game_days_per_s.agents_25`, the lockstep run alone: from the first progress report
// to the last), the report of that world (`analysis.report_ms`: every metric, read from the file),
// and the events export (`export.events_per_s`, JSONL into a sink). Run alone with `npx tsx bench/analysis.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { loadScenario } from '../server/src/analysis/scenario';
import { runScenario } from '../server/src/analysis/runScenario';
import { buildReport } from '../server/src/analysis/report';
import { exportEvents } from '../server/src/analysis/exports';
import { openWorldForAnalysis } from '../server/src/analysis/browse';
import { loadOfflineEmbedder } from '../server/src/llm/OfflineEmbedder';
import { createLogger } from '../server/src/town/logger';

const SCENARIO = 'scenarios/valentines.yaml';

export async function benchAnalysis(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-analysis-'));
  const scenario = loadScenario(SCENARIO);
  let first = 0;
  let last = 0;
  const run = await runScenario({
    scenario,
    scenarioFile: SCENARIO,
    env: { DATA_DIR: dataDir },
    logger: createLogger('silent'),
    onProgress: () => {
      last = performance.now();
      first ||= last;
    },
  });
  out['simulate.game_days_per_s.agents_25'] = scenario.days / ((last - first) / 1000);

  const world = openWorldForAnalysis(dataDir, run.world, scenario.map);
  const embedder = loadOfflineEmbedder();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await buildReport(world.db, world.map, embedder, { world: run.world, scenario });
    times.push(performance.now() - t0);
  }
  out['analysis.report_ms'] = times.sort((a, b) => a - b)[2];

  const events = world.db.events.lastSeq();
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done();
    },
  });
  const t0 = performance.now();
  await exportEvents(world.db, sink);
  out['export.events_per_s'] = events / ((performance.now() - t0) / 1000);
  out['export.events'] = events;
  out['export.bytes_per_event'] = bytes / events;
  world.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchAnalysis().then((r) => console.table(r));
}
