// Which agents' emoji and speech bubbles show when zoomed out (client/src/view/markLayout.ts): plain boxes in,
// `shown` and the place names covered out.
import { describe, expect, it } from 'vitest';
import { layOutMarks, MarkRank, type Box, type Mark } from '../../client/src/view/markLayout';

const GAP = 3;
const CELL = 128;

function mark(id: string, rank: MarkRank, x: number, y: number, width = 20, height = 20): Mark {
  return { id, part: rank === MarkRank.bubble || rank === MarkRank.followedBubble ? 'bubble' : 'emoji', rank, x, y, width, height, shown: false };
}

/** Ids (and parts) of the marks shown, in id order. */
function shown(marks: Mark[]): string[] {
  return marks
    .filter((k) => k.shown)
    .map((k) => `${k.id}:${k.part}`)
    .sort();
}

describe('the layout of emoji and bubbles zoomed out', () => {
  it('shows every mark where none overlaps another or a place name', () => {
    const marks = [mark('a', MarkRank.sleep, 0, 0), mark('b', MarkRank.emoji, 100, 0), mark('c', MarkRank.bubble, 0, 100, 150, 30)];
    expect(layOutMarks(marks, [{ x: 300, y: 0, width: 80, height: 20 }], GAP, CELL)).toEqual([]);
    expect(shown(marks)).toEqual(['a:emoji', 'b:emoji', 'c:bubble']);
  });

  it('keeps a bubble over an action emoji over a sleep emoji, whatever order they come in', () => {
    const make = () => [mark('a', MarkRank.sleep, 0, 0), mark('b', MarkRank.emoji, 10, 5), mark('c', MarkRank.bubble, 5, 10)];
    const forward = make();
    const backward = make().reverse();
    layOutMarks(forward, [], GAP, CELL);
    layOutMarks(backward, [], GAP, CELL);
    expect(shown(forward)).toEqual(['c:bubble']);
    expect(shown(backward)).toEqual(['c:bubble']);
    // Without the bubble, the action emoji keeps its place over the sleep emoji.
    const two = [mark('a', MarkRank.sleep, 0, 0), mark('b', MarkRank.emoji, 10, 5)];
    layOutMarks(two, [], GAP, CELL);
    expect(shown(two)).toEqual(['b:emoji']);
  });

  it('breaks a tie within a rank by the smaller id', () => {
    const marks = [mark('zoe', MarkRank.sleep, 0, 0), mark('adam', MarkRank.sleep, 5, 0), mark('mia', MarkRank.sleep, 10, 0)];
    layOutMarks(marks, [], GAP, CELL);
    expect(shown(marks)).toEqual(['adam:emoji']);
  });

  it('keeps a gap: marks closer than the gap are taken to overlap, marks just outside it are not', () => {
    const close = [mark('a', MarkRank.emoji, 0, 0), mark('b', MarkRank.emoji, 20 + GAP - 1, 0)];
    const apart = [mark('a', MarkRank.emoji, 0, 0), mark('b', MarkRank.emoji, 20 + GAP + 1, 0)];
    layOutMarks(close, [], GAP, CELL);
    layOutMarks(apart, [], GAP, CELL);
    expect(shown(close)).toEqual(['a:emoji']);
    expect(shown(apart)).toEqual(['a:emoji', 'b:emoji']);
  });

  it('hides only the marks in the way: one that yielded blocks nobody', () => {
    // a (bubble) covers b (emoji); b would cover c (sleep), but b yields, so c shows.
    const marks = [mark('a', MarkRank.bubble, 0, 0, 40, 20), mark('b', MarkRank.emoji, 30, 0), mark('c', MarkRank.sleep, 45, 0)];
    layOutMarks(marks, [], GAP, CELL);
    expect(shown(marks)).toEqual(['a:bubble', 'c:emoji']);
  });

  it('never shows a mark over a place name, even a bubble; marks far across the grid are found too', () => {
    const places: Box[] = [
      { x: 0, y: 0, width: 300, height: 20 },
      { x: 1000, y: 1000, width: 80, height: 20 },
    ];
    const marks = [mark('a', MarkRank.bubble, 250, 10, 150, 30), mark('b', MarkRank.sleep, 1070, 990), mark('c', MarkRank.emoji, 500, 500)];
    expect(layOutMarks(marks, places, GAP, CELL)).toEqual([]);
    expect(shown(marks)).toEqual(['c:emoji']);
  });

  it('keeps the followed agent’s bubble over everything, and the place names under it give way', () => {
    const places: Box[] = [
      { x: 0, y: 0, width: 100, height: 20 },
      { x: 400, y: 0, width: 100, height: 20 },
    ];
    const marks = [
      mark('b', MarkRank.bubble, 40, 5, 150, 30),
      mark('z', MarkRank.followedBubble, 50, 10, 150, 30),
      // Its own emoji yields to its bubble; another agent's emoji yields to both.
      mark('z', MarkRank.followedEmoji, 60, 20),
      mark('a', MarkRank.emoji, 100, 15),
      mark('c', MarkRank.emoji, 420, 5),
    ];
    expect(layOutMarks(marks, places, GAP, CELL)).toEqual([0]);
    expect(shown(marks)).toEqual(['z:bubble']);
  });

  it('shows the followed agent’s emoji where its bubble leaves room', () => {
    const marks = [mark('z', MarkRank.followedEmoji, 0, 0), mark('a', MarkRank.bubble, 0, 0, 150, 30)];
    expect(layOutMarks(marks, [{ x: 10, y: 10, width: 50, height: 20 }], GAP, CELL)).toEqual([0]);
    expect(shown(marks)).toEqual(['z:emoji']);
  });
});
