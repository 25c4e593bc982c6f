// `npm run bench [-- <group>… ] [--runs N] [--quick]`: runs the bench groups (bench/groups.ts: every group, or
// those named), writes each group's figures with their provenance to bench/results.json (format in
// bench/results.ts), marks stale groups, and regenerates BENCHMARKS.md. The only writer of bench/results.json.
// `npm run bench:table` (`--table`): no run; figures whose keys no bench declares any more dropped, staleness
// recomputed, BENCHMARKS.md regenerated.
//
// Groups are declared in bench/groups.ts: its header says how a group states its keys and the paths it measures.
import os from 'node:os';
import { GROUPS, findGroup, groupDeclares, literalKeys, type BenchGroup, type Settings } from './groups';
import {
  currentCommit,
  dirtyFiles,
  hostInfo,
  readResults,
  staleness,
  summariseRuns,
  underPaths,
  writeResults,
  type ResultsFile,
  type RunProvenance,
} from './results';
import { writeBenchmarks } from './table';

interface Options {
  groups: BenchGroup[];
  runs?: number;
  quick: boolean;
  tableOnly: boolean;
}

function parseArgs(argv: string[]): Options {
  const names: string[] = [];
  let runs: number | undefined;
  let quick = false;
  let tableOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') runs = Number(argv[++i]);
    else if (a === '--quick') quick = true;
    else if (a === '--table') tableOnly = true;
    else names.push(a);
  }
  if (runs !== undefined && !(Number.isInteger(runs) && runs > 0)) throw new Error('--runs takes a positive whole number');
  const unknown = names.filter((n) => !findGroup(n));
  if (unknown.length) throw new Error(`no bench group ${unknown.join(', ')}; the groups: ${GROUPS.map((g) => g.name).join(', ')}`);
  return { groups: names.length ? GROUPS.filter((g) => names.includes(g.name)) : [...GROUPS], runs, quick, tableOnly };
}

function settingsOf(group: BenchGroup, quick: boolean): Settings {
  const settings: Settings = { ...group.settings?.(quick) };
  for (const name of group.env ?? []) settings[name] = process.env[name] ?? null;
  return settings;
}

/** Checks one run's keys against the group's declaration: an undeclared key fails the run. */
function checkKeys(group: BenchGroup, figures: Record<string, number>): void {
  const undeclared = Object.keys(figures).filter((k) => !groupDeclares(group, k));
  if (undeclared.length) throw new Error(`group ${group.name} wrote keys it does not declare in bench/groups.ts: ${undeclared.join(', ')}`);
  const bad = Object.entries(figures).filter(([, v]) => typeof v !== 'number' || Number.isNaN(v));
  if (bad.length) throw new Error(`group ${group.name} wrote values that are not numbers: ${bad.map(([k]) => k).join(', ')}`);
  const missing = literalKeys(group).filter((k) => !(k in figures));
  if (missing.length) console.warn(`group ${group.name} did not write ${missing.join(', ')}`);
}

async function runGroup(group: BenchGroup, opts: Options, command: string): Promise<ResultsFile['groups'][string]> {
  const runs = opts.runs ?? (opts.quick ? 1 : group.runs);
  const settings = settingsOf(group, opts.quick);
  const dirty = dirtyFiles();
  const provenanceStart = {
    commit: currentCommit(),
    dirty: dirty.length > 0,
    dirtyPaths: dirty.filter((f) => underPaths(f, group.paths)),
    startedAt: new Date().toISOString(),
    loadBefore: os.loadavg(),
  };
  const t0 = Date.now();
  const all: Array<Record<string, number>> = [];
  for (let i = 0; i < runs; i++) {
    const t = Date.now();
    process.stdout.write(`bench ${group.name}${runs > 1 ? ` (${i + 1}/${runs})` : ''}… `);
    const figures = await group.run(settings);
    checkKeys(group, figures);
    all.push(figures);
    process.stdout.write(`${((Date.now() - t) / 1000).toFixed(1)} s\n`);
  }
  const provenance: RunProvenance = {
    source: 'run',
    commit: provenanceStart.commit,
    dirty: provenanceStart.dirty,
    dirtyPaths: provenanceStart.dirtyPaths,
    startedAt: provenanceStart.startedAt,
    finishedAt: new Date().toISOString(),
    host: hostInfo(),
    node: process.version,
    loadavg: { before: provenanceStart.loadBefore.map((x) => Number(x.toFixed(2))), after: os.loadavg().map((x) => Number(x.toFixed(2))) },
    settings,
    quick: opts.quick,
    command,
    runs,
    wallS: Math.round((Date.now() - t0) / 100) / 10,
  };
  const { stale, reason } = staleness(provenance, group.paths);
  return { provenance, stale, ...(reason ? { staleReason: reason } : {}), figures: summariseRuns(all) };
}

/** Drops figures whose keys their group no longer declares (a bench renamed or stopped writing them). */
function pruneUndeclared(results: ResultsFile): void {
  for (const [name, g] of Object.entries(results.groups)) {
    const group = findGroup(name);
    const gone = Object.keys(g.figures).filter((k) => !group || !groupDeclares(group, k));
    for (const k of gone) delete g.figures[k];
    if (gone.length) console.log(`${name}: dropped ${gone.join(', ')} (no longer written by its bench)`);
    if (!Object.keys(g.figures).length) delete results.groups[name];
  }
}

/** Every group's staleness, recomputed against the tree as it is now. */
function markStale(results: ResultsFile): void {
  for (const [name, g] of Object.entries(results.groups)) {
    const group = findGroup(name);
    const { stale, reason } = group ? staleness(g.provenance, group.paths) : { stale: true, reason: 'no such bench group' };
    g.stale = stale;
    if (reason) g.staleReason = reason;
    else delete g.staleReason;
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opts = parseArgs(argv);
  const results = readResults();
  if (!opts.tableOnly) {
    const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
    // The groups that start server processes run what `npm start` runs: the compiled bundle.
    if (opts.groups.some((g) => !['sim', 'memory'].includes(g.name))) await (await import('../scripts/buildServer')).buildServer();
    for (const group of opts.groups) {
      results.groups[group.name] = await runGroup(group, opts, command);
      // Written after each group, so a later group's failure keeps the earlier ones.
      writeResults(results);
    }
  }
  pruneUndeclared(results);
  markStale(results);
  writeResults(results);
  writeBenchmarks(results);
  const { host, node } = { host: hostInfo(), node: process.version };
  console.log(`\n${host.cpu} × ${host.cores}, Node ${node}; bench/results.json and BENCHMARKS.md written`);
  if (!opts.tableOnly)
    for (const group of opts.groups) {
      const g = results.groups[group.name];
      console.table(Object.fromEntries(Object.entries(g.figures).map(([k, f]) => [k, f])));
    }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
