/**
 * Positions in a text without a syntax tree to ask: which line an offset is on, and which of a
 * sorted list of token offsets comes first at or after a position. Both front ends use them.
 */

/** Line lookup by bisection over the offsets of line starts; lines are 1-based and end at `\n`. */
export function lineLocator(text: string): (offset: number) => number {
  const starts = [0];
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

/** The index of the first offset in `at` (ascending) at or after `position`. */
export function firstTokenAt(at: readonly number[], position: number): number {
  let low = 0;
  let high = at.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (at[middle]! < position) low = middle + 1;
    else high = middle;
  }
  return low;
}
