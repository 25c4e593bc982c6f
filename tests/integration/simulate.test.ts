// Headless scenario runs: the Valentine scenario on the offline mind (news spreads, a secret less, density rises, the
// report is written), a run stopped part-way that the same call resumes with each intervention
// applied once, a run on the LLM mind over real HTTP to the stub with the end-of-run interview, and
// the command line (plain progress lines off a terminal; a malformed scenario refused by name).
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario, parseScenario } from '../../server/src/analysis/scenario';
import { runScenario, type RunOutcome, type RunProgress } from '../../server/src/analysis/runScenario';
import { openWorldDb } from '../../server/src/store/WorldDb';
import { createLogger } from '../../server/src/town/logger';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { tempDir } from '../helpers';

const VALENTINES = 'scenarios/valentines.yaml';
const logger = createLogger('silent');

function scenarioActions(file: string): string[] {
  const db = openWorldDb(file, null, { readonly: true });
  try {
    return (db.db.prepare("SELECT json_extract(data, '$.by') FROM events WHERE kind = 'operator.action' ORDER BY seq").pluck().all() as string[]).filter((by) =>
      by.startsWith('scenario:'),
    );
  } finally {
    db.close();
  }
}

describe('the Valentine scenario, headless, on the offline mind', () => {
  let dataDir: string;
  let outcome: RunOutcome;
  const progress: RunProgress[] = [];

  beforeAll(async () => {
    dataDir = tempDir();
    outcome = await runScenario({
      scenario: loadScenario(VALENTINES),
      scenarioFile: VALENTINES,
      env: { DATA_DIR: dataDir },
      days: 0.3,
      logger,
      onProgress: (p) => progress.push(p),
    });
  }, 120_000);

  it('finishes, writes the world file and the report beside it, and reports progress on the way', () => {
    expect(outcome.finished).toBe(true);
    expect(outcome.resumed).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'valentines.sqlite'))).toBe(true);
    expect(outcome.reportJson).toBe(path.join(dataDir, 'valentines.report.json'));
    const json = JSON.parse(fs.readFileSync(outcome.reportJson!, 'utf8')) as typeof outcome.report;
    expect(json).toEqual(outcome.report);
    expect(fs.readFileSync(outcome.reportMd!, 'utf8')).toContain('## Information diffusion');
    expect(progress.length).toBeGreaterThan(10);
    expect(progress.at(-1)!.gameMs).toBe(progress.at(-1)!.endGameMs);
    expect(progress.at(-1)!.conversations).toBeGreaterThan(progress[0].conversations);
    expect(progress.at(-1)!.memories).toBeGreaterThan(progress[0].memories);
  });

  it('shows the party and the candidacy spreading through conversations, and density rising', () => {
    const r = outcome.report!;
    expect(r.agents).toHaveLength(25);
    const [party, candidacy] = r.topics;
    expect([party.name, party.aware_start, candidacy.name, candidacy.aware_start]).toEqual(['party', 1, 'candidacy', 1]);
    expect(party.aware_end).toBeGreaterThan(party.aware_start);
    // The candidacy is said to be secret ("has told no one yet"): it spreads less than the party.
    expect(candidacy.aware_end).toBeLessThan(party.aware_end);
    // Everyone after the first heard it in a conversation from someone who knew it before.
    for (const t of [party, candidacy]) {
      const [first, ...rest] = t.agents;
      expect(first.source === 'seed' || first.source === 'whisper').toBe(true);
      for (const a of rest) {
        expect(a.source).toBe('conversation');
        const teller = t.agents.find((x) => x.id === a.from);
        expect(teller && teller.first_heard_ms <= a.first_heard_ms).toBe(true);
        expect(a.conversation_id).not.toBeNull();
      }
    }
    expect(r.density.end).toBeGreaterThan(r.density.start);
    expect(r.llm.calls).toBe(0);
    expect(r.attendance).toEqual([]); // the party is on the 14th, after this shortened run
  });

  it('interviews every agent about every topic at the end on the offline mind too, and reports awareness by answer beside memory', () => {
    const [party, candidacy] = outcome.report!.topics;
    for (const t of [party, candidacy]) {
      expect(t.interviewed).toBe(25);
      expect(t.aware_interview).toBe(t.interview!.filter((i) => i.aware).length);
      // Yes with what it remembers, or no. The analysis counts a yes only when the answer names the topic
      // by its word rule, so an answer can say yes about something else ("the party", not the Valentine's one).
      expect(t.interview!.every((i) => /^(Yes\. |No, I haven't heard about )/.test(i.answer))).toBe(true);
      expect(t.interview!.filter((i) => i.aware).every((i) => i.answer.startsWith('Yes. '))).toBe(true);
      expect(t.aware_interview!).toBeGreaterThan(0);
      expect(t.aware_interview!).toBeLessThanOrEqual(t.aware_end);
      // Who holds no memory of the topic says no: the answer cannot know more than the stream.
      const known = new Set(t.agents.map((x) => x.id));
      const unaware = t.interview!.filter((i) => !known.has(i.id));
      expect(unaware.length).toBe(25 - t.aware_end);
      expect(unaware.every((i) => !i.aware)).toBe(true);
    }
  });

  it('applied each intervention once', () => {
    expect(scenarioActions(path.join(dataDir, 'valentines.sqlite'))).toEqual(['scenario:0', 'scenario:1']);
  });
});

describe('a scenario run stopped part-way', () => {
  it('stops cleanly between chunks, and the same call resumes it to the end without repeating interventions', async () => {
    const dataDir = tempDir();
    const text = fs
      .readFileSync(VALENTINES, 'utf8')
      .replace('at: 2026-02-13T06:00\n    kind: whisper\n    agent: tomas', 'at: 2026-02-13T07:00\n    kind: whisper\n    agent: tomas');
    const scenario = parseScenario(text, VALENTINES);
    let calls = 0;
    const first = await runScenario({ scenario, scenarioFile: VALENTINES, env: { DATA_DIR: dataDir }, days: 0.1, logger, shouldStop: () => ++calls > 3 });
    expect(first.finished).toBe(false);
    expect(first.report).toBeNull();
    const file = path.join(dataDir, 'valentines.sqlite');
    expect(scenarioActions(file)).toEqual(['scenario:0']);
    const second = await runScenario({ scenario, scenarioFile: VALENTINES, env: { DATA_DIR: dataDir }, days: 0.1, logger });
    expect(second.finished).toBe(true);
    expect(second.resumed).toBe(true);
    expect(scenarioActions(file)).toEqual(['scenario:0', 'scenario:1']);
    expect(second.report!.topics[1].agents[0]).toMatchObject({ id: 'tomas', source: 'whisper', first_heard: '2026-02-13T07:00' });
    // A third run of a finished world only rewrites the report.
    const third = await runScenario({ scenario, scenarioFile: VALENTINES, env: { DATA_DIR: dataDir }, days: 0.1, logger });
    expect(third.finished).toBe(true);
    expect(scenarioActions(file)).toHaveLength(2);
  }, 120_000);
});

describe('the Valentine scenario on the LLM mind (the in-process stub), shortened', () => {
  let stub: OpenAIStub;
  let outcome: RunOutcome;

  beforeAll(async () => {
    stub = installTownResponders(await new OpenAIStub().start());
    outcome = await runScenario({
      scenario: loadScenario(VALENTINES),
      scenarioFile: VALENTINES,
      env: { DATA_DIR: tempDir(), OPENAI_BASE_URL: stub.url, OPENAI_API_KEY: 'test', LLM_MODEL: 'stub-model', LLM_TIMEOUT_MS: '5000', LLM_CONCURRENCY: '32' },
      days: 0.1,
      logger,
    });
  }, 120_000);

  afterAll(async () => {
    await stub?.close();
  });

  it('completes through the same LLM stack, and prices its calls per agent-day', () => {
    expect(outcome.finished).toBe(true);
    const r = outcome.report!;
    expect(r.mind).toContain('llm: stub-model');
    expect(r.llm.calls).toBeGreaterThan(0);
    expect(r.llm.calls - r.llm.cached).toBeLessThanOrEqual(stub.stats.requests);
    expect(r.agents).toHaveLength(25);
    expect(r.llm.calls_per_agent_day).toBeCloseTo(r.llm.calls / (25 * 0.1), 1);
    expect(r.llm.per_purpose.map((p) => p.purpose)).toContain('plan');
  });

  it('interviews every agent about every topic at the end, and reports both counts', () => {
    const [party, candidacy] = outcome.report!.topics;
    expect(party.interviewed).toBe(25);
    expect(candidacy.interviewed).toBe(25);
    // The stub answers with its name and its most relevant memory: those whose memory names the party count.
    expect(party.interview!.every((i) => i.answer.startsWith(`I'm ${i.name}.`))).toBe(true);
    expect(party.aware_interview).toBe(party.interview!.filter((i) => i.aware).length);
    expect(party.aware_interview).toBeLessThanOrEqual(party.aware_end);
    expect(party.aware_start).toBe(1);
    expect(stub.stats.bySchema.interview_reply).toBe(50);
  });
});

describe('npm run simulate', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/simulate.ts', ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 90_000 });

  it('refuses a malformed scenario, naming the file and the field', () => {
    const dir = tempDir();
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, 'name: bad\nstart: 2026-02-13T06:00\ndays: two\n');
    const run = cli(['--scenario', bad], { DATA_DIR: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${bad}: days: Invalid input: expected number, received string`);
  }, 30_000);

  it('stops cleanly on Ctrl-C (SIGINT), saying where it stopped, and the world ends with a snapshot', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'long.yaml');
    fs.writeFileSync(file, 'name: long\npersonas: personas\nstart: 2026-02-13T06:00\ndays: 5\n');
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/simulate.ts', '--scenario', file], { env: { ...process.env, DATA_DIR: dir } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('long 0% game time')) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(130);
    expect(out).toMatch(/^stopped at game time 2026-02-1\d \d\d:\d\d \(\d+%\); .*long\.sqlite is saved\. Run the same command to go on\.$/m);
    const db = openWorldDb(path.join(dir, 'long.sqlite'), null, { readonly: true });
    try {
      const snapshot = db.db.prepare('SELECT max(seq) FROM snapshots').pluck().get();
      expect(snapshot).toBe(db.events.lastSeq());
    } finally {
      db.close();
    }
  }, 60_000);

  it('prints plain progress lines when stdout is not a terminal, then where the report is', () => {
    const dir = tempDir();
    const file = path.join(dir, 'small.yaml');
    fs.writeFileSync(
      file,
      'name: small\npersonas: personas\nstart: 2026-02-13T06:00\ndays: 0.1\nattendance:\n  - { place: Hobbs Cafe, ' +
        'from: 2026-02-13T17:00, to: 2026-02-13T18:00 }\n',
    );
    const run = cli(['--scenario', file, '--days', '0.05', '--world', 'cli'], { DATA_DIR: dir });
    expect(run.stdout).toContain('--days 0.05: 1 intervention(s) or attendance window(s) fall after the run');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^cli 0% game time 2026-02-13 06:00: 0 conversations, \d+ memories, LLM 0 calls, 0 tokens, \$0\.0000$/m);
    expect(run.stdout).toMatch(/^cli 100% game time 2026-02-13 07:12/m);
    expect(run.stdout).toContain(`report: ${path.join(dir, 'cli.report.json')} and ${path.join(dir, 'cli.report.md')}`);
    expect(fs.existsSync(path.join(dir, 'cli.report.json'))).toBe(true);
  }, 90_000);
});
