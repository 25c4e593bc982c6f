// The diffusion band over seeds (issue 18 §3): each world's report gives its hourly awareness series;
// the band is, at every game hour all the worlds have, the mean, sd and 95% t-interval of the mean.
import fs from 'node:fs';
import path from 'node:path';
import type { DiffusionBand } from '../protocol/band';
import type { Report } from './report';
import { meanSdCi } from './seeds';

/** The band of the topics every report tracks, at the hours every report has. */
export function diffusionBand(reports: Report[]): DiffusionBand {
  if (reports.length === 0) throw new Error('diffusion band: no worlds given');
  const agents = Math.max(...reports.map((r) => r.agents.length));
  const names = reports[0].topics.map((t) => t.name).filter((n) => reports.every((r) => r.topics.some((t) => t.name === n)));
  const topics = names.map((name) => {
    const series = reports.map((r) => new Map(r.topics.find((t) => t.name === name)!.series.map((p) => [p.ms, p.aware])));
    const hours = [...series[0].keys()].filter((ms) => series.every((s) => s.has(ms))).sort((a, b) => a - b);
    const points = hours.map((ms) => {
      const values = series.map((s) => s.get(ms)!);
      const { mean, sd, ci95 } = meanSdCi(values);
      return { ms, values, mean, sd, lo: Math.max(0, ci95[0]), hi: Math.min(agents, ci95[1]), min: Math.min(...values), max: Math.max(...values) };
    });
    return { name, phrase: reports[0].topics.find((t) => t.name === name)!.phrase, points };
  });
  return { worlds: reports.map((r) => r.world), agents, topics };
}

/** The worlds of a seeds run (`npm run simulate -- --seeds`): read from `<dataDir>/<name>.seeds.json`. */
export function worldsOfSeedsRun(dataDir: string, name: string): string[] {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`seeds: "${name}" is not a seeds run name`);
  const file = path.join(dataDir, `${name}.seeds.json`);
  if (!fs.existsSync(file)) throw new Error(`seeds: no such seeds run ${name} (${file})`);
  const worlds = (JSON.parse(fs.readFileSync(file, 'utf8')) as { worlds?: unknown }).worlds;
  if (!Array.isArray(worlds) || !worlds.every((w) => typeof w === 'string')) throw new Error(`${file}: worlds: expected a list of world names`);
  return worlds;
}
