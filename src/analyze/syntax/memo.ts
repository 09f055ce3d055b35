/** Marks an answer being computed, in place of the answer. */
const UNDER_WAY: unique symbol = Symbol('under way');

/**
 * Answers computed once per resolution, by a key of two parts (a file and a name, a class and a
 * member): nested maps, so a lookup builds no key string. A question asked again while its own
 * answer is being computed (names that refer to each other in a loop) gets `whileUnderWay`.
 */
export class Memo<V> {
  private readonly answers = new Map<string, Map<string | number, V | typeof UNDER_WAY>>();

  constructor(private readonly whileUnderWay: V) {}

  /** Drops the answers whose first key passes `test`: what a patched program must compute again. */
  forget(test: (first: string) => boolean): void {
    for (const first of this.answers.keys()) if (test(first)) this.answers.delete(first);
  }

  get(first: string, second: string | number, compute: () => V): V {
    let answers = this.answers.get(first);
    if (answers === undefined) this.answers.set(first, (answers = new Map()));
    const known = answers.get(second);
    if (known === UNDER_WAY) return this.whileUnderWay;
    if (known !== undefined || answers.has(second)) return known as V;
    answers.set(second, UNDER_WAY);
    const value = compute();
    answers.set(second, value);
    return value;
  }
}
