// The offline mind's importance: what a memory means (meaning.ts), weighed by the documented parameters
// below, the same for any wording of the same thing (server/src/agent/README.md).
import { readDay, readMeaning, type DayRef } from './meaning';
import { isDanger } from './socialModel';

/**
 * Each weight is in points of the 1..10 scale, with its reason. Chosen from everyday reasoning before any
 * run was measured, so that the paper's two whispers rate as they did under the word table this replaced
 * (a coming party 8, a confided candidacy 7-8), not fitted to any figure of a run.
 */
export const IMPORTANCE_PARAMETERS = {
  /** Anything noticed. Reason: the paper's scale puts brushing teeth at 1 and a break-up at 10; most of a day is 2. */
  base: 2,
  /** A routine state of a body or a thing (sleeping, idle, in use). Reason: nothing happened. */
  mundane: 1,
  /** News about a named person (a change in their life, their plans). Reason: we track people we know. */
  aboutPerson: 1,
  /** Something dated ahead (a day named, not told as over). Reason: one can act on it; it shapes plans. */
  ahead: 3,
  /** A gathering others can go to. Reason: it bears on the listener's own plans and relationships. */
  gathering: 1,
  /** It happens within `soonHours` of being heard. Reason: what is soon needs a decision now. */
  soon: 1,
  soonHours: 48,
  /** Told in confidence. Reason: what someone chose to hide matters to them (a confided candidacy rated 8 under the old table, as here). */
  secret: 2,
  /** A danger (fire, flood, alarm: socialModel.isDanger). Reason: safety comes first. */
  danger: 9,
  /** It names the agent itself. Reason: what is about us matters more to us. */
  self: 1,
  /** What a retelling loses: second-hand news ("… (heard from X)") rates this much below the news itself. */
  secondHandDiscount: 1,
} as const;

const MUNDANE = /\b(sleeping|resting|is in use|idle|walking|getting ready|brushing|showering|taking a shower|washing)\b/i;
const HEARD_FROM = /\s*\(heard from [^)]*\)\s*$/;

/**
 * 1..10 from what the text means: base, or mundane for a routine state; + news about a person; + ahead
 * (a day named) and + gathering, + soon, + secret; a danger rates `danger`; + self when it names
 * the agent (its first name). Second-hand news is rated as the news itself, less secondHandDiscount.
 * `heardGameMs` places relative days and "soon"; without it, a dated gathering counts as soon.
 */
export function rateImportanceHeuristically(text: string, persona?: { name: string }, heardGameMs?: number): number {
  const k = IMPORTANCE_PARAMETERS;
  const secondHand = HEARD_FROM.test(text);
  const description = text.replace(HEARD_FROM, '');
  const meaning = readMeaning(description);
  let score: number = MUNDANE.test(description) && !meaning.gathering ? k.mundane : k.base;
  if (isDanger(description)) score = Math.max(score, k.danger);
  else {
    const g = meaning.gathering;
    // Dated: a gathering not over, or any news that names a day (meaning.readDay: "on March 1", "tomorrow", "on Saturday").
    const ahead = g ? !g.past && g.day !== null : readDay(description) !== null;
    if (meaning.subject !== null && (ahead || meaning.secret)) score += k.aboutPerson;
    if (ahead) score += k.ahead;
    if (g && !g.past) {
      score += k.gathering;
      if (isSoon(g.day, heardGameMs)) score += k.soon;
    }
    if (meaning.secret) score += k.secret;
  }
  if (persona) {
    const first = persona.name.split(' ')[0];
    if (description.includes(first)) score += k.self;
  }
  if (secondHand) score -= k.secondHandDiscount;
  return Math.max(1, Math.min(10, score));
}

/** Within soonHours of when it was heard; a day relative to hearing, or any dated one when the hearing time is unknown. */
function isSoon(day: DayRef | null, heardGameMs?: number): boolean {
  if (!day) return false;
  if (day.kind === 'relative') return day.daysAhead * 24 <= IMPORTANCE_PARAMETERS.soonHours;
  if (heardGameMs === undefined) return true;
  const heard = new Date(heardGameMs);
  const at =
    day.kind === 'date' ? Date.UTC(heard.getUTCFullYear(), day.month, day.dayOfMonth) : heardGameMs + ((day.weekday - heard.getUTCDay() + 7) % 7) * 86_400_000;
  const hours = (at - heardGameMs) / 3_600_000;
  return hours >= -24 && hours <= IMPORTANCE_PARAMETERS.soonHours;
}
