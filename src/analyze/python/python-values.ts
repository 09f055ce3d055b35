import type { NamePath } from './python-facts.js';
import type { ModuleRef } from './module-paths.js';

/**
 * What an expression evaluates to, as far as names and annotations tell: the resolver's small
 * abstract value domain. `unknown` is a name bound nowhere; `dynamic` a value no fact describes.
 */
export type Value =
  | { kind: 'module'; module: ModuleRef }
  /** A class, function, method or accessor of the repository, as an object (not its result). */
  | { kind: 'unit'; id: string }
  | { kind: 'instance'; classId: string }
  /** `super()` inside a method of the class: members are looked up after it in its MRO. */
  | { kind: 'super'; classId: string }
  /** A value of a builtin type; `isType` for the type itself (`dict`), whose call makes one; `element` what iterating it gives. */
  | { kind: 'builtin'; isType?: boolean; element?: { file: string; path: NamePath } }
  | { kind: 'external'; package: string }
  | { kind: 'unknown' }
  | { kind: 'dynamic' };

export const DYNAMIC: Value = { kind: 'dynamic' };
export const UNKNOWN: Value = { kind: 'unknown' };
export const BUILTIN: Value = { kind: 'builtin' };

/**
 * Where one step of a path lands: the value it gives, and what the step names when that is a
 * unit or a state slot (what the use's edges go to). `receiver` is the class a member was looked
 * up on, for calls that reach its overrides; `missing` a class that has no member of the name.
 */
export interface Landing {
  value: Value;
  unit?: string;
  slot?: string;
  receiver?: string;
  missing?: string;
}

/** The more telling of the values a name may hold: a repository value first, then an external one, then a builtin. */
export function bestValue(values: readonly Value[]): Value {
  const rank = (value: Value): number =>
    value.kind === 'unit' || value.kind === 'instance' || value.kind === 'module' || value.kind === 'super' ? 0
    : value.kind === 'external' ? 1
    : value.kind === 'builtin' ? 2
    : 3;
  let best: Value = DYNAMIC;
  for (const value of values) if (rank(value) < rank(best)) best = value;
  return best;
}
