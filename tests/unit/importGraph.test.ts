// Dependencies point down: each folder of server/src has a layer, and a file may import only from
// lower layers or its own folder. The client reaches the server only through server/src/protocol.
// No cycles between files.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Lower first. Folders on one layer may not import each other. */
const LAYERS: Array<[string, number]> = [
  ['server/src/core', 0],
  ['server/src/protocol', 0],
  ['server/src/world', 1],
  ['server/src/llm', 2],
  ['server/src/config.ts', 3],
  ['server/src/sim', 3],
  ['server/src/store', 3],
  ['server/src/agent', 4],
  ['server/src/history', 4],
  ['server/src/town', 5],
  ['server/src/analysis', 6],
  ['server/src/replay', 6],
  ['server/src/rooms', 7],
  ['server/src/api', 7],
  ['server/src/jobs', 7],
  ['server/src/host', 8],
  ['server/src/app.ts', 9],
  ['server/src/index.ts', 10],
  ['server/src/start.ts', 11],
];

type Graph = Map<string, string[]>;

function unitOf(file: string): [string, number] | null {
  for (const [prefix, layer] of LAYERS) if (file === prefix || file.startsWith(`${prefix}/`)) return [prefix, layer];
  return null;
}

/** Every upward or sideways import, and every cycle, as readable lines. */
function checkImportGraph(graph: Graph): string[] {
  const problems: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (from.startsWith('client/')) {
        if (to.startsWith('server/') && !to.startsWith('server/src/protocol/'))
          problems.push(`${from} -> ${to}: the client may import only server/src/protocol`);
        continue;
      }
      const a = unitOf(from);
      const b = unitOf(to);
      if (!a || !b) {
        if (from.startsWith('server/src/') && !a) problems.push(`${from}: no layer (add its folder to LAYERS)`);
        continue;
      }
      if (a[0] === b[0]) continue;
      if (b[1] > a[1]) problems.push(`${from} -> ${to}: upward (${a[0]} is layer ${a[1]}, ${b[0]} is layer ${b[1]})`);
      else if (b[1] === a[1]) problems.push(`${from} -> ${to}: sideways between ${a[0]} and ${b[0]} (same layer ${a[1]})`);
    }
  }
  for (const cycle of cyclesOf(graph)) problems.push(`cycle: ${cycle.join(' -> ')}`);
  return problems;
}

/** Strongly connected components with more than one file (Tarjan), or a file importing itself. */
function cyclesOf(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.reverse());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return /\.ts$/.test(d.name) && !d.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Imports of the project's own TypeScript files, resolved to paths relative to the repository. */
function readGraph(roots: string[]): Graph {
  const graph: Graph = new Map();
  for (const file of roots.flatMap(sourceFiles)) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets: string[] = [];
    for (const { fileName } of info.importedFiles) {
      let base: string | null = null;
      if (fileName.startsWith('.')) base = path.join(path.dirname(file), fileName);
      else if (fileName.startsWith('@protocol/')) base = path.join('server/src/protocol', fileName.slice('@protocol/'.length));
      if (base === null) continue;
      const resolved = [`${base}.ts`, path.join(base, 'index.ts'), base].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
      if (resolved && resolved.endsWith('.ts')) targets.push(path.normalize(resolved));
    }
    graph.set(path.normalize(file), targets);
  }
  return graph;
}

describe('the import graph', () => {
  it('points down, from every file of the server and the client, with no cycles', () => {
    const graph = readGraph(['server/src', 'client/src']);
    expect(graph.size).toBeGreaterThan(50);
    expect(checkImportGraph(graph)).toEqual([]);
  });

  it('catches an upward import, a sideways one, a client reaching into the server, and a cycle', () => {
    const graph: Graph = new Map([
      ['server/src/store/a.ts', ['server/src/agent/b.ts']],
      ['server/src/agent/b.ts', ['server/src/history/c.ts']],
      ['server/src/history/c.ts', []],
      ['client/src/x.ts', ['server/src/town/Town.ts', 'server/src/protocol/state.ts']],
      ['server/src/sim/p.ts', ['server/src/sim/q.ts']],
      ['server/src/sim/q.ts', ['server/src/sim/p.ts']],
    ]);
    expect(checkImportGraph(graph)).toEqual([
      'server/src/store/a.ts -> server/src/agent/b.ts: upward (server/src/store is layer 3, server/src/agent is layer 4)',
      'server/src/agent/b.ts -> server/src/history/c.ts: sideways between server/src/agent and server/src/history (same layer 4)',
      'client/src/x.ts -> server/src/town/Town.ts: the client may import only server/src/protocol',
      'cycle: server/src/sim/p.ts -> server/src/sim/q.ts',
    ]);
  });
});
