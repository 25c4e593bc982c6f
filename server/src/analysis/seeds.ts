// Several seeds of one scenario: each report's headline figures, as mean ± sample standard deviation.
import type { Report } from './report';
import { paperFigure } from './paperFigures';

export interface SeedFigure {
  figure: string;
  values: number[];
  mean: number;
  sd: number;
}

/** The figures a seed comparison reports, by name, from one report. */
export function headlineFigures(r: Report): Record<string, number> {
  const out: Record<string, number> = { agents: r.agents.length };
  for (const t of r.topics) {
    out[`topics.${t.name}.aware_start`] = t.aware_start;
    out[`topics.${t.name}.aware_end`] = t.aware_end;
    if (t.aware_interview !== null) out[`topics.${t.name}.aware_interview`] = t.aware_interview;
  }
  out['density.start'] = r.density.start;
  out['density.end'] = r.density.end;
  out['density.opened_end'] = r.density.opened_end;
  r.attendance.forEach((a, i) => {
    const key = `attendance[${i}] ${a.place}`;
    out[`${key}.present`] = a.present;
    out[`${key}.invited`] = a.invited;
    out[`${key}.invited_present`] = a.invited_present;
    out[`${key}.present_guests`] = a.present_guests;
    out[`${key}.invited_present_guests`] = a.invited_present_guests;
    out[`${key}.attended_share_of_invited`] = a.attended_share_of_invited;
    if (a.accepted !== null) out[`${key}.accepted`] = a.accepted;
  });
  out['conversations.total'] = r.conversations.total;
  out['reflections.total'] = r.reflections.total;
  out['llm.calls_per_agent_day'] = r.llm.calls_per_agent_day;
  out['llm.tokens_per_agent_day'] = r.llm.tokens_per_agent_day;
  return out;
}

export function meanSd(values: number[]): { mean: number; sd: number } {
  if (values.length === 0) return { mean: 0, sd: 0 };
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const sd = values.length > 1 ? Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1)) : 0;
  return { mean, sd };
}

/** Every figure that all reports have, with its mean ± sd over them. */
export function summariseSeeds(reports: Report[]): SeedFigure[] {
  const figures = reports.map(headlineFigures);
  const names = Object.keys(figures[0] ?? {}).filter((k) => figures.every((f) => k in f));
  return names.map((figure) => {
    const values = figures.map((f) => f[figure]);
    return { figure, values, ...meanSd(values) };
  });
}

export function seedsMarkdown(scenario: string, seeds: number[], worlds: string[], rows: SeedFigure[]): string {
  const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(3));
  return [
    `# ${scenario}: ${seeds.length} seeds`,
    '',
    `Seeds ${seeds.join(', ')}; worlds ${worlds.join(', ')}. Mean ± sample standard deviation. The paper's column: Park et al. 2023 (an LLM, ` +
      `one run), for comparison only.`,
    '',
    '| Figure | Mean ± sd | Paper | Values |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.figure} | ${fmt(r.mean)} ± ${fmt(r.sd)} | ${paperFigure(r.figure)} | ${r.values.map(fmt).join(', ')} |`),
    '',
  ].join('\n');
}
