// Several seeds of one scenario: each report's headline figures, as mean ± sample standard deviation and
// a 95% confidence interval of the mean (Student's t with n − 1 degrees of freedom).
import type { Report } from './report';
import { paperFigure } from './paperFigures';

export interface SeedFigure {
  figure: string;
  values: number[];
  mean: number;
  sd: number;
  /**
   * The 95% confidence interval of the mean, [low, high]; the mean itself when there is one value. Clamped
   * to what the figure can be (a count 0 to the agents, a share or a density 0 to 1, a total 0 or more).
   */
  ci95: [number, number];
  /** The t-interval reached past what is possible and was clamped (the table says so). */
  clamped: boolean;
}

/** What a headline figure can be, for `agents` agents: its lowest and highest possible value. */
export function possibleRange(figure: string, agents: number): [number, number] {
  if (figure === 'agents') return [1, Infinity];
  if (/^density\.|share/.test(figure)) return [0, 1];
  if (/^topics\..*\.aware_|^attendance\[/.test(figure)) return [0, agents];
  return [0, Infinity];
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
    if (a.aware_before !== null && a.aware_before !== undefined) out[`${key}.aware_before`] = a.aware_before;
    if (a.aware_after !== null && a.aware_after !== undefined) out[`${key}.aware_after`] = a.aware_after;
  });
  out['conversations.total'] = r.conversations.total;
  out['reflections.total'] = r.reflections.total;
  out['llm.calls_per_agent_day'] = r.llm.calls_per_agent_day;
  out['llm.tokens_per_agent_day'] = r.llm.tokens_per_agent_day;
  return out;
}

/** Student's t quantile at 0.975 for 1..30 degrees of freedom (the two-sided 95% interval). */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * t(0.975, df): the table to 30 degrees of freedom, then the Cornish-Fisher expansion about the normal
 * quantile (within 0.001 of the exact value beyond 30).
 */
export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new Error(`t quantile: degrees of freedom must be a whole number ≥ 1, got ${df}`);
  if (df <= T975.length) return T975[df - 1];
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
}

/** Mean, sample sd and the 95% t-interval of the mean. */
export function meanSdCi(values: number[]): { mean: number; sd: number; ci95: [number, number] } {
  const { mean, sd } = meanSd(values);
  if (values.length < 2) return { mean, sd, ci95: [mean, mean] };
  const half = (tQuantile975(values.length - 1) * sd) / Math.sqrt(values.length);
  return { mean, sd, ci95: [mean - half, mean + half] };
}

export function meanSd(values: number[]): { mean: number; sd: number } {
  if (values.length === 0) return { mean: 0, sd: 0 };
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const sd = values.length > 1 ? Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1)) : 0;
  return { mean, sd };
}

/** Every figure that all reports have, with its mean ± sd and 95% interval over them. */
export function summariseSeeds(reports: Report[]): SeedFigure[] {
  const figures = reports.map(headlineFigures);
  const names = Object.keys(figures[0] ?? {}).filter((k) => figures.every((f) => k in f));
  const agents = Math.max(...figures.map((f) => f.agents ?? 0));
  return names.map((figure) => {
    const values = figures.map((f) => f[figure]);
    const { mean, sd, ci95 } = meanSdCi(values);
    const [lowest, highest] = possibleRange(figure, agents);
    const clampedCi: [number, number] = [Math.max(lowest, ci95[0]), Math.min(highest, ci95[1])];
    return { figure, values, mean, sd, ci95: clampedCi, clamped: clampedCi[0] !== ci95[0] || clampedCi[1] !== ci95[1] };
  });
}

export function seedsMarkdown(scenario: string, seeds: number[], worlds: string[], rows: SeedFigure[]): string {
  const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(3));
  return [
    `# ${scenario}: ${seeds.length} seeds`,
    '',
    `Seeds ${seeds.join(', ')}; worlds ${worlds.join(', ')}. Mean ± sample standard deviation; 95% interval of the mean (Student's t, n − 1 df). ` +
      `An interval marked * reached past what the figure can be (a count: 0 to the agents; a share or a density: 0 to 1; ` +
      `a total: 0 or more) and is clamped to it. The paper's column: Park et al. 2023 (an LLM, one run), for comparison only.`,
    '',
    '| Figure | Mean ± sd | 95% interval | Paper | Values |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.figure} | ${fmt(r.mean)} ± ${fmt(r.sd)} | ${fmt(r.ci95[0])} to ${fmt(r.ci95[1])}${r.clamped ? ' *' : ''} ` +
        `| ${paperFigure(r.figure)} | ${r.values.map(fmt).join(', ')} |`,
    ),
    '',
  ].join('\n');
}
