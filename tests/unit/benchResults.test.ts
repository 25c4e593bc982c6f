// bench/results.json holds only what a bench writes, each group with its provenance; BENCHMARKS.md is the table
// generated from it. Reads the files and bench/groups.ts (no bench runs).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GROUPS, findGroup, groupDeclares, patternRegExp } from '../../bench/groups';
import { UNVERIFIED, readResults, type ResultsFile } from '../../bench/results';
import { renderBenchmarks } from '../../bench/table';

const RUN_FIELDS = [
  'commit',
  'dirty',
  'dirtyPaths',
  'startedAt',
  'finishedAt',
  'host',
  'node',
  'loadavg',
  'settings',
  'quick',
  'command',
  'runs',
  'wallS',
] as const;

/** Every way the file can fail to be a record of runs; empty when it is one. */
function problemsWith(results: ResultsFile): string[] {
  const problems: string[] = [];
  if (results.format !== 2) problems.push('not format 2');
  for (const [name, g] of Object.entries(results.groups)) {
    const group = findGroup(name);
    if (!group) {
      problems.push(`${name}: no bench group of that name`);
      continue;
    }
    const p = g.provenance as unknown as Record<string, unknown> | undefined;
    if (!p) problems.push(`${name}: no provenance`);
    else if (p.source === 'run') {
      for (const f of RUN_FIELDS) if (p[f] === undefined || p[f] === null || p[f] === '') problems.push(`${name}: provenance without ${f}`);
      if (typeof p.commit !== 'string' || !/^[0-9a-f]{40}$/.test(p.commit)) problems.push(`${name}: provenance commit is not a full hash`);
      if (typeof p.runs !== 'number' || p.runs < 1) problems.push(`${name}: provenance runs is not a count`);
    } else if (p.source === UNVERIFIED) {
      if (g.stale !== true) problems.push(`${name}: unverified figures not marked stale`);
    } else problems.push(`${name}: provenance source ${String(p.source)} is neither a run nor "${UNVERIFIED}"`);
    if (typeof g.stale !== 'boolean') problems.push(`${name}: no stale flag`);
    if (!g.figures || !Object.keys(g.figures).length) problems.push(`${name}: no figures`);
    for (const [key, f] of Object.entries(g.figures ?? {})) {
      if (!groupDeclares(group, key)) problems.push(`${name}: ${key} is not a key group ${name} writes (bench/groups.ts)`);
      if (typeof f?.value !== 'number') problems.push(`${name}: ${key} has no value`);
      if (p?.source === 'run' && (typeof f.min !== 'number' || typeof f.max !== 'number')) problems.push(`${name}: ${key} has no min/max over its runs`);
    }
  }
  return problems;
}

describe('bench/results.json', () => {
  const results = readResults();

  it('holds only keys a bench group writes, each group with provenance', () => {
    expect(problemsWith(results)).toEqual([]);
  });

  it('fails the check when a key is added by hand (control)', () => {
    const tampered = structuredClone(results);
    const name = Object.keys(tampered.groups)[0];
    tampered.groups[name].figures[`${name}.typed_by_hand_ms`] = { value: 1 };
    expect(problemsWith(tampered).join('\n')).toContain(`${name}.typed_by_hand_ms is not a key group ${name} writes`);
  });

  it('fails the check on a value without provenance, or unverified but not stale (control)', () => {
    const noProvenance = structuredClone(results) as unknown as { groups: Record<string, { provenance?: unknown; stale: boolean }> };
    const name = Object.keys(noProvenance.groups)[0];
    delete noProvenance.groups[name].provenance;
    expect(problemsWith(noProvenance as unknown as ResultsFile)).toContain(`${name}: no provenance`);
    const notStale = structuredClone(results);
    notStale.groups[name].provenance = { source: UNVERIFIED, note: 'control' };
    notStale.groups[name].stale = false;
    expect(problemsWith(notStale)).toContain(`${name}: unverified figures not marked stale`);
    const halfRun = structuredClone(results);
    halfRun.groups[name].provenance = { source: 'run' } as never;
    expect(problemsWith(halfRun)).toContain(`${name}: provenance without commit`);
  });

  it('has the groups the Done-when re-runs, recorded by runs', () => {
    for (const name of ['sim', 'memory']) expect(results.groups[name]?.provenance.source, name).toBe('run');
  });
});

describe('bench/groups.ts', () => {
  it('names each group once', () => {
    const names = GROUPS.map((g) => g.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('reads `*` as one segment of a key', () => {
    expect(patternRegExp('sim.*.agents_10000').test('sim.step_p99_ms.agents_10000')).toBe(true);
    expect(patternRegExp('sim.*.agents_10000').test('sim.step_p99_ms.agents_1000')).toBe(false);
    expect(patternRegExp('interview.pass_rate.*').test('interview.pass_rate.self-knowledge')).toBe(true);
    expect(patternRegExp('interview.pass_rate.*').test('interview.pass_rate.a.b')).toBe(false);
  });

  it('measures paths that exist', () => {
    for (const g of GROUPS) for (const p of g.paths) expect(fs.existsSync(p), `${g.name}: ${p}`).toBe(true);
  });
});

describe('BENCHMARKS.md', () => {
  it('is the table generated from bench/results.json, under 600 lines', () => {
    const md = fs.readFileSync('BENCHMARKS.md', 'utf8');
    expect(md).toBe(renderBenchmarks(readResults()));
    expect(md.split('\n').length).toBeLessThan(600);
  });
});
