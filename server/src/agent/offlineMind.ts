// The offline mind: every cognitive operation with no LLM, deterministic from the world seed and the
// persona. Plans follow the persona's routine with the gatherings it knows of fitted in
// (offlinePlanning.ts), importance comes from a keyword table (offlineImportance.ts), speech and
// interview answers from templates that carry real content in the right voice (offlineTalk.ts), so news
// really travels from agent to agent and invitations change plans.
import type { Memory } from '../store/types';
import type { Observation } from '../sim/types';
import { fitAction } from '../protocol/plan';
import type {
  Acquaintance,
  Appraisal,
  ConversationLine,
  ConversationSummary,
  DayPlanning,
  Insight,
  Mind,
  MindContext,
  Reaction,
  Speaker,
  SummaryInput,
  TurnInput,
  TurnOutput,
} from './mind';
import { Rng } from '../sim/rng';
import { decide, isDanger, reactProbability, SOCIAL_PARAMETERS, type ReactInputs } from './socialModel';
import { rateImportanceHeuristically } from './offlineImportance';
import { isDerivedThought } from './memory';
import { newsSentence, planFromRoutine, reviseStatusOffline } from './offlinePlanning';
import { offlineSummary, offlineTurn, planMinuteOf } from './offlineTalk';
import { offlineInterview } from './offlineInterview';
import { GAME_MS_PER_HOUR } from '../protocol/time';
import { atHaunt } from './outings';
import { mentions } from './voice';

/** What second-hand news carries after it: who it was heard from, not what it is about. */
const HEARD_FROM = /\s*\(heard from [^)]*\)/;

export { rateImportanceHeuristically } from './offlineImportance';
export { planFromRoutine, newsSentence } from './offlinePlanning';

/** Observations rated this high are worth reacting to. */
const REACT_IMPORTANCE = 6;
/** Talked within this long: not again so soon, unless there is news. */
const RECENT_TALK_GAME_MS = 6 * GAME_MS_PER_HOUR;
/** A stranger with no news is greeted one time in this many (keyed by the pair and the hour); at one of the town's haunts, always. */
const STRANGER_ODDS = 4;

export class OfflineMind implements Mind {
  readonly kind = 'offline' as const;
  readonly label = 'offline';

  async rateImportance(ctx: MindContext, descriptions: string[]): Promise<number[]> {
    return descriptions.map((d) => rateImportanceHeuristically(d, ctx.agent.persona, ctx.gameMs));
  }

  /**
   * Ratings from what each observation means (offlineImportance.ts; its own actions without the bonus for naming it: they are routine);
   * a reaction when something rates 6 or more; and whom to talk to: someone it knows, or has news for,
   * and has not just talked with; now and then a stranger.
   */
  async appraise(ctx: MindContext, observations: Observation[], company: Acquaintance[]): Promise<Appraisal> {
    const self = ctx.agent.persona;
    const ratings = observations.map((o) => rateImportanceHeuristically(o.description, o.actorId === self.id ? undefined : self, ctx.gameMs));
    return { ratings, react: ratings.some((r) => r >= REACT_IMPORTANCE), talkTo: chooseCompany(ctx, company) };
  }

  async planDay(ctx: MindContext, day: number, memories: Memory[], yesterday: Memory[] | null): Promise<DayPlanning> {
    const persona = ctx.agent.persona;
    return {
      plan: planFromRoutine(persona, ctx.map, ctx.seed, day, memories, ctx.decide, ctx.haunts),
      currently: yesterday ? reviseStatusOffline(persona, yesterday) : null,
    };
  }

  async react(ctx: MindContext, observations: Observation[]): Promise<Reaction | null> {
    const persona = ctx.agent.persona;
    const plan = ctx.agent.plan;
    const minute = planMinuteOf(ctx);
    for (const obs of observations) {
      if (obs.subject !== 'the town') continue;
      const trouble = reactToTrouble(ctx, obs, minute);
      if (trouble) return trouble;
      const closed = /^(.+?) is closed\b/i.exec(obs.description);
      const sector = closed ? ctx.map.places.sectors.find((s) => s.name.toLowerCase() === closed[1].trim().toLowerCase()) : undefined;
      if (sector && plan) {
        const home = ctx.map.places.sectors.find((s) => s.name === persona.home);
        const homeArena = home?.arenas.find((a) => a.name !== 'bedroom') ?? home?.arenas[0];
        if (!homeArena) return null;
        const affected = plan.actions.filter((a) => a.startMinute + a.durationMinutes > minute && a.address.startsWith(`${sector.name}:`));
        if (affected.length === 0) return null;
        const actions = plan.actions
          .filter((a) => a.startMinute + a.durationMinutes > minute)
          .map((a, i) => {
            const start = i === 0 ? minute : a.startMinute;
            const duration = a.startMinute + a.durationMinutes - start;
            return a.address.startsWith(`${sector.name}:`)
              ? {
                  startMinute: start,
                  durationMinutes: duration,
                  description: `staying home, as ${sector.name} is closed`,
                  emoji: '🏠',
                  address: homeArena.address,
                }
              : { ...a, startMinute: start, durationMinutes: duration };
          })
          .filter((a) => a.durationMinutes > 0);
        return { reason: obs.description, actions };
      }
      // Any other town event: stop for a moment to take it in, then carry on with the day.
      const pause = {
        startMinute: minute,
        durationMinutes: 10,
        description: `thinking about the news: ${obs.description}`,
        emoji: '💭',
        address: ctx.agent.currentPlace,
      };
      return { reason: obs.description, actions: plan ? fitAction(plan.actions, pause) : [pause] };
    }
    return null;
  }

  async converseTurn(ctx: MindContext, input: TurnInput): Promise<TurnOutput> {
    return offlineTurn(ctx, input);
  }

  async converseWhole(speakers: [Speaker, Speaker], maxTurns: number): Promise<ConversationLine[]> {
    const lines: ConversationLine[] = [];
    for (let turn = 0; turn < maxTurns; turn++) {
      const s = speakers[turn % 2];
      const out = offlineTurn(s.ctx, { partner: s.partner, relationship: s.relationship, memories: s.memories, news: s.news, history: lines, turn, maxTurns });
      lines.push({ speaker: s.ctx.agent.persona.id, speakerName: s.ctx.agent.persona.name, text: out.text, acts: out.acts });
      if (out.end) break;
    }
    return lines;
  }

  async summariseConversation(input: SummaryInput): Promise<ConversationSummary> {
    return offlineSummary(input);
  }

  async reflectQuestions(ctx: MindContext, recent: Memory[]): Promise<string[]> {
    const counts = countSubjects(recent, ctx.agent.persona.name);
    const subjects = [...counts.entries()]
      .sort((p, q) => q[1] - p[1] || p[0].localeCompare(q[0]))
      .slice(0, 3)
      .map(([s]) => s);
    const questions = subjects.map((s) => `What has ${s} been up to lately?`);
    if (questions.length < 3) questions.push(`What matters most to ${ctx.agent.persona.name} right now?`);
    return questions.slice(0, 3);
  }

  async reflectInsights(ctx: MindContext, question: string, memories: Memory[]): Promise<Insight[]> {
    const subject = /What has (.+) been up to lately\?/.exec(question)?.[1];
    const insights: Insight[] = [];
    if (subject) {
      const about = memories.filter((m) => m.description.includes(subject));
      const doing = new Map<string, Memory[]>();
      for (const m of about) {
        const activity = m.triple && m.triple.subject === subject && m.triple.predicate === 'is' ? m.triple.object : null;
        if (!activity) continue;
        const list = doing.get(activity) ?? [];
        list.push(m);
        doing.set(activity, list);
      }
      const top = [...doing.entries()].sort((p, q) => q[1].length - p[1].length || p[0].localeCompare(q[0]))[0];
      if (top && top[1].length >= 2) insights.push({ text: `${subject} is often ${top[0]}.`, evidence: top[1].map((m) => m.id) });
      // What the agent heard or saw of them, not the summaries of their talks (those only point at it).
      // Not its own earlier insights either: an insight on an insight doubles the prefix. And only news that
      // is about them (names them), not news they passed on about someone else ("… (heard from X)").
      const weighty = about
        .filter((m) => m.importance >= 6 && m.triple?.predicate !== 'talked with' && !isDerivedThought(m))
        .filter((m) => mentions(newsSentence(m).replace(HEARD_FROM, ''), subject))
        .slice(0, 3);
      if (weighty.length)
        insights.push({ text: `Something important about ${subject}: ${shorten(newsSentence(weighty[0]), 140)}`, evidence: weighty.map((m) => m.id) });
      if (insights.length === 0 && about.length)
        insights.push({ text: `${ctx.agent.persona.name} has been seeing ${subject} around town.`, evidence: about.slice(0, 5).map((m) => m.id) });
    } else {
      const weighty = memories
        .filter((m) => m.triple?.predicate !== 'talked with' && !isDerivedThought(m))
        .sort((p, q) => q.importance - p.importance || q.id - p.id)
        .slice(0, 3);
      if (weighty.length)
        insights.push({
          text: `What matters most to ${ctx.agent.persona.name} now: ${shorten(newsSentence(weighty[0]), 140)}`,
          evidence: weighty.map((m) => m.id),
        });
    }
    return insights;
  }

  async interview(ctx: MindContext, question: string, memories: Memory[]): Promise<string> {
    return offlineInterview(ctx, question, memories);
  }
}

/**
 * An alarm, a fire, a flood at the agent's place (socialModel.isDanger): one who works there mostly stays
 * to deal with it, anyone else mostly leaves and keeps away for a while (its plan there moves to its home,
 * or its workplace when the trouble is at home); a seeded `react` decision, logged. Null for anything else.
 */
function reactToTrouble(ctx: MindContext, obs: Observation, minute: number): Reaction | null {
  const persona = ctx.agent.persona;
  const place = obs.place ?? null;
  const sector = place?.split(': ')[0] ?? null;
  const inputs: ReactInputs = {
    danger: isDanger(obs.description),
    atPlace: place !== null && ctx.agent.currentPlace.startsWith(place),
    staff: sector !== null && persona.workplace !== null && persona.workplace.startsWith(`${sector}:`),
  };
  if (!inputs.danger || !inputs.atPlace || sector === null) return null;
  const d = decide(ctx.seed, 'react', [persona.id, ctx.gameMs, obs.description], obs.description, null, reactProbability(inputs), inputs);
  ctx.decide?.(d);
  const what = DANGER_WORD.exec(obs.description)?.[0].toLowerCase() ?? 'trouble';
  const stays = inputs.staff === d.chose;
  if (stays) {
    const description = inputs.staff ? `dealing with the ${what} at ${sector}` : `staying to see what the ${what} at ${sector} is about`;
    const act = {
      startMinute: minute,
      durationMinutes: inputs.staff ? 30 : 15,
      description,
      emoji: inputs.staff ? '🧯' : '👀',
      address: ctx.agent.currentPlace,
    };
    return { reason: obs.description, actions: ctx.agent.plan ? fitAction(ctx.agent.plan.actions, act) : [act] };
  }
  const refuge = refugeFrom(ctx, sector);
  if (!refuge) return null;
  const until = minute + SOCIAL_PARAMETERS.reactAwayMinutes;
  const leave = {
    startMinute: minute,
    durationMinutes: SOCIAL_PARAMETERS.reactAwayMinutes,
    description: `leaving ${sector} because of the ${what}`,
    emoji: '🚪',
    address: refuge,
  };
  // Away from the place until the time is up; after that the day goes on as planned (back there if the plan says so).
  const later = (ctx.agent.plan?.actions ?? []).filter((a) => a.startMinute + a.durationMinutes > until);
  const rest = later.map((a) => (a.startMinute < until ? { ...a, durationMinutes: a.startMinute + a.durationMinutes - until, startMinute: until } : a));
  return { reason: obs.description, actions: [leave, ...rest.filter((a) => a.durationMinutes > 0)] };
}

/** What the trouble is called, the longest name first: "the fire alarm", not "the fire". */
const DANGER_WORD = /\b(fire alarm|smoke alarm|burst pipe|gas leak|power cut|fire|alarm|smoke|flood|leak|gas|explosion|storm|blackout)\b/i;

/** Where to go when the trouble is at `sector`: a room of its home other than the bedroom, or its workplace when the trouble is at home. */
function refugeFrom(ctx: MindContext, sector: string): string | null {
  const persona = ctx.agent.persona;
  const home = ctx.map.places.sectors.find((s) => s.name === persona.home);
  if (home && home.name !== sector) return (home.arenas.find((a) => a.name !== 'bedroom') ?? home.arenas[0])?.address ?? null;
  if (persona.workplace && !persona.workplace.startsWith(`${sector}:`)) return persona.workplace;
  const elsewhere = ctx.map.places.sectors.find((s) => s.name !== sector && s.arenas.length > 0);
  return elsewhere?.arenas[0].address ?? null;
}

/**
 * Whom of the company to talk to: the best scored of those it knows (2) or has news for (big news, 8+,
 * 2; other news 1), less 2 for a talk in the last hours; at least 2 to talk. A stranger it has no big
 * news for is greeted now and then (one hour in STRANGER_ODDS), and always at one of the town's haunts (outings.ts),
 * where people go to be among others.
 */
function chooseCompany(ctx: MindContext, company: Acquaintance[]): string | null {
  let best: { id: string; score: number } | null = null;
  const out = atHaunt(ctx.agent.currentPlace, ctx.haunts ?? []);
  for (const a of company) {
    const recent = a.lastTalkedGameMs !== null && ctx.gameMs - a.lastTalkedGameMs < RECENT_TALK_GAME_MS;
    const news = Math.max(0, ...a.news.map((m) => m.importance));
    let score = (a.relationship ? 2 : 0) + (news >= 8 ? 2 : news > 0 ? 1 : 0) - (recent ? 2 : 0);
    const hour = Math.floor(ctx.gameMs / GAME_MS_PER_HOUR);
    if (score < 2 && !a.relationship && (out || Rng.fromKey(ctx.seed, 'greet', ctx.agent.persona.id, a.persona.id, hour).int(1, STRANGER_ODDS) === 1))
      score = 2;
    if (score >= 2 && (!best || score > best.score || (score === best.score && a.persona.id < best.id))) best = { id: a.persona.id, score };
  }
  return best?.id ?? null;
}

function countSubjects(memories: Memory[], self: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of memories) {
    const s = m.triple?.subject;
    if (!s || s === self || s === 'the town' || !/^[A-Z]/.test(s)) continue;
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return counts;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
