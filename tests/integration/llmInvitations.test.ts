// "Invited" on an LLM run, over real HTTP to the OpenAI-compatible stub: the conversation summary's JSON
// records the invitations made in the talk (who invited whom, to what, when, and the answer); converse.ts
// logs them (`conversation.summarised`) and the attendance metric reads them. The control: the same town
// whose model records no invitation has nobody invited (not "aware" in their stead).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { buildMinds } from '../../server/src/town/minds';
import { createLogger } from '../../server/src/town/logger';
import { invitationsOf, type TopicSpec } from '../../server/src/analysis/metrics';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import type { StubRequest } from '../fakes/openaiStub';
import { subsetPersonas, tempDir } from '../helpers';

const PARTY: TopicSpec = { name: 'party', phrase: 'party at Hobbs Cafe' };

/** Three residents on the stub from 16:00 on Valentine's Day, talking in whole conversations, for three game hours. */
async function evening(recordInvitations: boolean): Promise<{ town: Town; stub: OpenAIStub; asked: StubRequest[] }> {
  const stub = installTownResponders(await new OpenAIStub().start(), { recordInvitations });
  // What the summaries were asked, as the endpoint saw it.
  const asked: StubRequest[] = [];
  const summarise = stub.responders.get('summarise_reply')!;
  stub.respond('summarise_reply', (r) => (asked.push(r), summarise(r)));
  const config = loadConfig(
    {},
    {
      dataDir: tempDir(),
      personasDir: subsetPersonas(['isabella', 'claire', 'omar']),
      startTime: '2026-02-14T16:00',
      conversationMode: 'whole',
      logLevel: 'silent',
      llm: { baseURL: stub.url, apiKey: 'test', model: 'stub-model', concurrency: 8 },
    },
  );
  const minds = await buildMinds(config, createLogger('silent'));
  const town = await Town.open(config, { embedder: minds.embedder, createMind: minds.createMind, logger: createLogger('silent') });
  await town.loop.runLockstep(town.gameMs + 3 * GAME_MS_PER_HOUR, 30_000);
  town.log.flush();
  return { town, stub, asked };
}

describe('invitations recorded by LLM conversation summaries', () => {
  let recorded: Awaited<ReturnType<typeof evening>>;
  let silent: Awaited<ReturnType<typeof evening>>;

  beforeAll(async () => {
    recorded = await evening(true);
    silent = await evening(false);
  }, 120_000);

  afterAll(async () => {
    for (const run of [recorded, silent]) {
      await run?.town.close();
      await run?.stub.close();
    }
  });

  it('asks the model for invitations in the summary schema', () => {
    const request = recorded.asked[0];
    expect(request).toBeDefined();
    expect(recorded.stub.stats.violations).toEqual([]);
    expect(JSON.stringify(request.schema)).toContain('"invitations"');
    expect(request.messages.map((m) => m.content).join('\n')).toMatch(/invitations: each invitation one of them made to the other/);
  });

  it('makes the listener of a summary that records an invitation invited, and accepted', () => {
    const events = recorded.town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000);
    const summaries = events.filter((e) => e.kind === 'conversation.summarised');
    expect(summaries.length).toBe(events.filter((e) => e.kind === 'conversation.end').length);
    const made = summaries.flatMap((e) => (e.kind === 'conversation.summarised' ? e.data.invitations : []));
    expect(made.length).toBeGreaterThan(0);
    const invited = invitationsOf(recorded.town.db, PARTY, Number.MAX_SAFE_INTEGER)!;
    expect(invited).not.toBeNull();
    expect([...invited.keys()].sort()).toEqual([...new Set(made.map((i) => i.guestId))].sort());
    for (const i of made) {
      expect(i.hostId, 'the host is a resident').not.toBeNull();
      expect(i.hostId).not.toBe(i.guestId);
      expect(invited.get(i.guestId)).toBe(true);
    }
    // Not the same as having heard of it: invited is fewer than or as many as the residents.
    expect(invited.size).toBeLessThan(3);
  });

  it('makes nobody invited when the summaries record none (the control), though the party was talked about', () => {
    const events = silent.town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000);
    expect(events.some((e) => e.kind === 'conversation.utterance' && /party/i.test(e.data.text))).toBe(true);
    expect(events.filter((e) => e.kind === 'conversation.summarised').length).toBeGreaterThan(0);
    const invited = invitationsOf(silent.town.db, PARTY, Number.MAX_SAFE_INTEGER);
    expect(invited).not.toBeNull();
    expect(invited!.size).toBe(0);
  });

  it('does not count an invitation to another gathering', () => {
    const quiz: TopicSpec = { name: 'quiz', phrase: 'quiz night at The Rose and Crown Pub' };
    expect(invitationsOf(recorded.town.db, quiz, Number.MAX_SAFE_INTEGER)!.size).toBe(0);
  });
});
