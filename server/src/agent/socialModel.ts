// The offline mind's social decisions as one model: whether to pass news on (and to whom), whether to
// accept an invitation, and whether a commitment is kept on the day. Each is a probability computed from
// what the agent knows, then a draw from the run's seeded stream (Rng.fromKey(seed, decision, who, what,
// when): independent of the order in which concurrent operations finish, so a seed reproduces a run).
// Every parameter is here, with its meaning, unit and the reason for its value. None was fitted to the
// paper's figures: the values are round numbers chosen from everyday reasoning before any run was
// measured (BENCHMARKS.md, "Social decisions"), and the report prints the paper's figures beside ours.
import type { Persona } from '../world/persona';
import { Rng } from '../sim/rng';
import { readMeaning } from './meaning';

export const SOCIAL_PARAMETERS = {
  /** Chance (0..1) of passing one piece of news on in a talk, before the factors below. Reason: people pass on news they find interesting half the time. */
  tellBase: 0.5,
  /** Factor (×) on telling a complete stranger; a friend gets ×1 (closeness 1). Reason: people tell strangers much less. */
  tellStrangerFactor: 0.4,
  /**
   * Factor (×) when the news concerns the listener (names them or someone they know, one of their interests, or is the teller's own news told
   * to someone who knows the teller). Reason: we tell people what matters to them, and our own news to those who know us.
   */
  tellConcernsFactor: 1.5,
  /**
   * Factor (×) on news told in confidence (meaning.ts: "told no one", "keeping it quiet", "between us").
   * Reason: most people keep a secret most of the time.
   */
  tellSecretFactor: 0.2,
  /**
   * Factor (×) on news meant to be spread (meaning.ts: an open audience, "anyone is welcome", "everyone"), and on news of a gathering still
   * to come, whatever its audience (not over, not told in confidence). Reason: the mirror of a secret: it asks to be passed on; and what is
   * on in town is what people talk about: it bears on the listener's plans and on the people it knows. An invite-only gathering limits
   * whom its host invites (inviteProbability), not whether it is talked about; keeping it quiet is a secret (tellSecretFactor).
   */
  tellPublicFactor: 1.5,
  /**
   * Factor (×) on a secret told to the teller's confidant (a spouse, a relative, or someone it says it trusts or relies on), in place of
   * tellSecretFactor and the discreet teller's extra factor. Reason: a secret ("told no one yet") is kept from the town, not from the one
   * or two people one is closest to: toward them it weighs like any other news (a discreet teller still tells less, by tellDiscreetFactor).
   */
  tellSecretConfidantFactor: 1,
  /** Extra factor (×) on a secret for a discreet teller (quiet, reserved, shy, discreet, loyal, principled). Reason: discretion is exactly this. */
  tellSecretDiscreetFactor: 0.25,
  /** Factor (×) for a talkative teller (talkative, chatty, sociable, outgoing, nosy, loud, friendly). Reason: they talk more, secrets included. */
  tellTalkativeFactor: 1.3,
  /** Factor (×) for a discreet teller, on any news. Reason: quiet people pass on less. */
  tellDiscreetFactor: 0.7,
  /** Game hours in which news loses half its pull to be told. Reason: yesterday's news is still told, last week's rarely. */
  tellHalfLifeHours: 24,
  /** Factor (×) on second-hand news (heard from someone). Reason: each retelling loses some salience. */
  tellSecondHandFactor: 0.8,
  /**
   * Extra factor (×) on second-hand news told to a complete stranger. Reason: to someone one has just met one talks of oneself (one's own
   * news, one's own gathering), and passes on what one heard of others to people one knows. Set when meeting strangers became common
   * (outings.ts), after measuring that without it the town's news reached nearly everyone through first meetings (the commit that set it
   * lists what each setting gave).
   */
  tellStrangerHearsayFactor: 0.25,
  /**
   * Factor (×) on news a reflection of the teller went over (an insight cites it). Reason: what one has thought over is on one's mind
   * and comes up in talk; the paper's agents talk from what they retrieve, and a reflection is an important memory retrieved with the
   * news it rests on. Chosen before measuring (as a point between "no pull" and "twice the pull"), not fitted to any figure.
   */
  tellRehearsedFactor: 1.5,
  /**
   * Factor (×) for each talk since the agent heard the news in which it already came up (told, or told again by the partner). Reason: news
   * is fresh to the teller for the first few people it meets; once it has been over it a few times it is old news, and it stops raising it.
   */
  tellDiscussedFactor: 0.6,
  /** Chance (0..1) that a host mentions its own gathering to someone it talks to, before closeness. Reason: one who "wants to invite everyone" mostly does. */
  inviteBase: 0.9,
  /** Least factor (×) of closeness on inviting: a stranger gets this, a friend ×1. Reason: hosts invite friends first, strangers less often. */
  inviteStrangerFactor: 0.6,
  /** Chance (0..1) of accepting an invitation with nothing in the way. Reason: most invited people who are free say yes. */
  acceptBase: 0.8,
  /** Factor (×) when the agent's plan has an obligation (its work, elsewhere) at that time. Reason: a clash usually wins. */
  acceptConflictFactor: 0.35,
  /** Least factor (×) of closeness to the host: a stranger's invitation gets this, a friend's ×1. Reason: we go for people we know. */
  acceptStrangerFactor: 0.6,
  /** Factor (×) for an outgoing guest (the talkative words). Reason: sociable people like parties. */
  acceptOutgoingFactor: 1.15,
  /** Factor (×) for a discreet or shy guest (the discreet words). Reason: quiet people decline more. */
  acceptShyFactor: 0.8,
  /** Factor (×) when the gathering is at neither the guest's home nor its workplace. Reason: going out of the way costs something. */
  acceptElsewhereFactor: 0.9,
  /** Chance (0..1) that an accepted invitation is kept on the day with nothing in the way. Reason: a few plans slip anyway. */
  keepBase: 0.92,
  /** Game hours since accepting in which the chance of remembering falls by half (unless rehearsed in a reflection). Reason: a promise from days ago slips. */
  keepForgetHalfLifeHours: 96,
  /** Factor (×) when an obligation in the routine clashes with the gathering on the day. Reason: as for accepting. */
  keepConflictFactor: 0.6,
  /** Factor (×) for a forgetful agent ("forgetful", "disorganised", "dreamy" in its traits). Reason: that is what the trait says. */
  keepForgetfulFactor: 0.8,
  /**
   * Chance (0..1) of leaving a place where an alarm, a fire, a flood or the like is announced, for one who does not work there. Reason:
   * nearly everyone leaves when an alarm goes off; a few linger to see what is going on.
   */
  reactLeaveDanger: 0.9,
  /** Chance (0..1) that one who works there stays to deal with it (see to the alarm, call for help) rather than leave. Reason: it is their place. */
  reactStaffDeals: 0.8,
  /** Game minutes one who left keeps away before its plan goes on. Reason: an alarm or a flood takes an hour or two to be seen to. */
  reactAwayMinutes: 90,
} as const;

export type SocialParameters = typeof SOCIAL_PARAMETERS;

/** A decision the offline mind made: what about, with whom, its inputs, the probability, the draw and the choice. */
export interface SocialDecision {
  decision: 'tell' | 'invite' | 'accept' | 'attend' | 'react' | 'outing';
  /** What it was about: the news, or the gathering. */
  about: string;
  /** The other person (listener, host), by persona id, if any. */
  otherId: string | null;
  inputs: Record<string, number | boolean | string>;
  /** Probability of choosing yes, 0..1. */
  p: number;
  /** The seeded uniform draw in [0,1); yes when draw < p. */
  draw: number;
  chose: boolean;
}

const TALKATIVE = /\b(talkative|chatty|sociable|outgoing|nosy|loud|friendly|gossip\w*)\b/i;
const DISCREET = /\b(discreet|reserved|quiet|shy|loyal|principled|private)\b/i;
/** Kin, partners and people the agent says it trusts: whom a secret is shared with ("Ruth is Arthur's wife", "Tomas relies on her"). */
const KIN = 'wife|husband|spouse|married|fianc\\w*|daughter|son|mother|father|sister|brother|twin|grandmother|grandfather';
const CONFIDANT = new RegExp(`\\b(${KIN}|trust\\w*|relies on|confid\\w*|best friend|closest)\\b`, 'i');
const DISTRUST = /\b(doesn'?t|does not|don'?t|do not|never|not) trust|\b(dis|mis)trust/i;
const FORGETFUL = /\b(forgetful|disorganised|disorganized|dreamy|scatter\w*)\b/i;

/** Whether a text asks to be passed on (meaning.ts: an open gathering, or news for everyone). */
export function isPublic(text: string): boolean {
  return readMeaning(text).open;
}

/** Whether a text is told in confidence (meaning.ts: "has told no one", "keeping it quiet", "between us", …). */
export function isSecret(text: string): boolean {
  return readMeaning(text).secret;
}

export function traitsOf(p: Pick<Persona, 'innate'>): { talkative: boolean; discreet: boolean; forgetful: boolean } {
  const t = p.innate.join(', ');
  return { talkative: TALKATIVE.test(t), discreet: DISCREET.test(t), forgetful: FORGETFUL.test(t) };
}

/** Whether the agent's own line about someone makes them its confidant (kin, a partner, someone it trusts); the line before any "Last talked on". */
export function isConfidant(relationship: string | null): boolean {
  const own = relationship?.split(' Last talked on ')[0] ?? '';
  return CONFIDANT.test(own) && !DISTRUST.test(own);
}

/** Closeness 0..1 from what the agent thinks of the other: a stranger 0, a persona's relation 0.5, someone talked with 0.75 (+ the persona line 1). */
export function closenessOf(relationship: string | null, talkedBefore: boolean): number {
  if (!relationship) return 0;
  return talkedBefore ? (relationship.includes(' met on ') ? 0.6 : 1) : 0.5;
}

const clamp01 = (x: number) => Math.max(0, Math.min(1, x));
const scale = (low: number, closeness: number) => low + (1 - low) * closeness;

export interface TellInputs {
  closeness: number;
  /** The listener is the teller's confidant (isConfidant). */
  confidant: boolean;
  concernsListener: boolean;
  secret: boolean;
  public: boolean;
  /** News of a gathering still to come (gatheringIn: placed in time and town, not over). */
  comingGathering: boolean;
  talkative: boolean;
  discreet: boolean;
  /** Game hours since the news was heard, or since a reflection last went over it (rehearsal keeps it fresh). */
  hoursSinceHeard: number;
  /** A reflection of the teller went over it (an insight cites it): it is on the teller's mind. */
  rehearsed: boolean;
  secondHand: boolean;
  /** Talks since it was heard in which it already came up. */
  timesDiscussed: number;
}

/** The chance of telling one piece of news to one listener in one talk. */
export function tellProbability(i: TellInputs, k: SocialParameters = SOCIAL_PARAMETERS): number {
  let p = k.tellBase * scale(k.tellStrangerFactor, i.closeness);
  if (i.concernsListener) p *= k.tellConcernsFactor;
  if (i.talkative) p *= k.tellTalkativeFactor;
  if (i.discreet) p *= k.tellDiscreetFactor;
  if ((i.public || i.comingGathering) && !i.secret) p *= k.tellPublicFactor;
  if (i.secret) p *= i.confidant ? k.tellSecretConfidantFactor : k.tellSecretFactor * (i.discreet ? k.tellSecretDiscreetFactor : 1);
  if (i.secondHand) p *= k.tellSecondHandFactor;
  if (i.secondHand && i.closeness <= 0) p *= k.tellStrangerHearsayFactor;
  if (i.rehearsed) p *= k.tellRehearsedFactor;
  p *= k.tellDiscussedFactor ** Math.max(0, i.timesDiscussed);
  p *= 0.5 ** (Math.max(0, i.hoursSinceHeard) / k.tellHalfLifeHours);
  return clamp01(p);
}

export interface InviteInputs {
  closeness: number;
  /** The gathering is by invitation only ("invite-only", "private", "just close friends"): a host invites only people it knows. */
  inviteOnly?: boolean;
}

/** The chance that a host mentions (and so invites the listener to) its own gathering in a talk: none for a stranger to an invite-only one. */
export function inviteProbability(i: InviteInputs, k: SocialParameters = SOCIAL_PARAMETERS): number {
  if (i.inviteOnly && i.closeness <= 0) return 0;
  return clamp01(k.inviteBase * scale(k.inviteStrangerFactor, i.closeness));
}

export interface AcceptInputs {
  /** The gathering is still ahead (not begun) when the invitation is heard. */
  ahead: boolean;
  /** The guest is awake then. */
  awake: boolean;
  /** An obligation elsewhere (its work) in its plan or routine at that time. */
  conflict: boolean;
  closenessToHost: number;
  outgoing: boolean;
  shy: boolean;
  /** At neither its home nor its workplace. */
  elsewhere: boolean;
}

/** The chance of accepting an invitation: zero when the gathering is past or the guest asleep then. */
export function acceptProbability(i: AcceptInputs, k: SocialParameters = SOCIAL_PARAMETERS): number {
  if (!i.ahead || !i.awake) return 0;
  let p = k.acceptBase * scale(k.acceptStrangerFactor, i.closenessToHost);
  if (i.conflict) p *= k.acceptConflictFactor;
  if (i.outgoing) p *= k.acceptOutgoingFactor;
  if (i.shy) p *= k.acceptShyFactor;
  if (i.elsewhere) p *= k.acceptElsewhereFactor;
  return clamp01(p);
}

export interface KeepInputs {
  host: boolean;
  hoursSinceAccepted: number;
  /** A reflection of the agent mentions the gathering: it has been on its mind. */
  rehearsed: boolean;
  conflict: boolean;
  forgetful: boolean;
}

/** The chance of going to a gathering one committed to (a host always goes). */
export function keepProbability(i: KeepInputs, k: SocialParameters = SOCIAL_PARAMETERS): number {
  if (i.host) return 1;
  let p = k.keepBase;
  if (!i.rehearsed) p *= 0.5 ** (Math.max(0, i.hoursSinceAccepted) / k.keepForgetHalfLifeHours);
  if (i.conflict) p *= k.keepConflictFactor;
  if (i.forgetful) p *= k.keepForgetfulFactor;
  return clamp01(p);
}

/** Events that make a place unsafe or unusable for a while: the people there leave, or those who work there deal with it. */
const DANGER = /\b(fire|alarm|smoke|flood\w*|burst|leak\w*|gas|explosion|collaps\w*|evacuat\w*|storm|power cut|blackout)\b/i;

/** Whether an event makes its place unsafe or unusable (fire alarm, flood, gas leak...). */
export function isDanger(text: string): boolean {
  return DANGER.test(text);
}

export interface ReactInputs {
  /** The event makes the place unsafe or unusable (isDanger). */
  danger: boolean;
  /** The event is at the agent's place (not one announced everywhere). */
  atPlace: boolean;
  /** The agent works there. */
  staff: boolean;
}

/** For `staff`, the chance of staying to deal with it; for anyone else, the chance of leaving. Zero unless it is a danger at its place. */
export function reactProbability(i: ReactInputs, k: SocialParameters = SOCIAL_PARAMETERS): number {
  if (!i.danger || !i.atPlace) return 0;
  return i.staff ? k.reactStaffDeals : k.reactLeaveDanger;
}

/** A decision drawn from the seeded stream: the same seed and key give the same draw. */
export function decide(
  seed: number,
  decision: SocialDecision['decision'],
  key: Array<string | number>,
  about: string,
  otherId: string | null,
  p: number,
  inputs: object,
): SocialDecision {
  const draw = Rng.fromKey(seed, 'social', decision, ...key).next();
  return { decision, about, otherId, inputs: { ...(inputs as Record<string, number | boolean | string>) }, p: round(p), draw: round(draw), chose: draw < p };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
