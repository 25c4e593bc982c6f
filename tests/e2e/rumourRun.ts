// The headless run the analysis page's browser tests and screenshots read: ten agents from 06:00 for
// 0.4 game days, Isabella whispered her party, the party tracked as a topic.
import { parseScenario } from '../../server/src/analysis/scenario';
import { runScenario, type RunOutcome } from '../../server/src/analysis/runScenario';
import { createLogger } from '../../server/src/town/logger';

export const RUMOUR_SCENARIO = `
name: rumour
personas: personas
start: 2026-02-13T06:00
days: 0.4
interventions:
  - { at: 2026-02-13T06:00, kind: whisper, agent: isabella, text: "Isabella Rivera is throwing a Valentine's Day party at Hobbs Cafe on February 14 at 5pm." }
topics:
  - { name: party, phrase: "Isabella's Valentine's Day party at Hobbs Cafe", words: [valentine, party] }
`;

/** Runs the rumour scenario into `dataDir` (its world file is `rumour`). */
export function runRumour(dataDir: string): Promise<RunOutcome> {
  return runScenario({
    scenario: parseScenario(RUMOUR_SCENARIO, 'rumour.yaml'),
    scenarioFile: 'rumour.yaml',
    env: { DATA_DIR: dataDir },
    logger: createLogger('silent'),
  });
}
