// Boxes placed one at a time, each asked first whether it would overlap one already placed: the greedy
// layouts of labels (PlaceLabels, markLayout.ts). The boxes are kept by grid cell, so a question looks at
// the few boxes near it, not at all of them: thousands of names are laid out in a few milliseconds.

/** Rows of grid cells at most, for a cell's key (column × span + row): more than any map has at any zoom. */
const GRID_KEY_SPAN = 1 << 20;

export class BoxGrid {
  /** Boxes as [left, top, right, bottom], by cell; a cell's key is a number (a string each was most of a relayout in a big town). */
  private readonly cells = new Map<number, Array<[number, number, number, number]>>();

  /** `cellPx`: a cell's side, in the units of the boxes; about the size of a box. */
  constructor(private readonly cellPx: number) {}

  /** Whether the box overlaps one placed (touching edges do not overlap). */
  hits(left: number, top: number, right: number, bottom: number): boolean {
    const s = this.cellPx;
    for (let i = Math.floor(left / s); i <= Math.floor(right / s); i++)
      for (let j = Math.floor(top / s); j <= Math.floor(bottom / s); j++) {
        const boxes = this.cells.get(i * GRID_KEY_SPAN + j);
        if (boxes?.some((b) => b[0] < right && left < b[2] && b[1] < bottom && top < b[3])) return true;
      }
    return false;
  }

  place(left: number, top: number, right: number, bottom: number): void {
    const s = this.cellPx;
    const box: [number, number, number, number] = [left, top, right, bottom];
    for (let i = Math.floor(left / s); i <= Math.floor(right / s); i++)
      for (let j = Math.floor(top / s); j <= Math.floor(bottom / s); j++) {
        const key = i * GRID_KEY_SPAN + j;
        const boxes = this.cells.get(key);
        if (boxes) boxes.push(box);
        else this.cells.set(key, [box]);
      }
  }
}
