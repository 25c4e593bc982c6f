// `npm run simulate -- --scenario <file> [--days N] [--world NAME] [--seed N] [--seeds 1..5]`: a
// scenario run with no browser, with a progress bar (plain lines when stdout is not a terminal).
// Ctrl-C stops cleanly (the world is saved); the same command resumes it. At the end the report's
// paths are printed; with several seeds, each figure as mean ± sd.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { loadConfig } from '../server/src/config';
import { createLogger } from '../server/src/town/logger';
import { formatIsoMinute } from '../server/src/protocol/time';
import { loadScenario } from '../server/src/analysis/scenario';
import { runScenario, worldNameFor, type RunProgress } from '../server/src/analysis/runScenario';
import { seedsMarkdown, summariseSeeds } from '../server/src/analysis/seeds';
import type { Report } from '../server/src/analysis/report';

const USAGE = 'usage: npm run simulate -- --scenario <file.yaml> [--days N] [--world NAME] [--seed N | --seeds 1..5]';

/** "1..5", "1,3,7" or "4". */
export function parseSeeds(text: string): number[] {
  const range = /^(\d+)\.\.(\d+)$/.exec(text);
  if (range) {
    const [a, b] = [Number(range[1]), Number(range[2])];
    if (b < a) throw new Error(`--seeds ${text}: the range ends before it starts`);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  }
  if (!/^\d+(,\d+)*$/.test(text)) throw new Error(`--seeds ${text}: expected a range like 1..5 or a list like 1,2,3`);
  return text.split(',').map(Number);
}

function progressReporter(label: string) {
  const tty = process.stdout.isTTY === true;
  let bar: cliProgress.SingleBar | null = null;
  let lastLine = 0;
  let note = '';
  const payload = (p: RunProgress) => ({
    time: formatIsoMinute(p.gameMs).replace('T', ' '),
    conversations: p.conversations,
    memories: p.memories,
    calls: p.llmCalls,
    tokens: p.tokens,
    dollars: p.costUsd.toFixed(4),
    note,
  });
  const pct = (p: RunProgress) => Math.round((100 * (p.gameMs - p.startGameMs)) / Math.max(1, p.endGameMs - p.startGameMs));
  return {
    update(p: RunProgress) {
      const total = Math.round((p.endGameMs - p.startGameMs) / 60_000);
      const value = Math.max(0, Math.round((p.gameMs - p.startGameMs) / 60_000));
      if (tty) {
        if (!bar) {
          bar = new cliProgress.SingleBar(
            {
              format:
                `${label} {bar} {percentage}% | {time} | ETA {eta_formatted} | {conversations} conversations, {memories} ` +
                `memories | LLM {calls} calls, {tokens} tokens, \${dollars}{note}`,
              hideCursor: true,
              etaBuffer: 50,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(total, value, payload(p));
        } else bar.update(value, payload(p));
      } else if (Date.now() - lastLine > 5000 || value === total || value === 0) {
        lastLine = Date.now();
        const q = payload(p);
        console.log(
          `${label} ${pct(p)}% game time ${q.time}: ${q.conversations} conversations, ${q.memories} memories, ` +
            `LLM ${q.calls} calls, ${q.tokens} tokens, $${q.dollars}`,
        );
      }
    },
    /** A word after the bar (on a terminal), or a line of its own. */
    say(text: string) {
      if (bar) {
        note = ` — ${text}`;
        bar.update({ note });
      } else console.error(text);
    },
    stop() {
      bar?.stop();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string' },
      days: { type: 'string' },
      world: { type: 'string' },
      seed: { type: 'string' },
      seeds: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return void console.log(USAGE);
  if (!values.scenario) throw new Error(`--scenario is required\n${USAGE}`);
  const scenario = loadScenario(values.scenario);
  const days = values.days === undefined ? undefined : Number(values.days);
  if (days !== undefined && !(days > 0)) throw new Error(`--days ${values.days}: expected a positive number of game days`);
  if (values.seed !== undefined && values.seeds !== undefined) throw new Error('give --seed or --seeds, not both');
  if (values.seed !== undefined && !/^\d+$/.test(values.seed)) throw new Error(`--seed ${values.seed}: expected a whole number`);
  const seeds = values.seeds !== undefined ? parseSeeds(values.seeds) : [values.seed === undefined ? undefined : Number(values.seed)];
  const config = loadConfig(process.env, {});
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);

  let stopping = false;
  let current: ReturnType<typeof progressReporter> | null = null;
  const stop = () => {
    if (stopping) {
      current?.stop();
      console.error('\nstopping now; the world resumes from its last logged event');
      process.exit(130);
    }
    stopping = true;
    current?.say('stopping after this chunk and saving the world (Ctrl-C again to quit at once)…');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const reports: Report[] = [];
  const worlds: string[] = [];
  for (const seed of seeds) {
    const world = worldNameFor(scenario, values.world, seeds.length > 1 ? seed : values.seed === undefined ? undefined : seed);
    const bar = progressReporter(world);
    current = bar;
    let last: RunProgress | null = null;
    const outcome = await runScenario({
      scenario,
      scenarioFile: values.scenario,
      env: process.env,
      world: values.world,
      seed: seeds.length > 1 || values.seed !== undefined ? seed : undefined,
      days,
      logger,
      onProgress: (p) => {
        last = p;
        bar.update(p);
      },
      shouldStop: () => stopping,
    }).finally(() => bar.stop());
    const file = path.join(outcome.config.dataDir, `${outcome.world}.sqlite`);
    if (!outcome.finished) {
      const p = last as RunProgress | null;
      const at = p
        ? ` at game time ${formatIsoMinute(p.gameMs).replace('T', ' ')} (${Math.round((100 * (p.gameMs - p.startGameMs)) / (p.endGameMs - p.startGameMs))}%)`
        : '';
      console.log(`stopped${at}; ${file} is saved. Run the same command to go on.`);
      process.exit(130);
    }
    worlds.push(world);
    reports.push(outcome.report!);
    console.log(`${outcome.resumed ? 'resumed and finished' : 'finished'}: ${file}`);
    console.log(`report: ${outcome.reportJson} and ${outcome.reportMd}`);
    for (const t of outcome.report!.topics) {
      const interview = t.aware_interview !== null ? ` (interview: ${t.aware_interview})` : '';
      console.log(`  ${t.name}: aware ${t.aware_start} → ${t.aware_end} of ${outcome.report!.agents.length}${interview}`);
    }
    console.log(`  density: ${outcome.report!.density.start} → ${outcome.report!.density.end}`);
    for (const a of outcome.report!.attendance)
      console.log(`  ${a.place} ${a.from}–${a.to.slice(11)}: ${a.present} present, ${a.invited_present} of ${a.invited} invited came`);
  }
  if (seeds.length > 1) {
    const rows = summariseSeeds(reports);
    const base = values.world ?? scenario.name;
    const md = seedsMarkdown(scenario.name, seeds as number[], worlds, rows);
    const dataDir = loadConfig(process.env, {}).dataDir;
    fs.writeFileSync(path.join(dataDir, `${base}.seeds.json`), `${JSON.stringify({ scenario: scenario.name, seeds, worlds, figures: rows }, null, 2)}\n`);
    fs.writeFileSync(path.join(dataDir, `${base}.seeds.md`), md);
    console.log(`\n${md}`);
    console.log(`summary: ${path.join(dataDir, `${base}.seeds.json`)} and .seeds.md`);
    console.log(`the diffusion band over these seeds: /analysis?world=${worlds[0]}&seeds=${base} on the running server`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
