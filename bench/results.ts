// bench/results.json: its format, the provenance of a run, and staleness. Written only by bench/run.ts.
//
// {
//   "format": 2,
//   "groups": {
//     "<group>": {
//       "provenance": Provenance,          // who produced the figures, where, how
//       "stale": boolean,                  // recomputed by every `npm run bench` and `npm run bench:table`
//       "staleReason"?: string,
//       "figures": { "<key>": { "value": median, "min": …, "max": … } }   // min/max over provenance.runs
//     }
//   }
// }
//
// A group's figures are replaced together: a run of a group writes its whole section and nothing else.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { Settings } from './groups';

export const RESULTS_FILE = new URL('./results.json', import.meta.url);

/** The provenance of figures no run recorded: values kept from the flat file that came before this format. */
export const UNVERIFIED = 'unverified: carried from before provenance';

export interface RunProvenance {
  source: 'run';
  commit: string;
  /** Uncommitted changes in the tree when the run started (`dirtyPaths` lists those under the group's paths). */
  dirty: boolean;
  dirtyPaths: string[];
  startedAt: string;
  finishedAt: string;
  host: { cpu: string; cores: number; memoryGb: number; platform: string };
  node: string;
  /** os.loadavg() (1, 5, 15 minutes) just before the group's first run and just after its last. */
  loadavg: { before: number[]; after: number[] };
  settings: Settings;
  quick: boolean;
  command: string;
  runs: number;
  wallS: number;
}

export interface CarriedProvenance {
  source: typeof UNVERIFIED;
  note: string;
}

export type Provenance = RunProvenance | CarriedProvenance;

export interface Figure {
  value: number;
  min?: number;
  max?: number;
}

export interface GroupResults {
  provenance: Provenance;
  stale: boolean;
  staleReason?: string;
  figures: Record<string, Figure>;
}

export interface ResultsFile {
  format: 2;
  groups: Record<string, GroupResults>;
}

export function readResults(file: URL | string = RESULTS_FILE): ResultsFile {
  if (!fs.existsSync(file)) return { format: 2, groups: {} };
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as ResultsFile;
  if (parsed.format !== 2) throw new Error(`${String(file)}: not a format-2 results file`);
  return parsed;
}

export function writeResults(results: ResultsFile, file: URL | string = RESULTS_FILE): void {
  const groups = Object.fromEntries(Object.keys(results.groups).map((name) => [name, results.groups[name]]));
  fs.writeFileSync(file, `${JSON.stringify({ format: 2, groups }, null, 2)}\n`);
}

function git(args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

export function currentCommit(): string {
  return git(['rev-parse', 'HEAD']);
}

/** Files with uncommitted changes (tracked or not ignored); bench/results.json and BENCHMARKS.md, which a run writes, left out. */
export function dirtyFiles(): string[] {
  // Not trimmed: each line starts with two status columns, the first often a space.
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(3).replace(/^.* -> /, ''))
    .filter((f) => f !== 'bench/results.json' && f !== 'BENCHMARKS.md');
}

export function underPaths(file: string, paths: readonly string[]): boolean {
  return paths.some((p) => file === p || file.startsWith(`${p.replace(/\/$/, '')}/`));
}

export function hostInfo(): RunProvenance['host'] {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    platform: `${process.platform} ${process.arch}`,
  };
}

/**
 * Whether figures still describe the code: stale when no run recorded them, when the run's tree had uncommitted
 * changes under the measured paths, when its commit is not in this clone's history, or when a later commit
 * touched a measured path.
 */
export function staleness(provenance: Provenance, paths: readonly string[]): { stale: boolean; reason?: string } {
  if (provenance.source !== 'run') return { stale: true, reason: provenance.source };
  if (provenance.dirtyPaths.length) return { stale: true, reason: `measured with uncommitted changes to ${provenance.dirtyPaths.slice(0, 3).join(', ')}` };
  try {
    git(['cat-file', '-e', `${provenance.commit}^{commit}`]);
    git(['merge-base', '--is-ancestor', provenance.commit, 'HEAD']);
  } catch {
    return { stale: true, reason: `commit ${provenance.commit.slice(0, 8)} is not in this clone's history` };
  }
  // Prose beside the code (a folder's README.md) measures nothing: a commit that only changes it leaves the figures as they were.
  const spec = ['--', ...paths, ':(exclude,glob)**/*.md'];
  const later = git(['rev-list', '--count', `${provenance.commit}..HEAD`, ...spec]);
  if (Number(later) > 0) {
    const last = git(['log', '-1', '--format=%h %cs', `${provenance.commit}..HEAD`, ...spec]);
    return { stale: true, reason: `${later} later commit(s) touch the measured code (latest ${last})` };
  }
  return { stale: false };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Four significant digits: more than any of these measurements can tell apart. */
export function round4(v: number): number {
  return Number.isFinite(v) ? Number(v.toPrecision(4)) : v;
}

/** Each key's median, min and max over the runs (every run must write the same keys). */
export function summariseRuns(runs: Array<Record<string, number>>): Record<string, Figure> {
  const keys = Object.keys(runs[0]);
  for (const [i, r] of runs.entries()) {
    const missing = keys.filter((k) => !(k in r));
    const extra = Object.keys(r).filter((k) => !keys.includes(k));
    if (missing.length || extra.length) throw new Error(`run ${i + 1} wrote other keys than run 1: missing ${missing.join(', ')}; extra ${extra.join(', ')}`);
  }
  return Object.fromEntries(
    keys.map((k) => {
      const vs = runs.map((r) => r[k]);
      return [k, { value: round4(median(vs)), min: round4(Math.min(...vs)), max: round4(Math.max(...vs)) }];
    }),
  );
}
