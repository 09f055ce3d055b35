/**
 * Names close to one that named nothing, for a refusal that can say "did you mean": a slip of
 * case (`agentloop.run`) or of a letter or two (`AgentLop.run`, `maskSecret`). Each candidate is a
 * name a user may type and the id it stands for; the ids come back nearest first, then in id order,
 * so the same slip always gets the same suggestions.
 */
export function closeNames(reference: string, candidates: Iterable<readonly [name: string, id: string]>, limit = 3): string[] {
  const wanted = reference.toLowerCase();
  // A quarter of the name may be wrong, at least one letter: `run` does not suggest every three-letter name.
  const allowed = Math.max(1, Math.floor(wanted.length / 4));
  const nearest = new Map<string, number>();
  for (const [name, id] of candidates) {
    const lower = name.toLowerCase();
    if (Math.abs(lower.length - wanted.length) > allowed) continue;
    const distance = editDistance(wanted, lower, allowed);
    if (distance <= allowed && distance < (nearest.get(id) ?? Infinity)) nearest.set(id, distance);
  }
  return [...nearest]
    .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([id]) => id);
}

/** Levenshtein distance, cut short once every path exceeds `bound` (the answer is then above it). */
function editDistance(a: string, b: string, bound: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > bound) return best;
    previous = current;
  }
  return previous[b.length]!;
}
