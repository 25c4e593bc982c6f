// `npm run bench`: every benchmark, a table on stdout, and bench/results.json (a flat object of named numbers).
import fs from 'node:fs';
import os from 'node:os';
import { benchSim } from './sim';
import { buildServer } from '../scripts/buildServer';

type Bench = { name: string; run: () => Promise<Record<string, number>> };

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  // The benchmarks that start server processes run what `npm start` runs: the compiled bundle.
  await buildServer();
  const benches: Bench[] = [{ name: 'sim', run: benchSim }];
  for (const [name, file, fn] of [
    ['memory', './memory', 'benchMemory'],
    ['cognition', './cognition', 'benchCognition'],
    ['llm', './cognition', 'benchLlm'],
    ['endpoints', './cognition', 'benchEndpoints'],
    ['replay', './replay', 'benchReplay'],
    ['analysis', './analysis', 'benchAnalysis'],
    ['social', './social', 'benchSocial'],
    ['server', './server', 'benchServer'],
    ['client', './client', 'benchClient'],
    ['load', './load', 'benchLoad'],
    ['chaos', './chaos', 'benchChaos'],
    ['outage', './chaos', 'benchOutage'],
    ['soak', './soak', 'benchSoak'],
    ['tenk', './tenK', 'benchTenK'],
  ] as const) {
    benches.push({ name, run: async () => ((await import(file)) as Record<string, () => Promise<Record<string, number>>>)[fn]() });
  }
  const resultsFile = new URL('./results.json', import.meta.url);
  const previous: Record<string, number> = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : {};
  const results: Record<string, number> = { ...previous };
  for (const b of benches) {
    if (only.length && !only.includes(b.name)) continue;
    const t0 = Date.now();
    process.stdout.write(`bench ${b.name}… `);
    const r = await b.run();
    process.stdout.write(`${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    Object.assign(results, r);
  }
  const rounded = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, Number(v.toPrecision(4))]));
  fs.writeFileSync(resultsFile, `${JSON.stringify(rounded, null, 2)}\n`);
  console.log(`\n${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, Node ${process.version}`);
  console.table(Object.entries(rounded).map(([figure, value]) => ({ figure, value })));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
