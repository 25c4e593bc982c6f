// BENCHMARKS.md, generated from bench/results.json, bench/groups.ts and bench/targets.json (never edited by hand):
// `npm run bench:table`, and at the end of every `npm run bench`.
import fs from 'node:fs';
import targetsFile from './targets.json' with { type: 'json' };
import { GROUPS } from './groups';
import { UNVERIFIED, type Figure, type GroupResults, type ResultsFile } from './results';

export const BENCHMARKS_FILE = new URL('../BENCHMARKS.md', import.meta.url);

interface Target {
  max?: number;
  min?: number;
  from: string;
}
const TARGETS: Record<string, Target> = targetsFile.targets;

const UNITS: Array<[RegExp, string]> = [
  [/bytes_per_s$/, 'B/s'],
  [/^fps/, 'fps'],
  [/_per_s$/, '/s'],
  [/pct_per_day$/, '%/day'],
  [/(^|_)pct(_|$)/, '%'],
  [/_ms(_|$)/, 'ms'],
  [/_kb(_|$)/, 'KB'],
  [/_mb(_|$)/, 'MB'],
  [/bytes/, 'B'],
  [/_tiles$/, 'tiles'],
  [/_s$/, 's'],
];

/** The unit a key's name states: the first segment after the group's that names one. */
export function unitOf(key: string): string {
  for (const segment of key.split('.').slice(1)) for (const [re, unit] of UNITS) if (re.test(segment)) return unit;
  return '';
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 1000) return Math.round(v).toLocaleString('en-US');
  return String(Number(v.toPrecision(3)));
}

function valueCell(f: Figure): string {
  const v = fmt(f.value);
  return f.min !== undefined && f.max !== undefined && f.min !== f.max ? `${v} (${fmt(f.min)}–${fmt(f.max)})` : v;
}

function targetCells(key: string, f: Figure): [string, string] {
  const t = TARGETS[key];
  if (!t) return ['', ''];
  if (t.max !== undefined) return [`≤ ${fmt(t.max)}`, f.value <= t.max ? 'met' : '**missed**'];
  if (t.min !== undefined) return [`≥ ${fmt(t.min)}`, f.value >= t.min ? 'met' : '**missed**'];
  return ['', ''];
}

function groupRows(g: GroupResults): string[] {
  const p = g.provenance;
  const commit = p.source === 'run' ? `${p.commit.slice(0, 8)}${p.dirty ? '+dirty' : ''}` : '—';
  const date = p.source === 'run' ? p.startedAt.slice(0, 10) : '—';
  const stale = g.stale ? (p.source === 'run' ? '**stale**' : '**stale, unverified**') : 'current';
  const entries = Object.entries(g.figures).sort(([a], [b]) => a.localeCompare(b));
  // Two ways keys make a family: differing only in their last part (`cognition.calls_per_agent_day.converse`, `….plan`), one
  // unit; or only in the part before it (`cognition.whole.wall_s.realistic`, `cognition.whole.bound_s.realistic`), each
  // member's unit said beside its value. A family of FOLD_AT or more, none with a target, is one row.
  const lastFamily = (key: string) => key.slice(0, key.lastIndexOf('.'));
  const middleFamily = (key: string) => {
    const parts = key.split('.');
    return parts.length < 3 ? null : [...parts.slice(0, -2), '*', parts.at(-1)].join('.');
  };
  const byLast = familiesOf(entries, lastFamily);
  const foldsLast = (name: string) => {
    const m = byLast.get(name) ?? [];
    return m.length >= FOLD_AT && m.every(([k]) => !TARGETS[k] && unitOf(k) === unitOf(m[0]![0]));
  };
  const byMiddle = familiesOf(
    entries.filter(([k]) => !foldsLast(lastFamily(k))),
    (k) => middleFamily(k),
  );
  const foldsMiddle = (name: string | null) => name !== null && (byMiddle.get(name)?.length ?? 0) >= FOLD_AT && byMiddle.get(name)!.every(([k]) => !TARGETS[k]);
  const rows: string[] = [];
  const folded = (name: string, cells: string[], unit: string) =>
    rows.push(`| \`${name}\` | ${cells.join(' · ')} |  | ${unit} |  | ${stale} | ${commit} | ${date} |`);
  for (const [key, f] of entries) {
    const last = lastFamily(key);
    if (foldsLast(last)) {
      if (byLast.get(last)![0]![0] === key)
        folded(
          `${last}.*`,
          byLast.get(last)!.map(([k, v]) => `${k.slice(last.length + 1)} ${valueCell(v)}`),
          unitOf(key),
        );
      continue;
    }
    const middle = middleFamily(key);
    if (middle !== null && foldsMiddle(middle)) {
      if (byMiddle.get(middle)![0]![0] === key)
        folded(
          middle,
          byMiddle.get(middle)!.map(([k, v]) => `${k.split('.').at(-2)} ${valueCell(v)}${unitOf(k) ? ` ${unitOf(k)}` : ''}`),
          '',
        );
      continue;
    }
    const [target, met] = targetCells(key, f);
    rows.push(`| \`${key}\` | ${valueCell(f)} | ${target} | ${unitOf(key)} | ${met} | ${stale} | ${commit} | ${date} |`);
  }
  return rows;
}

/** The entries by family (null: in none), each family's members in the entries' order. */
function familiesOf(entries: Array<[string, Figure]>, family: (key: string) => string | null): Map<string, Array<[string, Figure]>> {
  const members = new Map<string, Array<[string, Figure]>>();
  for (const e of entries) {
    const name = family(e[0]);
    if (name === null) continue;
    const list = members.get(name);
    if (list) list.push(e);
    else members.set(name, [e]);
  }
  return members;
}

/** A family of keys (differing only in their last part, or only in the part before it) is shown in one row from this many on. */
const FOLD_AT = 5;

function provenanceLine(g: GroupResults): string {
  const p = g.provenance;
  if (p.source !== 'run') return `Provenance: ${UNVERIFIED} (${p.note}).`;
  const settings = Object.entries(p.settings)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join('/');
  return (
    `Provenance: \`${p.command}\`, ${p.runs === 1 ? 'one run' : `${p.runs} runs (value: their median; min–max in brackets)`}` +
    `${p.quick ? ', quick settings' : ''}, ` +
    `${p.startedAt.replace('T', ' ').slice(0, 16)} UTC, ${Math.round(p.wallS)} s, ${p.host.cpu} × ${p.host.cores}, ${p.host.memoryGb} GB, Node ${p.node}, ` +
    `load average ${load(p.loadavg.before)} before, ${load(p.loadavg.after)} after; settings: ${settings || 'defaults'}.`
  );
}

export function renderBenchmarks(results: ResultsFile): string {
  const out: string[] = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench:table` from bench/results.json; edit bench/groups.ts or bench/targets.json, not this file. -->',
    '',
    '`npm run bench` runs every group (`npm run bench -- sim memory` runs those two; `--runs N` repeats each N times,',
    "`--quick` takes the smaller settings) and writes `bench/results.json`: each group's figures with the provenance of",
    'the run that produced them. This page is generated from that file. A group is **stale** when a commit after its',
    'run touched the code it measures (bench/groups.ts lists the paths), or when no run recorded it: the figures marked',
    `"${UNVERIFIED}" were kept from the file before it recorded provenance; nobody knows the commit, host or`,
    'settings that produced them. Re-run their group to replace them. Benchmarks are not tests: nothing here fails a build.',
    '',
    'Wall times depend on the machine and its load (each group gives its load average before and after); on a shared',
    'machine the CPU-time keys (`*_cpu_*`) are the better guide. A commit marked `+dirty` had uncommitted changes outside',
    'the paths the group measures.',
    '',
    "## Today's figures",
    '',
  ];
  const stale = GROUPS.filter((g) => results.groups[g.name]?.stale).map((g) => g.name);
  const figures = Object.values(results.groups).reduce((s, g) => s + Object.keys(g.figures).length, 0);
  out.push(`${Object.keys(results.groups).length} groups, ${figures} figures; stale: ${stale.length ? stale.join(', ') : 'none'}.`, '');
  for (const group of GROUPS) {
    const g = results.groups[group.name];
    out.push(`### ${group.name}`, '');
    if (!g) {
      out.push(`No figures yet. Reproduce: ${group.reproduce}.`, '');
      continue;
    }
    out.push(
      // One paragraph: how to reproduce, and the method.
      `Reproduce: ${group.reproduce}.${g.stale && g.staleReason ? ` Stale: ${g.staleReason}.` : ''} Method: ${group.method.join('')}`,
      '',
      provenanceLine(g),
      '',
      '| key | value | target | unit | met | stale | commit | date |',
      '|---|---|---|---|---|---|---|---|',
      ...groupRows(g),
      '',
    );
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function writeBenchmarks(results: ResultsFile): void {
  fs.writeFileSync(BENCHMARKS_FILE, renderBenchmarks(results));
}
