/** What an expression may hold, as far as names and declared types tell. */
export type GoValue =
  /** An import qualifier naming a package of the repository. */
  | { kind: 'package'; key: string }
  /** A named type of the repository, as a name: a conversion, a method expression. */
  | { kind: 'type'; id: string }
  /** A value of a named type of the repository. */
  | { kind: 'instance'; id: string }
  /** A func or method of the repository, as a value. */
  | { kind: 'function'; id: string }
  /** A method of an interface of the repository, on a value of it: a call runs one of its implementations. */
  | { kind: 'interface-method'; interfaceId: string; name: string }
  /** A slice, array, map or channel, and what indexing, ranging or receiving gives. */
  | { kind: 'container'; element: GoValue; key?: GoValue; channel?: boolean }
  /** A value of a func type: calling it runs code no name tells. */
  | { kind: 'func'; results: GoValue[] }
  /** Predeclared: `len`, `string`, an `error`'s methods, a literal's type. */
  | { kind: 'builtin' }
  /** From a package outside the repository. */
  | { kind: 'external'; package: string }
  /** Nothing known: a local no type reaches, a value read in a loop of definitions. */
  | { kind: 'dynamic' }
  /** A name nothing declares. */
  | { kind: 'unknown' };

/**
 * Where one step of a path lands: its value, and the unit or slot the step names on the way (a
 * func read as a value names the func; a field read names its slot).
 */
export interface GoLanding {
  value: GoValue;
  unit?: string;
  slot?: string;
  /** A selector no member of a repository type matched: the name, for a call tied by name alone. */
  missing?: string;
}

export const DYNAMIC: GoValue = { kind: 'dynamic' };
export const UNKNOWN: GoValue = { kind: 'unknown' };
export const BUILTIN: GoValue = { kind: 'builtin' };

/** Go's predeclared types: values of them have Go's own methods (`err.Error()`), none of the repository's. */
export const PREDECLARED_TYPES = new Set([
  'any', 'bool', 'byte', 'comparable', 'complex64', 'complex128', 'error', 'float32', 'float64', 'int', 'int8', 'int16', 'int32', 'int64',
  'rune', 'string', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr',
]);

/** Go's predeclared funcs: calls of them are no call sites, unless the package declares the name itself. */
export const PREDECLARED_FUNCS = new Set([
  'append', 'cap', 'clear', 'close', 'complex', 'copy', 'delete', 'imag', 'len', 'make', 'max', 'min', 'new', 'panic', 'print', 'println', 'real', 'recover',
]);
