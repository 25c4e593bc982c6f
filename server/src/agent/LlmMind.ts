// The LLM mind: each decision is one ask (llmAsk.ts: a ChatModel call with a purpose and a JSON Schema,
// validated, repaired or mended, counted), read into the town's terms; where an ask fails, the offline mind
// answers for that purpose. A day plan's hour blocks and actions are asked for in llmDecompose.ts.
import { pronounsOf, report } from './grammar';
import type { z } from 'zod';
import type { Purpose } from '../llm/types';
import type { Memory } from '../store/types';
import type { Persona } from '../world/persona';
import { minuteOfWakingDay, parseClock, planMomentAt } from '../world/clockText';
import { fitAction } from '../protocol/plan';
import { formatClock } from '../protocol/time';
import type { Observation } from '../sim/types';
import type { DayPlan, PlannedAction } from '../protocol/plan';
import type {
  Acquaintance,
  Appraisal,
  ConversationLine,
  ConversationSummary,
  InvitationRecord,
  DayPlanning,
  Insight,
  Mind,
  MindContext,
  PlanningThought,
  Reaction,
  Speaker,
  SummaryInput,
  TurnInput,
  TurnOutput,
} from './mind';
import { OfflineMind } from './offlineMind';
import { rateImportanceHeuristically } from './offlineImportance';
import { planFromRoutine } from './offlinePlanning';
import { mentions } from './voice';
import * as P from './prompts';
import { withItemEnums, withLength, withNameOrNull } from './replyShape';
import { Asker, jsonSchemaOf, type AskerOptions, type PurposeTally } from './llmAsk';
import { askActions, askHourBlocks, isClock, placeErrors, resolveAddress, toHourBlocks, type HourBlock } from './llmDecompose';

/**
 * The most characters of one line of a whole conversation in the embedded grammar: a line's share of the
 * budget (80 tokens a line) less the JSON around it, at four characters a token. The schema allows 400.
 */
const WHOLE_LINE_MAX_CHARS = 240;

export interface LlmMindOptions extends AskerOptions {
  /** What the UI shows, e.g. "llm: gpt-4o-mini @ api.openai.com". */
  label: string;
}

export class LlmMind implements Mind {
  readonly kind = 'llm' as const;
  readonly label: string;
  private readonly asker: Asker;
  /** Day plans asked for, and how many of them went on to ask for their actions (decompose_actions). */
  readonly dayPlans = { asked: 0, decomposed: 0 };
  private readonly offline = new OfflineMind();

  constructor(options: LlmMindOptions) {
    this.label = options.label;
    this.asker = new Asker(options);
  }

  /** Per purpose: asks that fell back or whose valid reply could not be used. */
  get fallbacks(): ReadonlyMap<Purpose, number> {
    return this.asker.fallbacks;
  }

  /** Per purpose: asks, requests, valid at once, repaired, mended, longer, fell back. */
  get tally(): ReadonlyMap<Purpose, PurposeTally> {
    return this.asker.tally;
  }

  tallyOf(purpose: Purpose): PurposeTally {
    return this.asker.tallyOf(purpose);
  }

  async rateImportance(ctx: MindContext, descriptions: string[]): Promise<number[]> {
    if (descriptions.length === 0) return [];
    const p = ctx.agent.persona;
    const reply = await this.asker.ask('importance', p.id, P.importancePrompt(p, descriptions), P.ImportanceReply, 32 + descriptions.length * 6);
    if (reply && reply.ratings.length > 0) {
      return this.asker.fitCount('importance', p.id, reply.ratings, descriptions.length, () => descriptions.map((d) => rateImportanceHeuristically(d, p)));
    }
    if (reply) this.asker.reportMismatch('importance', p.id, `no ratings for ${descriptions.length} memories`);
    return this.offline.rateImportance(ctx, descriptions);
  }

  /** Ratings, whether to react and whom to talk to, in one importance call (the offline rules if it fails). */
  async appraise(ctx: MindContext, observations: Observation[], company: Acquaintance[]): Promise<Appraisal> {
    if (observations.length === 0) return { ratings: [], react: false, talkTo: null };
    const p = ctx.agent.persona;
    const people = company.map((a) => ({
      name: a.persona.name,
      relationship: a.relationship,
      lastTalked: a.lastTalkedGameMs === null ? null : P.nowLabel(a.lastTalkedGameMs),
      news: a.news.map((m) => m.description),
    }));
    const messages = P.appraisePrompt(p, {
      nowLabel: P.nowLabel(ctx.gameMs),
      currentAction: ctx.agent.currentAction,
      observations: observations.map((o) => o.description),
      company: people,
    });
    const known = (name: string) => company.some((a) => a.persona.name.toLowerCase() === name || a.persona.name.split(' ')[0].toLowerCase() === name);
    const reply = await this.asker.ask(
      'importance',
      p.id,
      messages,
      P.AppraiseReply,
      48 + observations.length * 6,
      'appraise_reply',
      (r) => {
        const named = r.talkTo?.trim().toLowerCase();
        if (!named || known(named) || /^(none|nobody|no one|null|n\/a)$/.test(named)) return [];
        const present = company.map((a) => a.persona.name);
        return [`$.talkTo: "${r.talkTo}" is not here; ${present.length ? `the people here are ${present.join(', ')}, or null` : 'nobody is here: null'}`];
      },
      // One rating per observation; talkTo: one of the people here, or null.
      withNameOrNull(
        withLength(jsonSchemaOf(P.AppraiseReply), 'ratings', observations.length),
        'talkTo',
        people.map((c) => c.name),
      ),
    );
    if (reply && reply.ratings.length > 0) {
      const offlineRatings = () => observations.map((o) => rateImportanceHeuristically(o.description, o.actorId === p.id ? undefined : p));
      const ratings = this.asker.fitCount('importance', p.id, reply.ratings, observations.length, offlineRatings);
      const named = reply.talkTo?.trim().toLowerCase();
      const talkTo = named
        ? (company.find((a) => a.persona.name.toLowerCase() === named || a.persona.name.split(' ')[0].toLowerCase() === named)?.persona.id ?? null)
        : null;
      return { ratings, react: reply.react, talkTo };
    }
    if (reply) this.asker.reportMismatch('importance', p.id, `no ratings for ${observations.length} observations`);
    return this.offline.appraise(ctx, observations, company);
  }

  async planDay(ctx: MindContext, day: number, memories: Memory[], yesterday: Memory[] | null): Promise<DayPlanning> {
    const p = ctx.agent.persona;
    // The offline plan is the fallback for any level that fails, and fills any gap the LLM leaves.
    const base = planFromRoutine(p, ctx.map, ctx.seed, day, memories);
    this.dayPlans.asked++;
    const plan = await this.askDayPlan(ctx, day, memories, yesterday);
    if (!plan) return { plan: base, currently: null };
    const currently = yesterday ? plan.currently : null;
    const { broadStrokes } = plan;
    const blocks = await this.decomposeBlocks(ctx, broadStrokes);
    if (blocks.length === 0) return { plan: { ...base, broadStrokes }, currently };
    // The plan goes to the sim with its hour blocks and the routine's actions; the blocks' actions follow as a
    // re-plan when decomposed (refinement), so the clock never waits on a whole day of actions.
    const hourBlocks = toHourBlocks(blocks, p);
    return { plan: { day, broadStrokes, hourBlocks, actions: base.actions }, currently, refinement: this.decomposeActions(ctx, blocks, base) };
  }

  /** The broad strokes of the day (and, after a first day, what the agent is about), or null when the ask failed. */
  askDayPlan(ctx: MindContext, day: number, memories: Memory[], yesterday: Memory[] | null): Promise<z.infer<typeof P.PlanReply> | null> {
    const p = ctx.agent.persona;
    const dayLabel = P.nowLabel(day * 86_400_000).replace(/, \d\d:\d\d$/, '');
    return this.asker.ask('plan', p.id, P.planPrompt(p, dayLabel, P.routineText(p), memories, yesterday), P.PlanReply, 400);
  }

  /** Broad strokes decomposed into hour blocks, then into actions; `base` (the routine plan) fills what fails. */
  async decomposeDay(ctx: MindContext, day: number, broadStrokes: string[], base: DayPlan): Promise<DayPlan> {
    const blocks = await this.decomposeBlocks(ctx, broadStrokes);
    if (blocks.length === 0) return { ...base, broadStrokes };
    const hourBlocks = toHourBlocks(blocks, ctx.agent.persona);
    return { day, broadStrokes, hourBlocks, actions: await this.decomposeActions(ctx, blocks, base) };
  }

  /** The day's hour blocks at places in town (none when the ask failed or named none). */
  async decomposeBlocks(ctx: MindContext, broadStrokes: string[]): Promise<HourBlock[]> {
    const blocks = await askHourBlocks(this.asker, ctx, broadStrokes);
    if (blocks.length > 0) this.dayPlans.decomposed++;
    return blocks;
  }

  /** Each part of the day's blocks decomposed into actions; the routine (`base`) fills what a part leaves. */
  decomposeActions(ctx: MindContext, blocks: HourBlock[], base: DayPlan): Promise<PlannedAction[]> {
    return askActions(this.asker, ctx, blocks, base);
  }

  async react(ctx: MindContext, observations: Observation[], memories: Memory[]): Promise<Reaction | null> {
    const p = ctx.agent.persona;
    const places = ctx.map.arenas.map((a) => a.address);
    const reply = await this.asker.ask(
      'react',
      p.id,
      P.reactPrompt(
        p,
        P.nowLabel(ctx.gameMs),
        ctx.agent.currentAction,
        observations.map((o) => o.description),
        memories,
        places,
      ),
      P.ReactReply,
      200,
      'react_reply',
      (r) =>
        r.react && r.activity
          ? placeErrors([{ path: '$.activity.place', place: r.activity.place }], places, (place) => resolveAddress(place, ctx.map) !== null)
          : [],
    );
    if (!reply) return this.offline.react(ctx, observations);
    if (!reply.react || !reply.activity) return null;
    const address = resolveAddress(reply.activity.place, ctx.map) ?? ctx.agent.currentPlace;
    const minute = planMomentAt(ctx.gameMs, parseClock(p.wakeAt), parseClock(p.sleepAt)).minute;
    const action = {
      startMinute: minute,
      durationMinutes: reply.activity.minutes,
      description: reply.activity.description,
      emoji: reply.activity.emoji,
      address,
    };
    return { reason: reply.reason || observations[0]?.description || 'a reaction', actions: fitAction(ctx.agent.plan?.actions ?? [], action) };
  }

  async converseTurn(ctx: MindContext, input: TurnInput): Promise<TurnOutput> {
    const p = ctx.agent.persona;
    const seen = new Set(input.memories.map((m) => m.id));
    const memories = [...input.memories, ...input.news.filter((m) => !seen.has(m.id))];
    const reply = await this.asker.ask(
      'converse',
      p.id,
      P.turnPrompt(p, input.partner, {
        nowLabel: P.nowLabel(ctx.gameMs),
        place: ctx.agent.currentPlace,
        currentAction: ctx.agent.currentAction,
        relationship: input.relationship,
        memories,
        history: input.history,
        lastTurn: input.turn >= input.maxTurns - 1,
      }),
      P.TurnReply,
      120,
    );
    if (!reply) return this.offline.converseTurn(ctx, input);
    return { text: reply.line, end: reply.end || input.turn >= input.maxTurns - 1 };
  }

  async converseWhole(speakers: [Speaker, Speaker], maxTurns: number): Promise<ConversationLine[]> {
    const [a, b] = speakers;
    const side = (s: Speaker) => ({
      persona: s.ctx.agent.persona,
      relationship: s.relationship,
      memories: mergeMemories(s.memories, s.news),
      currentAction: s.ctx.agent.currentAction,
    });
    const messages = P.wholeConversationPrompt(side(a), side(b), { nowLabel: P.nowLabel(a.ctx.gameMs), place: a.ctx.agent.currentPlace, maxLines: maxTurns });
    const byName = new Map(
      speakers.flatMap(
        (s) =>
          [
            [s.ctx.agent.persona.name.toLowerCase(), s.ctx.agent.persona],
            [s.ctx.agent.persona.name.split(' ')[0].toLowerCase(), s.ctx.agent.persona],
          ] as const,
      ),
    );
    const names = speakers.map((s) => s.ctx.agent.persona.name);
    const reply = await this.asker.ask(
      'converse',
      a.ctx.agent.persona.id,
      messages,
      P.ConversationReply,
      80 * maxTurns,
      'converse_whole',
      (r) =>
        r.lines.flatMap((l, i) =>
          byName.has(l.speaker.trim().toLowerCase())
            ? []
            : [`$.lines[${i}].speaker: "${l.speaker}" is not in this conversation; the speakers are ${names.join(' and ')}`],
        ),
      // The two speakers by name, the lines asked for and no more, each one that fits its share of the budget (a
      // small model left free wrote its own sentences as speakers and numbered lines to the schema's sixteen).
      withItemEnums(jsonSchemaOf(P.ConversationReply), 'lines', { speaker: names }, maxTurns, { line: WHOLE_LINE_MAX_CHARS }),
    );
    if (!reply) return this.offline.converseWhole(speakers, maxTurns);
    return reply.lines
      .map((l) => ({ persona: byName.get(l.speaker.trim().toLowerCase()), text: l.line }))
      .filter((l): l is { persona: Persona; text: string } => l.persona !== undefined)
      .slice(0, maxTurns)
      .map((l) => ({ speaker: l.persona.id, speakerName: l.persona.name, text: l.text }));
  }

  async summariseConversation(input: SummaryInput): Promise<ConversationSummary> {
    const [ca, cb] = input.contexts;
    const [a, b] = [ca.agent.persona, cb.agent.persona];
    const context = { nowLabel: P.nowLabel(ca.gameMs), relationships: input.relationships, plans: [restOfDay(ca), restOfDay(cb)] as [string, string] };
    const reply = await this.asker.ask('summarise', a.id, P.summaryPrompt(a, b, input.lines, context), P.SummaryReply, 600);
    if (!reply) return withLinesHeard(await this.offline.summariseConversation(input), input);
    return {
      summary: reply.summary,
      learned: { [a.id]: reply.learnedByFirst, [b.id]: reply.learnedBySecond },
      relationships: { [a.id]: reply.firstNowThinks, [b.id]: reply.secondNowThinks },
      plans: { [a.id]: toPlanning(reply.firstPlans, ca), [b.id]: toPlanning(reply.secondPlans, cb) },
      invitations: toInvitations(reply.invitations, ca, [a, b]),
    };
  }

  async reflectQuestions(ctx: MindContext, recent: Memory[]): Promise<string[]> {
    const p = ctx.agent.persona;
    const reply = await this.asker.ask('reflect', p.id, P.questionsPrompt(p, recent), P.QuestionsReply, 200, 'reflect_questions');
    return reply ? reply.questions : this.offline.reflectQuestions(ctx, recent);
  }

  async reflectInsights(ctx: MindContext, question: string, memories: Memory[]): Promise<Insight[]> {
    const p = ctx.agent.persona;
    const reply = await this.asker.ask('reflect', p.id, P.insightsPrompt(p, question, memories), P.InsightsReply, 400, 'reflect_insights', (r) =>
      r.insights.flatMap((ins, i) =>
        ins.evidence
          .filter((n) => !(n >= 1 && n <= memories.length))
          .map((n) => `$.insights[${i}].evidence: ${n} is not a statement's number; the statements are numbered 1 to ${memories.length}`),
      ),
    );
    if (!reply) return this.offline.reflectInsights(ctx, question, memories);
    // Evidence comes back as list numbers; an insight citing a number not in the list is dropped, not trusted.
    return reply.insights
      .filter((i) => i.evidence.every((n) => n >= 1 && n <= memories.length))
      .map((i) => ({ text: i.insight, evidence: [...new Set(i.evidence.map((n) => memories[n - 1].id))] }));
  }

  async interview(ctx: MindContext, question: string, memories: Memory[]): Promise<string> {
    const p = ctx.agent.persona;
    // What the agent thinks of anyone the question names.
    const people = [...ctx.names]
      .filter(([id, name]) => id !== p.id && mentions(question, name) && ctx.relationships.has(id))
      .map(([id, name]) => ({ name, relationship: ctx.relationships.get(id)! }));
    const reply = await this.asker.ask(
      'interview',
      p.id,
      P.interviewPrompt(p, P.nowLabel(ctx.gameMs), ctx.agent.currentAction, question, memories, people),
      P.InterviewReply,
      300,
    );
    return reply ? reply.answer : this.offline.interview(ctx, question, memories);
  }
}

/**
 * When the summary failed: each speaker learns the other's lines, reported as facts about the one who
 * said them ("I am running for mayor" said by Tomas is "Tomas Varga is running for mayor"), so retrieval,
 * news and plans still see an invitation a model wrote (the offline summary reads only its own acts), and
 * a retelling never says "heard from Tomas that I am running".
 */
export function withLinesHeard(summary: ConversationSummary, input: SummaryInput): ConversationSummary {
  const people = input.contexts.map((c) => c.agent.persona);
  const [a, b] = people.map((p) => p.id);
  const heardBy = (listener: string) =>
    input.lines
      .filter((l) => l.speaker !== listener && l.text.trim())
      .map((l) => {
        const speaker = people.find((p) => p.id === l.speaker);
        const hearer = people.find((p) => p.id === listener);
        if (!speaker || !hearer) return l.text.trim();
        return report(l.text.trim(), { name: speaker.name, pronouns: pronounsOf(speaker) }, { name: hearer.name, pronouns: pronounsOf(hearer) });
      });
  const learned = (id: string) => [...new Set([...(summary.learned[id] ?? []), ...heardBy(id)])];
  return { ...summary, learned: { ...summary.learned, [a]: learned(a), [b]: learned(b) } };
}

/**
 * A model's invitations, with residents' ids: the guest must be one of the two who talked (by full or first
 * name), the host anyone in town (else kept by name); an invitation to oneself is dropped.
 */
function toInvitations(reply: z.infer<typeof P.SummaryReply>['invitations'], ctx: MindContext, pair: [Persona, Persona]): InvitationRecord[] {
  const idOf = (name: string, among: ReadonlyMap<string, string>) => {
    const said = name.trim().toLowerCase();
    for (const [id, full] of among) if (full.toLowerCase() === said || full.split(' ')[0].toLowerCase() === said) return id;
    return null;
  };
  const talkers = new Map(pair.map((p) => [p.id as string, p.name]));
  const out: InvitationRecord[] = [];
  for (const i of reply) {
    const guestId = idOf(i.guest, talkers);
    const hostId = idOf(i.host, ctx.names);
    if (!guestId || hostId === guestId) continue;
    out.push({ hostId, host: i.host.trim(), guestId, about: i.what.trim(), when: i.when.trim() || null, answer: i.answer });
  }
  return out;
}

/** Memories then news, without repeats. */
function mergeMemories(memories: Memory[], news: Memory[]): Memory[] {
  const seen = new Set(memories.map((m) => m.id));
  return [...memories, ...news.filter((m) => !seen.has(m.id))];
}

/** The next few actions of the agent's plan, for the summary's planning thoughts. */
function restOfDay(ctx: MindContext): string {
  const p = ctx.agent.persona;
  const minute = planMomentAt(ctx.gameMs, parseClock(p.wakeAt), parseClock(p.sleepAt)).minute;
  return (ctx.agent.plan?.actions ?? [])
    .filter((a) => a.startMinute > minute)
    .slice(0, 6)
    .map((a) => `${formatClock(a.startMinute % 1440)} ${a.description} @ ${a.address}`)
    .join('; ');
}

/** A model's planning thought, with its appointment at a real place and a minute of the agent's waking day (dropped otherwise). */
function toPlanning(reply: z.infer<typeof P.SummaryReply>['firstPlans'], ctx: MindContext): PlanningThought | null {
  if (!reply) return null;
  const a = reply.appointment;
  const address = a ? resolveAddress(a.place, ctx.map) : null;
  const wake = parseClock(ctx.agent.persona.wakeAt);
  const appointment: PlannedAction | null =
    a && address && isClock(a.start)
      ? {
          startMinute: minuteOfWakingDay(parseClock(a.start.padStart(5, '0')), wake),
          durationMinutes: a.minutes,
          description: a.description,
          emoji: a.emoji,
          address,
        }
      : null;
  return { thought: reply.thought, appointment };
}
