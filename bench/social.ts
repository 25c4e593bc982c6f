// Social benchmarks: the Valentine scenario on the offline mind over several seeds (SOCIAL_BENCH_SEEDS,
// default 1..10), each figure's mean over them: how far the party and the candidacy spread
// (`social.party_aware_mean`, `social.party_aware_sd`, `social.candidacy_aware_mean`: aware at the end), who
// heard of the party before it began (`social.party_aware_before_mean`), and the share of invitees (those who
// received an invitation act) at the party (`social.attended_share_of_invited`).
// Beside them, the generality figures (issue 42): the scenarios of scenarios/general (a club, a dinner, a
// sale, a protest, a wedding, each with a secret, in words of their own) over the same seeds. An event's
// awareness counts those who heard of it before it began (the report's attendance `aware_before`; hearing
// of it afterwards is reported apart by the report): `social.general.event_aware_mean` (the mean over
// scenarios of each one's mean), `social.general.event_aware_sd` (the sd of those per-scenario means: how
// evenly the model spreads news whatever its wording), `social.general.event_to_party_min_ratio` (the least
// scenario's mean over the party's mean before it began: at least 0.5 when every scenario spreads within a
// factor of two of the party), `social.general.invited_mean` (invitees per scenario and seed),
// `social.general.secret_to_event_ratio` (mean secret awareness at the end over mean event awareness; below 1
// when secrets spread less), and each scenario's own `social.general.<name>.event_aware_mean`,
// `.secret_aware_mean` and `.invited_mean`.
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
const GENERAL_DIR = 'scenarios/general';

export async function benchSocial(): Promise<Record<string, number>> {
  const seeds = parseSeeds(process.env.SOCIAL_BENCH_SEEDS ?? '1..10');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-social-'));
  const party: number[] = [];
  const candidacy: number[] = [];
  const share: number[] = [];
  const before: number[] = [];
  for (const seed of seeds) {
    const scenario = { ...loadScenario(SCENARIO), seed };
    const run = await runScenario({ scenario, scenarioFile: SCENARIO, world: `social-${seed}`, env: { DATA_DIR: dataDir }, logger: createLogger('silent') });
    if (!run.report) throw new Error(`bench social: seed ${seed} did not finish`);
    const report = run.report;
    const topic = (name: string) => report.topics.find((t) => t.name === name)?.aware_end ?? 0;
    party.push(topic('party'));
    candidacy.push(topic('candidacy'));
    share.push(report.attendance[0]?.attended_share_of_invited ?? 0);
    before.push(report.attendance[0]?.aware_before ?? 0);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  const p = meanSd(party);
  const partyBefore = meanSd(before).mean;
  return {
    'social.party_aware_mean': p.mean,
    'social.party_aware_sd': p.sd,
    'social.party_aware_before_mean': partyBefore,
    'social.candidacy_aware_mean': meanSd(candidacy).mean,
    'social.attended_share_of_invited': meanSd(share).mean,
    ...(await benchSocialGeneral(seeds, partyBefore)),
  };
}

/** The scenarios of scenarios/general over `seeds`: the `social.general.*` figures of the header (the ratio to the party's `partyBefore` when given). */
export async function benchSocialGeneral(seeds: number[], partyBefore?: number): Promise<Record<string, number>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-general-'));
  const files = fs
    .readdirSync(GENERAL_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const out: Record<string, number> = {};
  const eventMeans: number[] = [];
  const secretMeans: number[] = [];
  const invited: number[] = [];
  for (const file of files) {
    const scenarioFile = path.join(GENERAL_DIR, file);
    const event: number[] = [];
    const secret: number[] = [];
    const guests: number[] = [];
    for (const seed of seeds) {
      const scenario = { ...loadScenario(scenarioFile), seed };
      const run = await runScenario({ scenario, scenarioFile, world: `${scenario.name}-${seed}`, env: { DATA_DIR: dataDir }, logger: createLogger('silent') });
      if (!run.report) throw new Error(`bench social: ${file} seed ${seed} did not finish`);
      const report = run.report;
      const topic = (name: string) => report.topics.find((t) => t.name === name)?.aware_end ?? 0;
      event.push(report.attendance[0]?.aware_before ?? 0);
      secret.push(topic('secret'));
      guests.push(report.attendance[0]?.invited ?? 0);
    }
    const name = file.replace(/\.yaml$/, '');
    out[`social.general.${name}.event_aware_mean`] = meanSd(event).mean;
    out[`social.general.${name}.secret_aware_mean`] = meanSd(secret).mean;
    out[`social.general.${name}.invited_mean`] = meanSd(guests).mean;
    invited.push(...guests);
    eventMeans.push(meanSd(event).mean);
    secretMeans.push(meanSd(secret).mean);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  const e = meanSd(eventMeans);
  return {
    'social.general.event_aware_mean': e.mean,
    'social.general.event_aware_sd': e.sd,
    ...(partyBefore ? { 'social.general.event_to_party_min_ratio': Math.min(...eventMeans) / partyBefore } : {}),
    'social.general.invited_mean': meanSd(invited).mean,
    'social.general.secret_to_event_ratio': e.mean > 0 ? meanSd(secretMeans).mean / e.mean : 0,
    ...out,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // SOCIAL_BENCH_ONLY=general runs the generality scenarios alone.
  const run = process.env.SOCIAL_BENCH_ONLY === 'general' ? benchSocialGeneral(parseSeeds(process.env.SOCIAL_BENCH_SEEDS ?? '1..10')) : benchSocial();
  run.then((r) => console.table(r));
}
