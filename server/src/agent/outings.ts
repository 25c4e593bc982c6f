// Going out: the offline mind's model of where residents spend free time, so that they meet people they
// do not know. A routine says where one works, eats and sleeps; the time it leaves free at home ("spending
// time at home", "relaxing at home") is where the paper's LLM planner sent its residents out to the cafe,
// the park or the pub. Here each free block is a seeded decision (`agent.decided`, decision `outing`):
// go out for part of it, to one of the town's haunts, or stay in.
//
// - Free time: a routine block at home, not the first of the day (waking) nor the last (bed), whose
//   activity is idleness with no task of its own (IDLE: spending time, relaxing, resting, winding down,
//   unwinding, lounging, taking it easy, "at home" or nowhere said), at least OUTING_PARAMETERS.minBlockMinutes
//   long and starting before latestStartMinute.
// - Haunts: the arenas the town's routines send people to that are nobody's home (hauntsOf): a place
//   where two or more residents' routines go is where the town meets. One is picked by a seeded draw,
//   each with a chance proportional to how many residents' routines go there.
// - How often: outingBase per free block, × outgoingFactor for a sociable resident, × shyFactor for a
//   reserved one (socialModel.traitsOf). How long: up to maxMinutes of the block, from a quarter hour in it
//   drawn so that the outing fits; the rest of the block stays at home.
// outingBase and maxMinutes were calibrated: chosen from a few settings tried on the reference's Ville for its
// network density over two days, against the Valentine's floors on our town (server/src/agent/README.md,
// "Meeting new people"). The others are round numbers chosen before any run.
import type { Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import { resolvePlaceRef } from '../world/places';
import { decide, traitsOf, type SocialDecision } from './socialModel';
import { Rng } from '../sim/rng';
import { formatClock } from '../protocol/time';

export const OUTING_PARAMETERS = {
  /** Chance (0..1) of going out in one block of free time, before traits. Calibrated (see the head): most free time is spent among others. */
  outingBase: 0.8,
  /** Factor (×) for a sociable resident (socialModel's talkative words). Reason: they seek company (with outingBase, they always go). */
  outgoingFactor: 1.4,
  /** Factor (×) for a reserved one (socialModel's discreet words). Reason: they keep to themselves. */
  shyFactor: 0.6,
  /** Game minutes out at most in one free block. Calibrated (see the head): an afternoon or an evening out. */
  maxMinutes: 240,
  /** A free block shorter than this (game minutes) is not worth going out for. */
  minBlockMinutes: 60,
  /** Minute of the day after which free time is spent at home. Reason: late evenings are at home. */
  latestStartMinute: 21 * 60,
} as const;

/** An arena the town's routines go to that is nobody's home, and how many residents' routines go there. */
export interface Haunt {
  address: string;
  sector: string;
  visitors: number;
}

/** Idleness with no task of its own, and the place phrase that may follow it. */
const IDLE = /^(spending (?:some |free |the )?time|relaxing|resting|winding down|unwinding|lounging(?: around)?|taking it easy)(?: (?:at|around) home)?$/i;

/** Whether a routine activity is free time: idleness with no task ("spending time at home", "relaxing"). */
export function isIdle(activity: string): boolean {
  return IDLE.test(activity.trim());
}

/** The town's haunts (see the file's head): by visitors, most first, then by address. */
export function hauntsOf(personas: Iterable<Persona>, map: TownMap): Haunt[] {
  const all = [...personas];
  const homes = new Set(all.map((p) => p.home));
  const visitors = new Map<string, Set<string>>();
  for (const p of all)
    for (const entry of p.routine)
      for (const ref of Array.isArray(entry.place) ? entry.place : [entry.place]) {
        if (/^(home|work)\b/.test(ref)) continue;
        const resolved = resolvePlaceRef(ref, p, map);
        if ('error' in resolved || homes.has(resolved.arena.sector)) continue;
        const set = visitors.get(resolved.arena.address) ?? new Set<string>();
        set.add(p.id);
        visitors.set(resolved.arena.address, set);
      }
  return [...visitors]
    .filter(([, who]) => who.size >= 2)
    .map(([address, who]) => ({ address, sector: map.arenasByAddress.get(address)!.sector, visitors: who.size }))
    .sort((a, b) => b.visitors - a.visitors || a.address.localeCompare(b.address));
}

/** Whether an address (an arena, or an object in it) is at one of the haunts. */
export function atHaunt(address: string, haunts: readonly Haunt[]): boolean {
  return haunts.some((h) => address === h.address || address.startsWith(`${h.address}: `));
}

/** A routine block as planning sees it: minutes of the waking day, what and where. */
export interface RoutineBlock {
  startMinute: number;
  durationMinutes: number;
  activity: string;
  ref: string;
}

/** The outing planned in a block: the haunt, when in the block and for how long. */
export interface Outing {
  haunt: Haunt;
  /** Game minutes after the block's start that it goes out, and for how long. */
  offsetMinutes: number;
  durationMinutes: number;
}

/**
 * Whether the resident goes out in this block of its day (minutes of the waking day: since the midnight
 * before waking), and where: null when the block is not free time or the seeded decision keeps it in.
 */
export function outingFor(
  persona: Persona,
  blocks: readonly RoutineBlock[],
  index: number,
  haunts: readonly Haunt[],
  seed: number,
  day: number,
  log?: (d: SocialDecision) => void,
): Outing | null {
  const P = OUTING_PARAMETERS;
  const block = blocks[index];
  if (haunts.length === 0 || index === 0 || index === blocks.length - 1 || !/^home\b/.test(block.ref) || !isIdle(block.activity)) return null;
  if (block.durationMinutes < P.minBlockMinutes || block.startMinute >= P.latestStartMinute) return null;
  const traits = traitsOf(persona);
  const p = Math.min(1, P.outingBase * (traits.talkative ? P.outgoingFactor : 1) * (traits.discreet ? P.shyFactor : 1));
  // Where, and when in the block: draws of their own, so the yes or no is the same whatever the haunts.
  const draws = Rng.fromKey(seed, 'outing', persona.id, day, block.startMinute);
  let pick = draws.next() * haunts.reduce((a, h) => a + h.visitors, 0);
  let haunt = haunts[haunts.length - 1];
  for (const h of haunts) {
    if (pick < h.visitors) {
      haunt = h;
      break;
    }
    pick -= h.visitors;
  }
  const about = `going out to ${haunt.sector} in free time at ${formatClock(block.startMinute)}`;
  const d = decide(seed, 'outing', [persona.id, day, block.startMinute], about, null, p, { talkative: traits.talkative, discreet: traits.discreet });
  log?.(d);
  if (!d.chose) return null;
  const durationMinutes = Math.min(P.maxMinutes, block.durationMinutes);
  // Any quarter hour of the block that leaves the outing whole.
  const slots = Math.floor((block.durationMinutes - durationMinutes) / 15);
  return { haunt, durationMinutes, offsetMinutes: 15 * Math.floor(draws.next() * (slots + 1)) };
}
