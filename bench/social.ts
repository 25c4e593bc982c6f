// Social benchmarks: the Valentine scenario on the offline mind over several seeds (SOCIAL_BENCH_SEEDS,
// default 1..5), each figure's mean over them: how far the party and the candidacy spread
// (`social.party_aware_mean`, `social.party_aware_sd`, `social.candidacy_aware_mean`) and the share of
// invitees (those who received an invitation act) at the party (`social.attended_share_of_invited`).
// Run alone with `npx tsx bench/social.ts`; `npm run simulate -- --scenario scenarios/valentines.yaml
// --seeds 1..10` gives the same figures with the whole table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadScenario } from '../server/src/analysis/scenario';
import { runScenario } from '../server/src/analysis/runScenario';
import { meanSd } from '../server/src/analysis/seeds';
import { createLogger } from '../server/src/town/logger';
import { parseSeeds } from '../scripts/simulate';

const SCENARIO = 'scenarios/valentines.yaml';

export async function benchSocial(): Promise<Record<string, number>> {
  const seeds = parseSeeds(process.env.SOCIAL_BENCH_SEEDS ?? '1..5');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-social-'));
  const party: number[] = [];
  const candidacy: number[] = [];
  const share: number[] = [];
  for (const seed of seeds) {
    const scenario = { ...loadScenario(SCENARIO), seed };
    const run = await runScenario({ scenario, scenarioFile: SCENARIO, world: `social-${seed}`, env: { DATA_DIR: dataDir }, logger: createLogger('silent') });
    if (!run.report) throw new Error(`bench social: seed ${seed} did not finish`);
    const report = run.report;
    const topic = (name: string) => report.topics.find((t) => t.name === name)?.aware_end ?? 0;
    party.push(topic('party'));
    candidacy.push(topic('candidacy'));
    share.push(report.attendance[0]?.attended_share_of_invited ?? 0);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  const p = meanSd(party);
  return {
    'social.party_aware_mean': p.mean,
    'social.party_aware_sd': p.sd,
    'social.candidacy_aware_mean': meanSd(candidacy).mean,
    'social.attended_share_of_invited': meanSd(share).mean,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchSocial().then((r) => console.table(r));
}
