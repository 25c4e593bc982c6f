// The Valentine's scenario on the reference's own town (scenarios/ville.yaml): the Ville and its 25
// residents, imported afresh from the checkout SMALLVILLE_CHECKOUT names (joonspk-research/generative_agents,
// or a fork holding base_the_ville_n25), run on the offline mind over VILLE_BENCH_SEEDS (default 1..10).
// Each figure is the mean over the seeds (`_sd`: the sample sd): network density at the start and the end
// and its growth over the two days (`social.ville.density_growth_mean`; the paper: 0.167 → 0.74), how far the
// party spread (aware at the end), whom Isabella invited, who came, and the conversations held.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadScenario } from '../server/src/analysis/scenario';
import { runScenario } from '../server/src/analysis/runScenario';
import { meanSd } from '../server/src/analysis/seeds';
import { createLogger } from '../server/src/town/logger';
import { parseSeeds } from '../scripts/simulate';
import { importSmallville } from '../scripts/importSmallville';

const SCENARIO = 'scenarios/ville.yaml';

export async function benchVille(): Promise<Record<string, number>> {
  const checkout = process.env.SMALLVILLE_CHECKOUT;
  if (!checkout)
    throw new Error(
      'bench ville: set SMALLVILLE_CHECKOUT to a checkout of joonspk-research/generative_agents ' +
        '(or a fork holding base_the_ville_n25, e.g. crcresearch/agentic_collab)',
    );
  const seeds = parseSeeds(process.env.VILLE_BENCH_SEEDS ?? '1..10');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-ville-'));
  try {
    const imported = importSmallville({ checkout, outDir: path.join(dir, 'the_ville') });
    const figures: Record<string, number[]> = { start: [], end: [], growth: [], party: [], invited: [], present: [], conversations: [] };
    for (const seed of seeds) {
      const scenario = { ...loadScenario(SCENARIO), map: imported.mapFile, personas: [imported.personasDir], seed, interview: false };
      const run = await runScenario({ scenario, scenarioFile: SCENARIO, world: `ville-${seed}`, env: { DATA_DIR: dir }, logger: createLogger('silent') });
      if (!run.report) throw new Error(`bench ville: seed ${seed} did not finish`);
      const r = run.report;
      figures.start.push(r.density.start);
      figures.end.push(r.density.end);
      figures.growth.push(r.density.end - r.density.start);
      figures.party.push(r.topics.find((t) => t.name === 'party')?.aware_end ?? 0);
      figures.invited.push(r.attendance[0]?.invited ?? 0);
      figures.present.push(r.attendance[0]?.present ?? 0);
      figures.conversations.push(r.conversations.total);
    }
    const growth = meanSd(figures.growth);
    const party = meanSd(figures.party);
    return {
      'social.ville.density_start_mean': meanSd(figures.start).mean,
      'social.ville.density_end_mean': meanSd(figures.end).mean,
      'social.ville.density_growth_mean': growth.mean,
      'social.ville.density_growth_sd': growth.sd,
      'social.ville.party_aware_mean': party.mean,
      'social.ville.party_aware_sd': party.sd,
      'social.ville.invited_mean': meanSd(figures.invited).mean,
      'social.ville.present_mean': meanSd(figures.present).mean,
      'social.ville.conversations_mean': meanSd(figures.conversations).mean,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchVille());
