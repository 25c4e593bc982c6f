// Cognition benchmarks: 25 agents over one game day on the OpenAI-compatible stub (1 s latency,
// concurrency 32), once per conversation mode (turns: a call per line; whole: a call per conversation):
// calls and tokens per agent-day, by purpose, and the efficiency of the wall time against the bound the
// endpoint sets (calls × latency / concurrency). Plus the offline mind: its speed, and what an offline
// day of the shipped town shows of its cognition (own actions, whom it talks to, invitations that change
// plans, statuses, variety of talk, the interview benchmark's pass rates).
// Run alone with `npx tsx bench/cognition.ts`.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { OpenAIStub } from '../tests/fakes/openaiStub';
import { installTownResponders } from '../tests/fakes/townResponders';
import { loadConfig, type ConfigInput, type ConversationMode } from '../server/src/config';
import { Town } from '../server/src/town/Town';
import { buildMinds } from '../server/src/town/minds';
import { createLogger } from '../server/src/town/logger';
import { GAME_MS_PER_DAY, GAME_MS_PER_HOUR, dayIndex } from '../server/src/protocol/time';
import { measureCognition } from '../server/src/analysis/cognition';
import { interviewTown } from '../server/src/analysis/believability';
import { clonePersonas } from './fixtures';
import type { LlmMind } from '../server/src/agent/LlmMind';

const AGENTS = 25;
const LATENCY_MS = 1000;
const CONCURRENCY = 32;

async function openTown(overrides: Partial<ConfigInput>, personasDir = clonePersonas(AGENTS)): Promise<Town> {
  const config = loadConfig(
    {},
    { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-')), personasDir, startTime: '2026-02-13T00:00', logLevel: 'silent', ...overrides },
  );
  const minds = buildMinds(config, createLogger('silent'));
  return Town.open(config, { embedder: minds.embedder, createMind: minds.createMind, logger: createLogger('silent') });
}

/** The LLM mind, live: the clock runs as fast as cognition lets it (CLOCK_POLICY=wait). */
export async function benchLlmDay(mode: ConversationMode, prefix: string, mistakeRate = 0): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const stub = installTownResponders(await new OpenAIStub({ latencyMs: LATENCY_MS, mistakeRate, seed: 1, hangMs: 2000 }).start());
  const town = await openTown({
    rate: 6000,
    clockPolicy: 'wait',
    conversationMode: mode,
    llm: { baseURL: stub.url, apiKey: 'bench', model: 'stub-model', concurrency: CONCURRENCY, timeoutMs: 30_000 },
  });
  const end = town.gameMs + GAME_MS_PER_DAY;
  const started = performance.now();
  let last = started;
  let peak = 0;
  let inFlightSum = 0;
  let samples = 0;
  while (town.gameMs < end || town.runtime.inFlight > 0) {
    await new Promise((r) => setTimeout(r, 50));
    const now = performance.now();
    if (town.gameMs < end) town.loop.tick(now - last);
    else town.loop.tick(0);
    last = now;
    const inFlight = town.stack?.scheduler.inFlight ?? 0;
    peak = Math.max(peak, inFlight);
    inFlightSum += inFlight;
    samples++;
  }
  const wallS = (performance.now() - started) / 1000;
  const calls = town.db.summariseCalls();
  const bound = (stub.stats.requests * LATENCY_MS) / 1000 / CONCURRENCY;
  out[`${prefix}.calls_per_agent_day`] = calls.calls / AGENTS;
  out[`${prefix}.tokens_per_agent_day`] = (calls.promptTokens + calls.completionTokens) / AGENTS;
  out[`${prefix}.wall_s`] = wallS;
  out[`${prefix}.bound_s`] = bound;
  out[`${prefix}.efficiency`] = bound / wallS;
  out[`${prefix}.peak_in_flight`] = peak;
  out[`${prefix}.mean_in_flight`] = inFlightSum / Math.max(1, samples);
  out[`${prefix}.conversations`] = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 10_000_000).filter((e) => e.kind === 'conversation.start').length;
  for (const [purpose, p] of Object.entries(calls.byPurpose)) out[`${prefix}.calls_per_agent_day.${purpose}`] = p.calls / AGENTS;
  for (const [purpose, p] of Object.entries(calls.byPurpose)) out[`${prefix}.tokens_per_agent_day.${purpose}`] = p.tokens / AGENTS;
  if (mistakeRate > 0) {
    // What the faulty double cost: asks that fell back, requests per ask (repairs, longer budgets, transport retries), repairs.
    const mind = town.mind as LlmMind;
    const tallies = [...mind.tally.values()];
    const asks = tallies.reduce((s, t) => s + t.asks, 0);
    const fallbacks = [...mind.fallbacks.values()].reduce((s, n) => s + n, 0);
    const tag = `faulty_${Math.round(mistakeRate * 100)}`;
    out[`llm.fallback_share.${tag}`] = fallbacks / Math.max(1, asks);
    out[`llm.requests_per_ask.${tag}`] = (stub.stats.requests - (stub.stats.bySchema.probe_reply ?? 0)) / Math.max(1, asks);
    out[`llm.repairs_per_agent_day.${tag}`] = tallies.reduce((s, t) => s + t.repaired, 0) / AGENTS;
  }
  await town.close();
  await stub.close();
  return out;
}

/** The shipped town on the offline mind, 13 Feb 06:00 to the next noon, read back for its cognition, then interviewed. */
async function benchOfflineDay(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const town = await openTown({ startTime: '2026-02-13T06:00' }, 'personas');
  const start = town.gameMs;
  await town.loop.runLockstep(start + 30 * GAME_MS_PER_HOUR, 10_000);
  town.log.flush();
  const m = measureCognition(town.db);
  const day1 = dayIndex(start);
  out['offline_day.own_actions_min_per_agent'] = Math.min(...m.agents.map((a) => a.ownActions));
  out['offline_day.statuses_changed'] = m.agents.filter((a) => a.statusByDay[day1 + 1] !== undefined && a.statusByDay[day1 + 1] !== a.statusByDay[day1]).length;
  out['offline_day.agents'] = m.agents.length;
  for (const [basis, n] of Object.entries(m.conversations)) out[`offline_day.conversations.${basis}`] = n;
  out['offline_day.invitation_replans'] = m.invitationReplans.length;
  out['offline_day.planning_thoughts'] = m.planningThoughts;
  out['offline_day.lines'] = m.lines;
  out['offline_day.distinct_line_share'] = m.distinctLines / Math.max(1, m.lines);
  const report = await interviewTown(town);
  for (const [category, rate] of Object.entries(report.passRate)) out[`interview.pass_rate.${category}`] = rate;
  out['interview.pass_rate'] = report.overall;
  // The same grader on answers that must fail: another agent's records, shuffled records, a generic sentence.
  out['interview.control_pass_rate'] = report.controlPassRate;
  for (const [control, c] of Object.entries(report.controls)) out[`interview.control_pass_rate.${control}`] = c.overall;
  await town.close();
  return out;
}

/** The LLM path against real-model mistakes: the clean stub day, then the same day with 20% of first replies faulty. */
export async function benchLlm(): Promise<Record<string, number>> {
  return { ...(await benchLlmDay('turns', 'cognition')), ...(await benchLlmDay('turns', 'llm.faulty_20', 0.2)) };
}

export async function benchCognition(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};

  // The offline mind, headless: game days per second of wall time.
  const offline = await openTown({});
  const t0 = performance.now();
  await offline.loop.runLockstep(offline.gameMs + GAME_MS_PER_DAY, 10_000);
  out['offline.game_days_per_s.agents_25'] = 1000 / (performance.now() - t0);
  await offline.close();
  Object.assign(out, await benchOfflineDay());
  Object.assign(out, await benchLlmDay('turns', 'cognition'));
  Object.assign(out, await benchLlmDay('whole', 'cognition.whole'));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchCognition().then((r) => console.table(r));
}
