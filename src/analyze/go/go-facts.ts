/**
 * What extraction learns of one Go file for resolution across files: plain data, made from the
 * file alone. Names bound inside a function (parameters, receivers, `:=`) are already bound to
 * their local here; what a package-level name, an import qualifier or a selector reaches in other
 * files is left to the resolver, which sees every file of the package at once.
 *
 * Unit symbols (`Server.Handle`) stand for `path#symbol`; the empty symbol is the file unit.
 */
export interface GoFacts {
  /** The name of the package clause ('' when the file has none). */
  package: string;
  imports: GoImport[];
  /** Package-level funcs, types, vars and consts by name → their unit's symbol (the first, for a name declared twice). */
  declarations: Record<string, string>;
  /** Named types by symbol. */
  types: Record<string, TypeFact>;
  /** Funcs and methods by symbol. */
  functions: Record<string, FunctionFact>;
  /** Package-level vars and consts by symbol. */
  variables: Record<string, VariableFact>;
  /** Bindings of function-local names that paths refer to by index (Root `local`). */
  locals: LocalFact[];
  uses: UseFact[];
}

export interface GoImport {
  /** The import path as written (`net/http`, `example.com/app/internal/model`). */
  path: string;
  /** The name given (`m "…"`), `.` for a dot import, `_` for a blank one; undefined when the package's own name is used. */
  alias?: string;
  line: number;
}

/**
 * A type as written, pointers dropped (a method set counts `*T`'s methods for `T`, and a call
 * through either reaches the same code) and type arguments dropped (`List[int]` is `List`).
 */
export type TypeRef =
  /** `Server`, or `model.Client` with its package qualifier as written in the file. */
  | { kind: 'named'; name: string; qualifier?: string }
  /** A slice, array, map (with its key) or channel: what indexing, ranging or receiving gives. */
  | { kind: 'container'; element: TypeRef; key?: TypeRef; channel?: boolean }
  /** A func type: calling a value of it runs code no name tells; its results are known. */
  | { kind: 'func'; results: TypeRef[] }
  /** A struct or interface literal type, a type parameter: nothing the graph can follow. */
  | { kind: 'opaque' };

export interface TypeFact {
  kind: 'struct' | 'interface' | 'other';
  line: number;
  /** Struct fields by name; an embedded field is named by its type (`Base` for `*pkg.Base`). */
  fields: Record<string, FieldFact>;
  /** Embedded struct fields, or the types an interface embeds, in source order. */
  embedded: Array<{ type: TypeRef; line: number }>;
  /** An interface's own methods (`method_elem`) by name, with what they return. */
  methods: Record<string, FunctionFact>;
  /** For a type that is neither struct nor interface (`type Handlers map[string]Handler`): what it is built on. */
  underlying?: TypeRef;
  /** `type A = B`: A is B, methods and all; a defined type (`type A B`) has B's fields but none of its methods. */
  alias?: true;
}

export interface FieldFact {
  line: number;
  type: TypeRef;
  /** The type as written, whitespace collapsed: the slot's `type`. */
  typeText: string;
}

/** What a call must match: the counts interface satisfaction compares (a variadic parameter counts once). */
export interface Shape {
  parameters: number;
  results: number;
  variadic: boolean;
}

export interface FunctionFact extends Shape {
  /** A method's receiver type name (`Server` for `(s *Server)`); undefined for a func. */
  receiver?: string;
  resultTypes: TypeRef[];
}

export interface VariableFact {
  type?: TypeRef;
  /** The initializer whose value the variable holds, and which of its results (`a, b = f()`). */
  value?: ValuePath;
  constant: boolean;
}

/** Where an expression starts. */
export type Root =
  /** A name no local binds: the package's own, an import qualifier, a dot import's, or a predeclared one. */
  | { kind: 'name'; name: string }
  | { kind: 'local'; local: number }
  /** A value of a type written in place: `T{…}`, `&T{…}`, `new(T)`, `make(T)`. */
  | { kind: 'typed'; type: TypeRef }
  /** A value no name reaches: a literal, an operator's result. */
  | { kind: 'opaque' };

/** One step from a value to the next: a selector, a call of it, an index or receive, a type assertion. */
export type Step =
  | { kind: 'select'; name: string }
  | { kind: 'call' }
  | { kind: 'index' }
  | { kind: 'assert'; type: TypeRef };

export interface ExprPath {
  root: Root;
  steps: Step[];
}

/** A path's value as a binding takes it: one result of a multi-value call, or what ranging over it gives. */
export interface ValuePath {
  path: ExprPath;
  /** `a, b := f()`: b takes result 1. */
  result?: number;
  /** `for k, v := range x`: k is the key, v the element. */
  range?: 'key' | 'element';
}

export interface LocalFact {
  /** The declared type: a parameter's, a receiver's, `var x T`'s, a type switch case's. */
  type?: TypeRef;
  /** Values assigned to it, the first few: the type they give decides when no type is declared. */
  values: ValuePath[];
}

/** How a use touches what its path ends on. */
export type Access =
  | 'call'
  | 'read'
  | 'write'
  /** `x++`, `x += 1`: reads, then writes. */
  | 'update'
  /** `x[k] = v`, `delete(x, k)`: writes the map or slice x holds, after reading x. */
  | 'mutate'
  /** `T{…}` or `&T{…}`: a composite literal of the type the path names. */
  | 'instantiate';

export interface UseFact {
  /** The unit whose code holds the use ('' for code outside any unit). */
  from: string;
  line: number;
  path: ExprPath;
  access: Access;
  /** For calls: the callee as written, and how many arguments it is given. */
  text?: string;
  arguments?: number;
  /** `f(xs...)`: the arguments' count says nothing of the parameters'. */
  spread?: boolean;
}

/** A record keyed by Go names: without a prototype, so `constructor` or `__proto__` is a name like any other. */
export function nameRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

export function emptyGoFacts(): GoFacts {
  return { package: '', imports: [], declarations: nameRecord(), types: nameRecord(), functions: nameRecord(), variables: nameRecord(), locals: [], uses: [] };
}
