/**
 * What an expression evaluates to, as far as paths, types and impls tell: the resolver's small
 * abstract value domain. `unknown` is a name bound nowhere; `dynamic` a value no fact describes.
 *
 * `origin` is the field slot or static a value is a handle on: what a `lock()`, `borrow_mut()`,
 * `get_mut()` or `&mut` hands out of it. Changing the value changes that holder
 * (`self.state.lock().unwrap().push(x)`, or `let g = self.state.lock().unwrap(); g.turns = 1`,
 * both write `state`).
 */
export type Value =
  | { kind: 'module'; key: string }
  /** A fn, type, trait, macro or static of the repository, as a path names it (not a value of its type). */
  | { kind: 'unit'; id: string }
  /** An enum's variant, as a path names it: calling it makes an instance of the enum. */
  | { kind: 'variant'; enumId: string }
  | { kind: 'instance'; typeId: string; origin?: string }
  /** A value of some type implementing the traits: `dyn Provider`, `impl Provider`, `P: Provider`, `self` in a trait. */
  | { kind: 'traits'; traitIds: string[]; origin?: string }
  /** A value of std's types; `wrapper` names a container, cell or option, `element` what it holds. */
  | { kind: 'std'; wrapper?: string; element?: Value; origin?: string }
  | { kind: 'external'; crate: string }
  | { kind: 'unknown' }
  | { kind: 'dynamic'; origin?: string };

export const DYNAMIC: Value = { kind: 'dynamic' };
export const UNKNOWN: Value = { kind: 'unknown' };
export const STD: Value = { kind: 'std' };

/** The methods a call at a step runs: those it names, and those a call through a trait dispatches to. */
export interface Callees {
  direct: string[];
  dispatch: string[];
}

/**
 * Where one step of an expression lands: the value it gives, and what the step names when that
 * is a unit or a field slot (what a use's edges go to). `callees` for a step that names a method
 * or an associated fn; `missing` for a method no impl of a repository type declares.
 */
export interface Landing {
  value: Value;
  unit?: string;
  slot?: string;
  callees?: Callees;
  missing?: boolean;
}

/** The value with the holder it is a handle on. */
export function withOrigin(value: Value, origin: string | undefined): Value {
  if (origin === undefined) return value;
  if (value.kind === 'instance' || value.kind === 'traits' || value.kind === 'std' || value.kind === 'dynamic') return { ...value, origin };
  return value;
}

export function originOf(value: Value): string | undefined {
  return value.kind === 'instance' || value.kind === 'traits' || value.kind === 'std' || value.kind === 'dynamic' ? value.origin : undefined;
}
