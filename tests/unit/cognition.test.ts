// The agent runtime's decisions, each over a real SQLite world file, with a mind scripted where the test
// needs one decision pinned (the offline mind answers everything else): whether to react and whom to
// talk to come from the one appraisal call; relationships are revised by talks and read when deciding
// and speaking; a planning thought that accepts an invitation re-plans the day; the status is revised
// each morning; the reflection counter survives a restart with whispers counted; the ablations hold.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonas } from '../../server/src/world/persona';
import { AgentRuntime } from '../../server/src/agent/AgentRuntime';
import type { RuntimeSettings, SimView } from '../../server/src/agent/context';
import { OfflineMind, planFromRoutine } from '../../server/src/agent/offlineMind';
import type { Acquaintance, Appraisal, ConversationSummary, MindContext, SummaryInput, TurnInput, TurnOutput } from '../../server/src/agent/mind';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { openWorldDb, type WorldDb } from '../../server/src/store/WorldDb';
import { recordsFor } from '../../server/src/town/records';
import type { EventInput } from '../../server/src/protocol/events';
import { keepPlan, type DayPlan } from '../../server/src/protocol/plan';
import type { Input, Observation } from '../../server/src/sim/types';
import { asAgentId } from '../../server/src/world/types';
import { dayIndex } from '../../server/src/protocol/time';
import { tempDir } from '../helpers';

const map = loadTownMap('maps/town.tmj');
const personas = new Map(loadPersonas('personas', map).map((p) => [p.id as string, p]));
const embedder = loadOfflineEmbedder();
const ISABELLA = asAgentId('isabella');
const CLAIRE = asAgentId('claire');
const T0 = Date.UTC(2026, 1, 13, 10, 0);
const DAY = dayIndex(T0);

/** The sim as the runtime sees it: every agent awake with its routine plan for the day. */
function simView(plans = new Map<string, DayPlan>()): SimView {
  return {
    agent: (id) => {
      const p = personas.get(id);
      if (!p) return undefined;
      const plan = plans.get(id) ?? planFromRoutine(p, map, 1, DAY);
      return {
        spec: {
          wakeMinute: Number(p.wakeAt.slice(0, 2)) * 60 + Number(p.wakeAt.slice(3)),
          sleepMinute: Number(p.sleepAt.slice(0, 2)) * 60 + Number(p.sleepAt.slice(3)),
        },
        current: { description: 'serving customers', address: 'Hobbs Cafe: cafe' },
        plan: keepPlan(plan),
        conversationId: null,
      };
    },
  };
}

function runtimeOver(db: WorldDb, mind: OfflineMind, settings: Partial<RuntimeSettings> = {}, events: EventInput[] = []): AgentRuntime {
  return new AgentRuntime({
    map,
    seed: 1,
    personas,
    mind,
    memories: db.memories,
    embedder,
    records: recordsFor(db),
    sim: simView(),
    emit: (e) => (events.push(...e), db.events.append(e)),
    settings: { importanceBatchSize: 1, ...settings },
  });
}

function world(): WorldDb {
  return openWorldDb(path.join(tempDir(), 'w.sqlite'), { model: embedder.model, dimension: embedder.dimension });
}

const seen = (description: string, actor?: string): Observation => ({
  description,
  subject: description.split(' is ')[0],
  predicate: 'is',
  object: description.split(' is ')[1] ?? '',
  arena: 'Hobbs Cafe: cafe',
  actorId: actor ? asAgentId(actor) : undefined,
});

/** The offline mind with one appraisal pinned, counting the reactions it is asked for. */
class PinnedAppraisal extends OfflineMind {
  reactions = 0;
  company: Acquaintance[] = [];
  constructor(private readonly appraisal: Partial<Appraisal>) {
    super();
  }
  override async appraise(ctx: MindContext, observations: Observation[], company: Acquaintance[]): Promise<Appraisal> {
    this.company = company;
    const offline = await super.appraise(ctx, observations, company);
    return { ...offline, ...this.appraisal };
  }
  override async react(ctx: MindContext, observations: Observation[]) {
    this.reactions++;
    return {
      reason: observations[0].description,
      actions: [{ startMinute: 600, durationMinutes: 20, description: 'helping out', emoji: '🤝', address: 'Hobbs Cafe: cafe' }],
    };
  }
}

describe('the agent runtime', () => {
  it('seeds many residents over many turns of the event loop, so a server answers while a big town starts', async () => {
    const db = world();
    const runtime = runtimeOver(db, new OfflineMind());
    // 200 residents' seeds (the shipped ten, twenty times over): a timer set now must fire before the last is written.
    const ids = Array.from({ length: 20 }, () => [...personas.keys()].map(asAgentId)).flat();
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      await runtime.seed(ids, Date.UTC(2026, 1, 13, 7));
    } finally {
      clearInterval(timer);
    }
    expect(turns).toBeGreaterThan(1);
    expect(db.memories.count(ids[0])).toBeGreaterThan(0);
  });

  it('reacts when the appraisal says so, even to what it rates low, and not to a high rating alone', async () => {
    const db = world();
    const eager = new PinnedAppraisal({ ratings: [2], react: true });
    const inputs = await runtimeOver(db, eager).run({
      kind: 'observe',
      agentId: ISABELLA,
      gameMs: T0,
      observations: [seen('Omar Haddad is stacking shelves', 'omar')],
      company: [],
    });
    expect(eager.reactions).toBe(1);
    expect(inputs).toContainEqual(expect.objectContaining({ kind: 'replan', agentId: 'isabella', reason: 'Omar Haddad is stacking shelves' }));
    const calm = new PinnedAppraisal({ ratings: [9], react: false });
    const none = await runtimeOver(db, calm).run({
      kind: 'observe',
      agentId: ISABELLA,
      gameMs: T0,
      observations: [seen('Omar Haddad is in a fire drill', 'omar')],
      company: [],
    });
    expect(calm.reactions).toBe(0);
    expect(none.filter((i) => i.kind === 'replan')).toEqual([]);
    db.close();
  });

  it('decides to talk to someone in view from the appraisal, and says what it had with them', async () => {
    const db = world();
    const mind = new PinnedAppraisal({ talkTo: 'claire' });
    const inputs = await runtimeOver(db, mind).run({
      kind: 'observe',
      agentId: ISABELLA,
      gameMs: T0,
      observations: [seen('Claire Moreau is reading', 'claire')],
      company: [CLAIRE],
    });
    expect(inputs).toContainEqual({ kind: 'talk', agentId: 'isabella', partnerId: 'claire', basis: 'acquainted' });
    expect(mind.company.map((a) => [a.persona.id, a.relationship])).toEqual([['claire', personas.get('isabella')!.relationships.claire]]);
    // Someone not offered as company is not talked to, whatever the mind says.
    const stray = await runtimeOver(db, new PinnedAppraisal({ talkTo: 'omar' })).run({
      kind: 'observe',
      agentId: ISABELLA,
      gameMs: T0,
      observations: [seen('Claire Moreau is reading', 'claire')],
      company: [CLAIRE],
    });
    expect(stray.filter((i) => i.kind === 'talk')).toEqual([]);
    db.close();
  });

  it('revises the relationship after a talk, logs it, and reads it when deciding to talk and when speaking', async () => {
    const db = world();
    const events: EventInput[] = [];
    const heard: Array<string | null> = [];
    class Listening extends PinnedAppraisal {
      override async converseTurn(ctx: MindContext, input: TurnInput): Promise<TurnOutput> {
        heard.push(input.relationship);
        return super.converseTurn(ctx, input);
      }
    }
    const mind = new Listening({});
    const runtime = runtimeOver(db, mind, {}, events);
    await runtime.run({ kind: 'converse', conversationId: 1, initiator: ISABELLA, partner: CLAIRE, gameMs: T0, arena: 'Hobbs Cafe: cafe' });
    const revised = events.filter((e) => e.kind === 'relationship.revised');
    expect(
      revised.map((e) => [e.agentId, e.kind === 'relationship.revised' && e.data.otherId, e.kind === 'relationship.revised' && e.data.interactions]),
    ).toEqual([
      ['isabella', 'claire', 1],
      ['claire', 'isabella', 1],
    ]);
    const isabellaNow = db.relationshipsOf(ISABELLA).find((r) => r.otherId === 'claire')!;
    expect(isabellaNow.summary).toMatch(/^Claire, the librarian, is Isabella's closest friend\. Last talked on February 13/);
    expect(heard[0]).toBe(personas.get('isabella')!.relationships.claire);
    // The next day: deciding whom to talk to and speaking both read the revised line.
    heard.length = 0;
    await runtime.run({
      kind: 'observe',
      agentId: ISABELLA,
      gameMs: T0 + 86_400_000,
      observations: [seen('Claire Moreau is reading', 'claire')],
      company: [CLAIRE],
    });
    expect(mind.company[0].relationship).toBe(isabellaNow.summary);
    expect(mind.company[0].conversations).toBe(1);
    await runtime.run({ kind: 'converse', conversationId: 2, initiator: ISABELLA, partner: CLAIRE, gameMs: T0 + 86_400_000, arena: 'Hobbs Cafe: cafe' });
    expect(heard[0]).toBe(isabellaNow.summary);
    expect(db.relationshipsOf(ISABELLA).find((r) => r.otherId === 'claire')!.interactions).toBe(2);
    db.close();
  });

  it('stores a planning thought after a talk, and an invitation accepted for later today re-plans the day', async () => {
    const db = world();
    class Inviting extends OfflineMind {
      override async summariseConversation(input: SummaryInput): Promise<ConversationSummary> {
        const summary = await super.summariseConversation(input);
        return {
          ...summary,
          plans: {
            claire: {
              thought: 'Claire Moreau will go to the party at Hobbs Cafe at 5pm.',
              appointment: { startMinute: 17 * 60, durationMinutes: 90, description: 'attending the party', emoji: '🎉', address: 'Hobbs Cafe: cafe' },
            },
          },
        };
      }
    }
    const inputs = await runtimeOver(db, new Inviting()).run({
      kind: 'converse',
      conversationId: 1,
      initiator: ISABELLA,
      partner: CLAIRE,
      gameMs: T0,
      arena: 'Hobbs Cafe: cafe',
    });
    const replan = inputs.find((i): i is Extract<Input, { kind: 'replan' }> => i.kind === 'replan')!;
    expect(replan).toMatchObject({ agentId: 'claire', fromMinute: 17 * 60, reason: 'Claire Moreau will go to the party at Hobbs Cafe at 5pm.' });
    expect(replan.actions[0]).toMatchObject({ description: 'attending the party', startMinute: 1020 });
    expect(replan.actions[1].startMinute).toBe(1110);
    const thought = db.memories.recent(CLAIRE, 20, ['thought'])[0];
    expect(thought.description).toBe('Claire Moreau will go to the party at Hobbs Cafe at 5pm.');
    expect(thought.evidenceIds.length).toBeGreaterThan(0);
    // The talk frees the agents first; the re-plan comes after, from the background.
    expect(inputs.findIndex((i) => i.kind === 'conversationEnd')).toBeLessThan(inputs.indexOf(replan));
    db.close();
  });

  it('revises the status in the morning from yesterday, not on the first morning', async () => {
    const db = world();
    const events: EventInput[] = [];
    const runtime = runtimeOver(db, new OfflineMind(), {}, events);
    const wake = Date.UTC(2026, 1, 13, 5, 0);
    await runtime.run({ kind: 'plan', agentId: CLAIRE, day: DAY, gameMs: wake });
    expect(events.filter((e) => e.kind === 'status.revised')).toEqual([]);
    expect(runtime.statusOf(CLAIRE)).toBe(personas.get('claire')!.currently);
    await runtime.whisper(CLAIRE, 'Claire Moreau found a rare first edition in the donation.', wake + 4 * 3_600_000);
    await runtime.run({ kind: 'plan', agentId: CLAIRE, day: DAY + 1, gameMs: wake + 86_400_000 });
    const status = events.find((e) => e.kind === 'status.revised');
    expect(status?.data).toEqual({ day: DAY + 1, currently: expect.stringContaining('rare first edition') });
    expect(runtime.statusOf(CLAIRE)).toContain('rare first edition');
    // A new runtime over the same file reads the status back.
    expect(runtimeOver(db, new OfflineMind()).statusOf(CLAIRE)).toContain('rare first edition');
    db.close();
  });

  it('resumes the reflection counter with whispers counted, as the live counter counts them', async () => {
    const db = world();
    const runtime = runtimeOver(db, new OfflineMind(), { reflectionThreshold: 1000 });
    await runtime.run({ kind: 'observe', agentId: CLAIRE, gameMs: T0, observations: [seen('Omar Haddad is planning a party', 'omar')], company: [] });
    const seenOnly = runtime.reflectionProgress(CLAIRE);
    await runtime.whisper(CLAIRE, 'You should read more poetry.', T0 + 60_000);
    const live = runtime.reflectionProgress(CLAIRE);
    expect(seenOnly).toBeGreaterThan(0);
    expect(live).toBeGreaterThan(seenOnly);
    expect(runtimeOver(db, new OfflineMind(), { reflectionThreshold: 1000 }).reflectionProgress(CLAIRE)).toBe(live);
    db.close();
  });

  it('without observation an agent notices nobody to talk to (the control, with it, starts a talk with the same company)', async () => {
    const asks = async (ablation: RuntimeSettings['ablation']) => {
      const db = world();
      const inputs = await runtimeOver(db, new OfflineMind(), { ablation }).run({
        kind: 'observe',
        agentId: ISABELLA,
        gameMs: T0,
        observations: [seen('Claire Moreau is reading', 'claire')],
        company: [CLAIRE],
      });
      db.close();
      return inputs.filter((i) => i.kind === 'talk');
    };
    expect(await asks('none')).toEqual([{ kind: 'talk', agentId: 'isabella', partnerId: 'claire', basis: 'acquainted' }]);
    expect(await asks('no-observation')).toEqual([]);
  });

  it('turns off what each ablation names, and still answers an interview in character', async () => {
    const failing = new (class extends OfflineMind {
      override async planDay(): Promise<never> {
        throw new Error('no planning: the mind must not be asked');
      }
    })();
    for (const ablation of ['no-observation', 'no-planning', 'no-reflection'] as const) {
      const db = world();
      const events: EventInput[] = [];
      const runtime = runtimeOver(db, ablation === 'no-planning' ? failing : new OfflineMind(), { ablation, reflectionThreshold: 5 }, events);
      const plan = await runtime.run({ kind: 'plan', agentId: CLAIRE, day: DAY, gameMs: T0 });
      expect(plan[0].kind, ablation).toBe('plan');
      for (let i = 0; i < 4; i++)
        await runtime.run({
          kind: 'observe',
          agentId: CLAIRE,
          gameMs: T0 + i * 60_000,
          observations: [seen(`Isabella Rivera is planning party number ${i}`, 'isabella')],
          company: [],
        });
      const kinds = db.memories.recent(CLAIRE, 100).map((m) => m.kind);
      if (ablation === 'no-observation') expect(kinds.filter((k) => k === 'observation')).toEqual([]);
      else expect(kinds).toContain('observation');
      if (ablation === 'no-planning') expect(kinds).not.toContain('plan');
      if (ablation === 'no-reflection') expect(events.filter((e) => e.kind === 'reflection.made')).toEqual([]);
      else if (ablation === 'no-planning') expect(events.some((e) => e.kind === 'reflection.made')).toBe(true);
      const { answer } = await runtime.interview(CLAIRE, 'Give an introduction of yourself.', T0 + 3_600_000);
      expect(answer, ablation).toMatch(/^I'm Claire Moreau, 45\. I am the librarian/);
      db.close();
    }
  });
});
