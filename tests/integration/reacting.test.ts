// Reacting to a world event, as the operator's "inject" makes one (issue 18 §1): a fire alarm at the place
// where agents are changes what they do (that it breaks off a talk there: tests/unit/simulation.test.ts) (those who work there mostly deal
// with it, the others mostly leave), each as a logged `react` decision. The control is the same town, the
// same moment and the same alarm somewhere else: the same agents carry on as planned.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { createLogger } from '../../server/src/town/logger';
import { GAME_MS_PER_MINUTE } from '../../server/src/protocol/time';
import type { LoggedEvent } from '../../server/src/protocol/events';
import { tempDir } from '../helpers';

const embedder = loadOfflineEmbedder();
const ALARM = 'The fire alarm is going off at Hobbs Cafe';
/** Lunchtime on the first day: the cafe's owner and its lunch guests are there. */
const INJECT_AT = Date.UTC(2026, 1, 13, 12, 50);

interface Outcome {
  /** Who was at Hobbs Cafe when the alarm was raised. */
  there: string[];
  /** Where each of them is 20 game minutes later, and what it is doing. */
  after: Map<string, { address: string; description: string }>;
  events: LoggedEvent[];
}

/** One town, run to the moment, an alarm raised at `place`, then 20 more minutes. */
async function alarmAt(place: string): Promise<Outcome> {
  const config = loadConfig({}, { dataDir: tempDir(), logLevel: 'silent', startTime: '2026-02-13T06:00' });
  const town = await Town.open(config, { mind: new OfflineMind(), embedder, logger: createLogger('silent'), runtimeSettings: OFFLINE_RUNTIME_SETTINGS });
  try {
    await town.loop.runLockstep(INJECT_AT);
    const there = town.sim
      .getState()
      .agents.filter((a) => a.current.address.startsWith('Hobbs Cafe') && !a.asleep)
      .map((a) => a.spec.id as string);
    const from = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000).length;
    town.commands.inject(place === 'Hobbs Cafe' ? ALARM : `The fire alarm is going off at ${place}`, place, 'test');
    await town.loop.runLockstep(INJECT_AT + 20 * GAME_MS_PER_MINUTE);
    town.log.flush();
    const after = new Map(town.sim.getState().agents.map((a) => [a.spec.id as string, { address: a.current.address, description: a.current.description }]));
    return { there, after, events: town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000).slice(from) };
  } finally {
    await town.close();
  }
}

describe('reacting to an event at the agent’s place', () => {
  let atCafe: Outcome;
  let elsewhere: Outcome;
  beforeAll(async () => {
    atCafe = await alarmAt('Hobbs Cafe');
    elsewhere = await alarmAt('Oak Hill College');
  }, 120_000);

  it('a fire alarm at the cafe makes the people there leave or deal with it, each a logged decision', () => {
    expect(atCafe.there.length).toBeGreaterThanOrEqual(2);
    const reacts = atCafe.events.filter((e) => e.kind === 'agent.decided' && e.data.decision === 'react');
    const decided = new Map(reacts.map((e) => [e.agentId as string, e.kind === 'agent.decided' ? e.data : null]));
    for (const id of atCafe.there) {
      const d = decided.get(id);
      expect(d, `${id} decided nothing`).toBeTruthy();
      expect(d).toMatchObject({ about: ALARM, inputs: { danger: true, atPlace: true } });
      const now = atCafe.after.get(id)!;
      const staff = d!.inputs.staff === true;
      // Staff who chose to stay deal with it; everyone else who chose to leave is out of the cafe or on the way.
      if (staff && d!.chose) expect(now.description).toMatch(/dealing with the fire alarm at Hobbs Cafe/);
      const left = /leaving Hobbs Cafe because of the fire alarm|^walking|@ (?!Hobbs Cafe)/;
      if (!staff && d!.chose) expect(`${now.description} @ ${now.address}`).toMatch(left);
    }
    // Most people there changed what they do (p 0.9 to leave, 0.8 for staff to deal with it).
    const replans = atCafe.events.filter((e) => e.kind === 'plan.made' && 'reason' in e.data && e.data.reason === ALARM).map((e) => e.agentId);
    expect(new Set(replans).size).toBeGreaterThanOrEqual(Math.ceil(atCafe.there.length / 2));
  });

  it('the control: the same alarm at the college changes nothing for the people at the cafe', () => {
    expect(elsewhere.there).toEqual(atCafe.there);
    // At the cafe they react within a step; here nothing happens to them in those minutes (one who walks on to
    // the college later meets the alarm there, as it should).
    const soon = (e: LoggedEvent) => e.gameMs <= INJECT_AT + 5 * GAME_MS_PER_MINUTE && elsewhere.there.includes(e.agentId as string);
    expect(
      atCafe.events.filter((e) => e.kind === 'agent.decided' && e.data.decision === 'react' && e.gameMs <= INJECT_AT + 5 * GAME_MS_PER_MINUTE),
    ).toHaveLength(atCafe.there.length);
    expect(elsewhere.events.filter((e) => soon(e) && e.kind === 'agent.decided' && e.data.decision === 'react')).toEqual([]);
    expect(elsewhere.events.filter((e) => soon(e) && e.kind === 'plan.made' && 'reason' in e.data)).toEqual([]);
  });
});
