// The auto-follow camera's choice of whom to watch (client/src/view/spotlight.ts): plain data, real time
// passed in, so each case is a few frames at chosen instants.
import { describe, expect, it } from 'vitest';
import { LINGER_MS, MIN_DWELL_MS, RECENT_ACTION_MS, Spotlight, type Actor } from '../../client/src/view/spotlight';

const TILE = 32;

function actor(id: string, over: Partial<Actor> = {}): Actor {
  return { id, x: 10 * TILE, y: 10 * TILE, walking: false, talking: false, asleep: false, talkingTo: '', action: 'reading', ...over };
}

describe('the spotlight of the auto-follow camera', () => {
  it('shows the whole town (null) while nobody does anything, and an agent found mid-action is not news', () => {
    const s = new Spotlight();
    const town = [actor('a'), actor('b', { asleep: true, action: 'sleeping' })];
    expect(s.update(town, 0)).toBeNull();
    expect(s.update(town, 5000)).toBeNull();
    expect(s.ids).toEqual([]);
  });

  it('watches a walker, framing them with a margin', () => {
    const s = new Spotlight();
    s.update([actor('a'), actor('b')], 0);
    const frame = s.update([actor('a'), actor('b', { walking: true, x: 40 * TILE, y: 20 * TILE })], 100);
    expect(s.ids).toEqual(['b']);
    expect(frame).not.toBeNull();
    expect(frame!.x + frame!.width / 2).toBeCloseTo(40 * TILE);
    expect(frame!.y + frame!.height / 2).toBeCloseTo(20 * TILE);
    expect(frame!.width).toBeGreaterThan(0);
  });

  it('watches someone who just took up a new action, for a while', () => {
    const s = new Spotlight();
    s.update([actor('a', { action: 'sleeping' })], 0);
    expect(s.update([actor('a', { action: 'making coffee' })], 1000)).not.toBeNull();
    expect(s.ids).toEqual(['a']);
    // The news lasts a while, then the camera lingers, then goes back to the whole town.
    const coffee = [actor('a', { action: 'making coffee' })];
    const lastNews = 1000 + RECENT_ACTION_MS - 1;
    expect(s.update(coffee, lastNews)).not.toBeNull();
    expect(s.update(coffee, lastNews + LINGER_MS - 1)).not.toBeNull();
    expect(s.update(coffee, lastNews + LINGER_MS + 1)).toBeNull();
  });

  it('prefers a conversation to a walker, and frames both speakers', () => {
    const s = new Spotlight();
    const quiet = [actor('a'), actor('b', { x: 14 * TILE }), actor('c', { x: 60 * TILE })];
    s.update(quiet, 0);
    s.update([quiet[0], quiet[1], actor('c', { x: 60 * TILE, walking: true })], 100);
    expect(s.ids).toEqual(['c']);
    const talking = [
      actor('a', { talking: true, talkingTo: 'b' }),
      actor('b', { x: 14 * TILE, talking: true, talkingTo: 'a' }),
      actor('c', { x: 61 * TILE, walking: true }),
    ];
    // Not before the walker has been watched a while…
    s.update(talking, 100 + MIN_DWELL_MS - 1);
    expect(s.ids).toEqual(['c']);
    // …then the talkers, both in the frame.
    const frame = s.update(talking, 100 + MIN_DWELL_MS + 1)!;
    expect(s.ids).toEqual(['a', 'b']);
    expect(frame.x).toBeLessThan(10 * TILE);
    expect(frame.x + frame.width).toBeGreaterThan(14 * TILE);
  });

  it('keeps watching the same agent while they act, not jumping to another who acts as much', () => {
    const s = new Spotlight();
    s.update([actor('a'), actor('b')], 0);
    s.update([actor('a', { walking: true }), actor('b')], 100);
    expect(s.ids).toEqual(['a']);
    s.update([actor('a', { walking: true }), actor('b', { walking: true, x: 50 * TILE })], 100 + MIN_DWELL_MS * 3);
    expect(s.ids).toEqual(['a']);
  });

  it('frames agents acting near the watched one with it, but not those across town', () => {
    const s = new Spotlight();
    const still = [actor('a'), actor('b', { x: 15 * TILE }), actor('c', { x: 80 * TILE })];
    s.update(still, 0);
    const frame = s.update([actor('a', { walking: true }), actor('b', { x: 15 * TILE, walking: true }), actor('c', { x: 80 * TILE, walking: true })], 100)!;
    expect(s.ids).toEqual(['a']);
    expect(frame.x + frame.width).toBeGreaterThan(15 * TILE);
    expect(frame.x + frame.width).toBeLessThan(80 * TILE);
  });

  it('lets go of an agent who left the town', () => {
    const s = new Spotlight();
    s.update([actor('a')], 0);
    s.update([actor('a', { walking: true })], 100);
    expect(s.update([], 200)).toBeNull();
    expect(s.ids).toEqual([]);
  });
});
