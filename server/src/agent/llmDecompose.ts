// A day plan's decomposition by the LLM mind: the broad strokes into hour blocks at places in town, then
// each part of the day into actions at those places or their objects, each reply's grammar narrowed to the
// town and the day (replyShape.ts); what a reply leaves or gets wrong is filled from the routine plan.
import type { Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import { usableBy } from '../world/places';
import { minuteOfWakingDay, parseClock, wakingDay } from '../world/clockText';
import { findActionIndex } from '../protocol/plan';
import { formatClock } from '../protocol/time';
import type { DayPlan, PlannedAction } from '../protocol/plan';
import type { MindContext } from './mind';
import * as P from './prompts';
import { clockGrid, withItemEnums } from './replyShape';
import { jsonSchemaOf, type Asker } from './llmAsk';

/** A part of the day whose actions one reply holds: blocks are grouped up to this many hours. */
const DECOMPOSE_PART_MINUTES = 5 * 60;
/** An hour block as a model writes it: a start ("HH:MM"), what, and where. */
export type HourBlock = { start: string; activity: string; place: string };

/** Hour blocks one reply may hold, and the longest activity or action it may write ("brewing coffee at the counter"). */
const MAX_HOUR_BLOCKS = 12;
const MAX_ACTIVITY_CHARS = 60;
/** A part of the day's actions reply holds at most one action for each this many minutes of its span. */
const ACTION_MINUTES_PER_ITEM = 30;

/** The day's hour blocks at places in town (none when the ask failed or named none). */
export async function askHourBlocks(asker: Asker, ctx: MindContext, broadStrokes: string[]): Promise<HourBlock[]> {
  const p = ctx.agent.persona;
  const arenas = ctx.map.arenas.map((a) => a.address);
  const waking = wakingDay(p.wakeAt, p.sleepAt); // sleepMinute > 1440 for a bedtime after midnight
  // Blocks start on the half hour of the waking day, at one of the town's places.
  const blocksShape = withItemEnums(
    jsonSchemaOf(P.HourBlocksReply),
    'blocks',
    { start: clockGrid(waking.wakeMinute, waking.sleepMinute, 30), place: arenas },
    MAX_HOUR_BLOCKS,
    { activity: MAX_ACTIVITY_CHARS },
  );
  const blocksReply = await asker.ask(
    'decompose',
    p.id,
    P.hourBlocksPrompt(p, broadStrokes, arenas),
    P.HourBlocksReply,
    600,
    'decompose_blocks',
    (r) =>
      placeErrors(
        r.blocks.map((b, i) => ({ path: `$.blocks[${i}].place`, place: b.place })),
        arenas,
        (place) => ctx.map.arenasByAddress.has(place),
      ),
    blocksShape,
  );
  const blocks = (blocksReply?.blocks ?? []).filter((b) => ctx.map.arenasByAddress.has(b.place) && isClock(b.start));
  if (blocksReply && blocks.length === 0) asker.reportMismatch('decompose', p.id, 'no hour block at a place in town');
  return blocks;
}

/** Each part of the day's blocks decomposed into actions; the routine (`base`) fills what a part leaves. */
export async function askActions(asker: Asker, ctx: MindContext, blocks: HourBlock[], base: DayPlan): Promise<PlannedAction[]> {
  const p = ctx.agent.persona;
  const waking = wakingDay(p.wakeAt, p.sleepAt);
  // The day's actions in parts of a few hours, asked side by side: no reply has to hold a whole day,
  // and a part that fails is filled from the routine plan alone.
  const parts = await Promise.all(
    partsOfDay(blocks, waking.wakeMinute, waking.sleepMinute).map(async ({ blocks: part, from, to }) => {
      const objectsByPlace = Object.fromEntries(
        part.map((b) => [
          b.place,
          ctx.map.arenasByAddress
            .get(b.place)!
            .objects.filter((o) => usableBy(o, p))
            .map((o) => o.name),
        ]),
      );
      const spots = part.flatMap((b) => [b.place, ...objectsByPlace[b.place].map((o) => `${b.place}: ${o}`)]);
      // Actions start on the five minutes of this part, at its blocks' places or their objects.
      const partFrom = minuteOfWakingDay(parseClock(from.padStart(5, '0')), waking.wakeMinute);
      const partTo = minuteOfWakingDay(parseClock(to.padStart(5, '0')), waking.wakeMinute);
      // At most one action for every ACTION_MINUTES_PER_ITEM of the span: what a small model writes stays short, the routine fills the rest.
      const span = Math.max(partTo - partFrom, 5);
      const shape = withItemEnums(
        jsonSchemaOf(P.ActionsReply),
        'actions',
        { start: clockGrid(partFrom, partFrom + span, 5), place: spots },
        Math.ceil(span / ACTION_MINUTES_PER_ITEM),
        { description: MAX_ACTIVITY_CHARS, emoji: 2 },
      );
      const reply = await asker.ask(
        'decompose',
        p.id,
        P.actionsPrompt(p, part, objectsByPlace, { from, to }),
        P.ActionsReply,
        1200,
        'decompose_actions',
        (r) =>
          placeErrors(
            r.actions.map((a, i) => ({ path: `$.actions[${i}].place`, place: a.place })),
            spots,
            (place) => resolveAddress(place, ctx.map) !== null,
          ),
        shape,
      );
      return reply?.actions ?? [];
    }),
  );
  return normaliseActions(parts.flat(), ctx.map, waking.wakeMinute, waking.sleepMinute, base.actions);
}

/** Hour blocks grouped into parts of the day of at most DECOMPOSE_PART_MINUTES, each with the span it covers. */
function partsOfDay<B extends { start: string }>(blocks: B[], wakeMinute: number, sleepMinute: number): Array<{ blocks: B[]; from: string; to: string }> {
  const at = (b: B) => minuteOfWakingDay(parseClock(b.start.padStart(5, '0')), wakeMinute);
  const sorted = [...blocks].sort((x, y) => at(x) - at(y));
  const parts: Array<{ blocks: B[]; from: string; to: string }> = [];
  let current: B[] = [];
  for (const b of sorted) {
    if (current.length > 0 && at(b) - at(current[0]) >= DECOMPOSE_PART_MINUTES) {
      parts.push({ blocks: current, from: current[0].start, to: b.start });
      current = [];
    }
    current.push(b);
  }
  if (current.length) parts.push({ blocks: current, from: current[0].start, to: formatClock(sleepMinute % 1440) });
  return parts;
}

export function isClock(text: string): boolean {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  return !!m && Number(m[1]) < 24 && Number(m[2]) < 60;
}

/** One error per place a reply names that is not in town, with the places it may name (at most 40 of them). */
export function placeErrors(named: Array<{ path: string; place: string }>, valid: string[], isPlace: (place: string) => boolean): string[] {
  const wrong = named.filter((n) => !isPlace(n.place));
  if (wrong.length === 0) return [];
  const list = valid.slice(0, 40).join('; ') + (valid.length > 40 ? '; …' : '');
  return [...wrong.slice(0, 4).map((n) => `${n.path}: "${n.place}" is not a place in town`), `the places are: ${list}`];
}

/** "Hobbs Cafe: cafe" or "Hobbs Cafe: cafe: counter" as written by a model, if it names a real place. */
export function resolveAddress(place: string, map: TownMap): string | null {
  const clean = place.trim().replace(/\s*:\s*/g, ': ');
  if (map.objectsByAddress.has(clean) || map.arenasByAddress.has(clean)) return clean;
  const lower = clean.toLowerCase();
  for (const key of [...map.objectsByAddress.keys(), ...map.arenasByAddress.keys()]) if (key.toLowerCase() === lower) return key;
  return null;
}

/** A model's hour blocks in minutes of the persona's waking day, each lasting until the next (the last until bedtime). */
export function toHourBlocks(blocks: Array<{ start: string; activity: string }>, p: Persona) {
  const { wakeMinute, sleepMinute } = wakingDay(p.wakeAt, p.sleepAt);
  const sorted = blocks
    .map((b) => ({ startMinute: minuteOfWakingDay(parseClock(b.start.padStart(5, '0')), wakeMinute), activity: b.activity }))
    .sort((x, y) => x.startMinute - y.startMinute);
  return sorted.map((b, i) => ({ ...b, durationMinutes: Math.max(0, (sorted[i + 1]?.startMinute ?? sleepMinute) - b.startMinute) }));
}

/**
 * Makes a model's actions a valid plan: real places only, sorted, inside waking hours, no overlaps;
 * the minutes it leaves uncovered are taken from the offline plan.
 */
export function normaliseActions(
  raw: Array<{ start: string; minutes: number; description: string; emoji: string; place: string }>,
  map: TownMap,
  wakeMinute: number,
  sleepMinute: number,
  base: readonly PlannedAction[],
): PlannedAction[] {
  const valid = raw
    .filter((a) => isClock(a.start))
    .map((a) => ({
      startMinute: minuteOfWakingDay(parseClock(a.start.padStart(5, '0')), wakeMinute),
      durationMinutes: a.minutes,
      description: a.description.trim(),
      emoji: a.emoji,
      address: resolveAddress(a.place, map),
    }))
    .filter((a): a is PlannedAction => a.address !== null && a.startMinute >= wakeMinute && a.startMinute < sleepMinute)
    .sort((a, b) => a.startMinute - b.startMinute);
  const out: PlannedAction[] = [];
  let cursor = wakeMinute;
  const fill = (from: number, to: number) => {
    for (let m = from; m < to;) {
      const i = findActionIndex(base, m);
      const b = i >= 0 ? base[i] : null;
      const end = b ? Math.min(to, b.startMinute + b.durationMinutes) : to;
      if (b) out.push({ ...b, startMinute: m, durationMinutes: end - m });
      m = Math.max(end, m + 1);
    }
  };
  valid.forEach((a, i) => {
    if (a.startMinute < cursor) return; // starts inside the previous one
    if (a.startMinute > cursor) fill(cursor, a.startMinute);
    const next = valid.slice(i + 1).find((b) => b.startMinute > a.startMinute);
    const end = Math.min(a.startMinute + a.durationMinutes, next ? next.startMinute : sleepMinute, sleepMinute);
    out.push({ ...a, durationMinutes: end - a.startMinute });
    cursor = end;
  });
  if (cursor < sleepMinute) fill(cursor, sleepMinute);
  return out.filter((a) => a.durationMinutes > 0);
}
