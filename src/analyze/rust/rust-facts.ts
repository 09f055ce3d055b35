/**
 * What extraction learns of one Rust file for resolution across files: plain data, made from the
 * file alone. Names local to a function (parameters, `let` bindings, closure parameters, items
 * declared in a block) are already bound here; what a path reaches through modules, `use`
 * declarations, crates and `impl` blocks is left to the resolver.
 *
 * Unit symbols (`Session.run`) stand for `path#symbol`; the empty symbol is the file unit.
 * A module scope is named by the symbol of its inline `mod` unit (`net.http`), '' for the file's
 * own module.
 */
export interface RustFacts {
  /** `mod x;` declarations: the file modules this file brings into its crate. */
  modules: ModuleDeclaration[];
  /** `use` declarations, one per name bound (or glob), and `extern crate`. */
  imports: ImportFact[];
  /** Each module scope's named items (fns, types, traits, consts, statics, inline modules): scope → name → symbol. */
  items: Record<string, Record<string, string>>;
  /** Symbols of the inline `mod` units: paths step into them as modules. */
  inlineModules: string[];
  /** `macro_rules!` definitions, in source order; `exported` for `#[macro_export]`, which puts the macro at its crate's root. */
  macros: Array<{ name: string; symbol: string; exported: boolean }>;
  /** Structs, enums, unions and type aliases by symbol. */
  types: Record<string, TypeDeclarationFact>;
  traits: Record<string, TraitFact>;
  impls: ImplFact[];
  /** Fns and methods by symbol. */
  functions: Record<string, FunctionFact>;
  /** Consts and statics by symbol. */
  statics: Record<string, StaticFact>;
  /** The bindings local to function bodies that uses refer to by index (Root `local`). */
  locals: LocalFact[];
  uses: UseFact[];
}

export interface ModuleDeclaration {
  /** The module scope holding the declaration: '' for `mod x;` at the file's top, `a` inside `mod a { mod x; }`. */
  scope: string;
  name: string;
  line: number;
  /** A `#[path = "..."]` attribute's value. */
  path?: string;
}

export interface ImportFact {
  scope: string;
  /** The path as written, `crate`, `super`, `self` kept; a leading `::` is the segment '::'. */
  segments: string[];
  /** The name the declaration binds (the alias, or the last segment); undefined for a glob. `_` binds nothing. */
  name?: string;
  glob: boolean;
  public: boolean;
  line: number;
  /** Declared inside a function body: it binds names there, not in the module (extraction has bound them). */
  local?: boolean;
}

/** A type as written, read far enough to tell whose methods and fields a value of it has. */
export type TypeFact =
  /** `Session`, `crate::model::Message`, `Vec<Tool>`: a path resolved from the module scope, with its type arguments. */
  | { kind: 'path'; scope: string; segments: string[]; args: TypeFact[] }
  /** A type item declared inside a function body, already bound. */
  | { kind: 'item'; symbol: string; args: TypeFact[] }
  /** `dyn A + B`, `impl A`, a type parameter `T: A`: a value of some type implementing the traits. */
  | { kind: 'traits'; traits: TypeFact[] }
  /** `[T]`, `[T; N]`: a sequence of T. */
  | { kind: 'slice'; element: TypeFact }
  /** A type alias's own parameter, filled in by the alias's arguments where it is used. */
  | { kind: 'parameter'; index: number }
  /** Primitives, tuples, `()`, `!`: values whose methods are Rust's own. */
  | { kind: 'primitive' }
  /** Function types, `Self::Item`, whatever says nothing of whose code runs. */
  | { kind: 'opaque' };

export interface FieldFact {
  line: number;
  /** As written, whitespace collapsed. */
  type: string;
  fact: TypeFact;
}

export interface TypeDeclarationFact {
  kind: 'struct' | 'enum' | 'union' | 'alias';
  fields: Record<string, FieldFact>;
  /** A struct without fields (`struct Marker;`): its bare name makes a value. */
  unitLike: boolean;
  /** An enum's variant names. */
  variants: string[];
  /** What an alias stands for. */
  alias?: TypeFact;
}

export interface TraitMethodFact {
  /** The default method's symbol; undefined for a method each impl must define (no unit). */
  symbol?: string;
  returns?: TypeFact;
}

export interface TraitFact {
  supertraits: Array<{ type: TypeFact; line: number }>;
  methods: Record<string, TraitMethodFact>;
}

export interface ImplFact {
  selfType: TypeFact;
  trait?: TypeFact;
  line: number;
  /** Fns and associated consts by name → symbol. */
  members: Record<string, string>;
}

export interface FunctionFact {
  returns?: TypeFact;
  /** Takes `&mut self` (or `mut self`): a call through a field changes that field. */
  mutatesSelf: boolean;
}

export interface StaticFact {
  kind: 'const' | 'static';
  /** `static mut`, an interior-mutable type (Mutex, atomics, OnceLock, ...), a `lazy_static!` or `thread_local!`: state by declaration. */
  mutable: boolean;
  type?: TypeFact;
}

/** Where an expression starts. */
export type Root =
  /** A path resolved from a module scope: a module item, an import, a crate (`crate::tools::run`, `Session`). */
  | { kind: 'path'; scope: string; segments: string[] }
  /** An item of the type (`Self::new`, `T::default`): `segments` are looked up among its associated items. */
  | { kind: 'type'; type: TypeFact; segments: string[] }
  /** An item declared inside a function body (a nested fn), with the path segments after it. */
  | { kind: 'item'; symbol: string; segments: string[] }
  | { kind: 'local'; local: number }
  /** A struct literal (`Session { .. }`): an instance of the type. */
  | { kind: 'struct'; type: TypeFact }
  /** A literal or a value-making builtin macro (`format!`, `vec!`): a value of Rust's own types. */
  | { kind: 'primitive' }
  | { kind: 'opaque' };

export type Step =
  | { kind: 'field'; name: string }
  /** A method called on the value so far. */
  | { kind: 'method'; name: string }
  /** The value so far called (`f(x)`, `Session::new()`). */
  | { kind: 'call' }
  /** `?`: the value inside a Result or an Option. */
  | { kind: 'try' }
  | { kind: 'index' }
  /** `&mut x`: a handle through which x is changed. */
  | { kind: 'borrow' };

export interface Expression {
  root: Root;
  steps: Step[];
}

/**
 * A local binding: its annotated type, else the value it is bound to. What a pattern takes of the
 * value is spelled as steps: `for x in v` binds `v[..]` (an element), `if let Some(x) = v` binds
 * `v?` (what the option holds).
 */
export interface LocalFact {
  type?: TypeFact;
  value?: Expression;
}

/** How a use touches what its expression ends on. */
export type Access =
  | 'call'
  /** A macro invocation; the expression's root is the macro's path. */
  | 'macro'
  /** A struct literal. */
  | 'instantiate'
  | 'read'
  | 'write'
  /** `x += 1`: reads, then writes. */
  | 'update'
  /** `x[i] = v`: changes the value x holds, after reading x. */
  | 'mutate';

export interface UseFact {
  /** The unit whose code holds the use ('' for the file unit). */
  from: string;
  line: number;
  expression: Expression;
  access: Access;
  /** For calls and macros: the callee as written (`self.run`, `Session::new`, `log!`). */
  text?: string;
}

/** A record keyed by Rust names, without a prototype: `constructor` is a name like any other. */
export function nameRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

export function emptyFacts(): RustFacts {
  return {
    modules: [], imports: [], items: nameRecord(), inlineModules: [], macros: [], types: nameRecord(), traits: nameRecord(),
    impls: [], functions: nameRecord(), statics: nameRecord(), locals: [], uses: [],
  };
}
