/**
 * What extraction learns of one Python file for resolution across files: plain data, made from
 * the file alone, that the resolver reads for every file on every change. Names inside a file are
 * already bound to their scope here (local, enclosing function, module); only what a module name
 * or an attribute reaches in other files is left to the resolver.
 *
 * Unit symbols (`Agent.run`) stand for `path#symbol`; the empty symbol is the file unit.
 */
export interface PythonFacts {
  imports: ImportFact[];
  /** The module's names (`names.Agent`), each bound to what it holds at module level: see GlobalBinding. */
  names: Record<string, GlobalBinding>;
  /** `from m import *` statements at module level, in source order: the names they bring are looked up on demand. */
  starImports: ModuleSpec[];
  /** `__all__` when the module spells it as a list or tuple of strings. */
  all?: string[];
  /** Bindings of function-local names that uses refer to by index (Root `local`). */
  locals: LocalFact[];
  classes: Record<string, ClassFact>;
  functions: Record<string, FunctionFact>;
  /** Module-level variable units: what they were first assigned. */
  variables: Record<string, VariableFact>;
  uses: UseFact[];
}

/** A module as an import statement names it: `..pkg.mod` is level 2, name `pkg.mod`. */
export interface ModuleSpec {
  name: string;
  level: number;
}

export interface ImportFact extends ModuleSpec {
  line: number;
  /** `from m import a, b` names a and b (each possibly a submodule); undefined for `import m`. */
  names?: Array<{ name: string; line: number }>;
}

/** What a module-level name holds. */
export type GlobalBinding =
  | { kind: 'unit'; symbol: string }
  /** `import a.b` binds `a` (module `a`, `imported` a.b); `import a.b as m` binds `m` (module `a.b`). */
  | { kind: 'module'; module: ModuleSpec; imported?: string }
  /** `from m import x as y` binds `y` to `x` of m. */
  | { kind: 'from'; module: ModuleSpec; name: string }
  /** Bound by code whose value no fact records (a module-level loop's variable, a `with` target). */
  | { kind: 'opaque' };

/**
 * Where an expression starts: a name bound in some scope, `super()`, the result of a call, or
 * something no name reaches (a literal, a subscript).
 */
export type Root =
  /** A name of the module (or, unbound there, a builtin or a name from a star import). */
  | { kind: 'global'; name: string }
  | { kind: 'local'; local: number }
  /** `super()` inside a method of the class. */
  | { kind: 'super'; classSymbol: string }
  /** What calling `callee` returns (`Foo().run`, `make().x`). */
  | { kind: 'call'; callee: NamePath }
  /** A literal of a builtin type (`"".join`, `[]`, `{}`), whose methods are Python's own. */
  | { kind: 'builtin' }
  /** A value no name reaches: a subscript, an operator's result. */
  | { kind: 'opaque' };

/** An expression as a root and the attributes read off it: `self.client.chat` is local self, then client, then chat. */
export interface NamePath {
  root: Root;
  attributes: string[];
}

/** What a name or field may hold, as written where it is assigned or annotated. */
export type ValueFact =
  /** The value of an expression (`h = handle`, `x = self.tools`). */
  | { kind: 'path'; path: NamePath }
  /** The result of a call (`x = Foo()`, `x = make()`). */
  | { kind: 'call'; callee: NamePath }
  /** An instance of an annotated type (`x: Foo`); `element` is what a container annotation holds (`list[Foo]`). */
  | { kind: 'instance'; type: NamePath; element?: NamePath }
  /** An element of what iterating a value gives (`for x in items`). */
  | { kind: 'element'; of: ValueFact }
  | { kind: 'builtin' }
  | { kind: 'opaque' };

export interface LocalFact {
  /** A def or class bound to the name in its scope. */
  unit?: string;
  /** A method's first parameter: its class's symbol; an instance of it (`self`), or the class itself (`cls`, with classObject). */
  self?: string;
  classObject?: boolean;
  binding?: ImportBinding;
  /** What the name is annotated as: where it resolves, it decides over the assigned values. */
  annotation?: ValueFact;
  values: ValueFact[];
}

/** What an import binds a name to. */
export type ImportBinding = Extract<GlobalBinding, { kind: 'module' | 'from' }>;

export interface FieldFact {
  /** The class body's declaration line, else the first `self.x =` line of the class in source order. */
  line: number;
  /** Annotation as written, whitespace collapsed (`dict[str, Tool]`), or ''. */
  type: string;
  annotation?: ValueFact;
  values: ValueFact[];
}

export interface ClassFact {
  bases: Array<{ path: NamePath; line: number }>;
  /** Methods, accessors and nested classes by name: the last definition of a name wins, as at runtime. */
  members: Record<string, string>;
  /** Class attributes and `self.x` assignments. */
  fields: Record<string, FieldFact>;
}

export interface FunctionFact {
  /** Positional parameters a call must fill and may fill (−1: any number), the bound `self` or `cls` not counted. */
  minArguments: number;
  maxArguments: number;
  keywords: string[];
  anyKeywords: boolean;
  /** The return annotation. */
  returns?: ValueFact;
  /** What its own `return` statements give, the first few: a factory's class where no annotation says (`return OpenAIClient()`). */
  returned?: ValueFact[];
}

export interface VariableFact {
  annotation?: ValueFact;
  values: ValueFact[];
  /** Holds a container or a call's result, which code can change in place: state even when nothing reassigns it. */
  mutable: boolean;
}

/** How a use touches what its path ends on. */
export type Access =
  | 'call'
  | 'read'
  | 'write'
  /** `x += 1`: reads, then writes. */
  | 'update'
  /** `x[k] = v`, `del x[k]`, `x.attr = v` on what x holds: writes the object in x, after reading x. */
  | 'mutate';

export interface UseFact {
  /** The unit whose code holds the use ('' for module-level code). */
  from: string;
  line: number;
  path: NamePath;
  access: Access;
  /** For calls: the callee as written, and what the arguments allow. */
  text?: string;
  arguments?: { positional: number; keywords: string[]; spread: boolean };
  /** A call of a method that changes its receiver in place (`self.history.append(m)`): the receiver is written. */
  mutatesReceiver?: boolean;
}

/** A record keyed by Python names: without a prototype, so `constructor` or `__proto__` is a name like any other. */
export function nameRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
