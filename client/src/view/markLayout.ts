// Which agents' emoji and speech bubbles ("marks") show when the town is zoomed out. Marks keep their size on
// screen as the map shrinks, so zoomed out they would pile onto one another and onto the place names. Marks
// are placed one at a time, best first, and a mark that would overlap a place name drawn or a mark already
// placed yields (is hidden): where few fit, the lowest-ranked give way first. The order:
//   1. the followed agent's bubble, then its emoji (it yields only to its own bubble): the place names they
//      would cover give way instead, while they would;
//   2. speech bubbles: what is said now;
//   3. awake agents' action emoji;
//   4. sleep emoji (😴): a town asleep is a field of them, and says least;
// and within a rank, the agent with the smaller id first, so the choice is the same every frame and on
// every page. Plain data and a grid (boxGrid.ts): no Phaser, a few hundred marks in well under a millisecond.
import { BoxGrid } from './boxGrid';

/**
 * Below this zoom marks yield. From it on (the zoom the camera follows an agent at) they are drawn at their
 * size in the world, and all show as they always did: an agent's bubble may then cover its neighbour's emoji.
 */
export const YIELD_ZOOM = 1;

/** A mark's rank: lower places first, and keeps its place. */
export const MarkRank = { followedBubble: 0, followedEmoji: 1, bubble: 2, emoji: 3, sleep: 4 } as const;
export type MarkRank = (typeof MarkRank)[keyof typeof MarkRank];

/** A box in world px. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An emoji or a bubble that would show, in world px. */
export interface Mark extends Box {
  /** The agent's id: it breaks ties within a rank. */
  id: string;
  part: 'emoji' | 'bubble';
  rank: MarkRank;
  /** Whether it shows: set by layOutMarks. */
  shown: boolean;
}

/**
 * Sets `shown` on each mark, as the file's header says; `places` are the place names drawn, `gap` the least
 * space kept between two boxes and `cellPx` a grid cell's side (world px). Returns the places (indices)
 * that give way to the followed agent's marks. Sorts `marks` in place, in the order they were placed.
 */
export function layOutMarks(marks: Mark[], places: readonly Box[], gap: number, cellPx: number): number[] {
  marks.sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const half = gap / 2;
  const taken = new BoxGrid(cellPx);
  /** Whether the box is clear of those in the grid. */
  const clear = (grid: BoxGrid, b: Box) => !grid.hits(b.x - half, b.y - half, b.x + b.width + half, b.y + b.height + half);
  const place = (grid: BoxGrid, b: Box) => grid.place(b.x - half, b.y - half, b.x + b.width + half, b.y + b.height + half);
  const followed = new BoxGrid(cellPx);
  let first = 0;
  for (; first < marks.length && marks[first].rank <= MarkRank.followedEmoji; first++) {
    const k = marks[first];
    k.shown = clear(followed, k);
    if (k.shown) place(followed, k);
  }
  const givenWay: number[] = [];
  places.forEach((p, i) => {
    if (first > 0 && !clear(followed, p)) givenWay.push(i);
    else place(taken, p);
  });
  for (let m = 0; m < first; m++) if (marks[m].shown) place(taken, marks[m]);
  for (let m = first; m < marks.length; m++) {
    const k = marks[m];
    k.shown = clear(taken, k);
    if (k.shown) place(taken, k);
  }
  return givenWay;
}
