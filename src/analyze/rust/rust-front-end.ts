import type { SyntaxFrontEnd } from '../front-end.js';
import type { Language } from '../languages.js';
import { extractRustFile } from './extract-rust-file.js';
import type { RustFacts } from './rust-facts.js';
import { isRustTestPath } from './rust-test-paths.js';
import { resolveRustFiles } from './resolve-rust-files.js';

export type { RustFacts } from './rust-facts.js';

const RUST: Language = 'rust';

/**
 * Rust, read with tree-sitter: each file's units and facts extracted alone, then every file
 * resolved at once by crates, module trees, `use` declarations and impl blocks. Every edge carries
 * `resolution: 'scope'`, or `'name'` for a method call tied to methods by its name alone.
 *
 * Units and their ids (`path#Symbol`, a second item of one symbol `~2`, as TypeScript does):
 * - fn → `function`; struct and union → `class` (named fields → `property` units `Struct.field`);
 *   enum → `enum` (variants are no units); trait → `interface`; type alias → `type`;
 *   const and static (also one declared in `lazy_static!` / `thread_local!`) → `variable`;
 *   `macro_rules! name` → `function` named `name` (signature `macro_rules! name`).
 * - An inline `mod name { ... }` is a unit of kind `type` named `name`; its items are named under
 *   it (`net.http.get`). A file module (`mod x;`) is its file's unit.
 * - A fn in an impl (associated fns like `new` included) or a trait's default method → `method`.
 *   An inherent impl's members are `Type.member`; a trait impl's are `Type.Trait.member`
 *   (`Session.Provider.complete`, `Error.Display.fmt`): stable, whatever else the type implements,
 *   and two traits' methods of one name stay apart. The type and the trait are named by their last
 *   path segment, generics dropped; a second impl of one trait (`From<A>`, `From<B>`) takes `~2`.
 *   A trait's method without a body is no unit: each impl's is. Members sit under the type's unit
 *   (`contains`) when the same scope of the file declares it, else under the file or module.
 * - An item inside a fn body is named under the fn (`run.helper`).
 * - Test code has no units: `#[cfg(test)]` items (the `mod tests` of a file) and `#[test]` fns
 *   are left out; files of test paths (rust-test-paths.ts) get their file unit and imports only.
 * - Docs: `///` and block doc comments before an item, else the plain comments right above it; `//!` at a
 *   file's top is the file unit's doc, inside an inline module the module's. A unit's span starts at
 *   its first attribute; doc comments stay outside it (and its hash), as a JSDoc does.
 *
 * Crates, modules and names: crate-index.ts (roots, crate names from folder names, `mod` file
 * rules, files no `mod` reaches); rust-modules.ts (paths, `use`, globs, re-exports); a path whose
 * first segment names no module item and no crate of the repository is an outside crate's, listed
 * in `externalImports` by that segment (`std`, `tokio`, `serde_json`), from `use` and from paths
 * in code alike.
 *
 * Calls: paths to fns and associated fns (`Type::new`, `Self::x`); methods through the impls of the
 * receiver's type where code spells it (`self`, a parameter's type, a `let` annotation, the return
 * type of the call that made the value, a field's type, `?`, `Some(x)` patterns, loop and
 * iterator-closure elements, what a lock holds); a call through `dyn Trait`, `impl Trait`, a bound
 * `T: Trait` or `self` in a trait runs the trait's default (`direct`) or each impl's own
 * (`dispatch`); on a receiver of unknown type, a trait method is dispatched by name to every impl
 * (`name`), an inherent method tied by name where at most three types declare it. Struct literals,
 * tuple structs, unit structs and enum variants instantiate. std's macros and std's methods on
 * std's values (or on values of unknown type, when the repository declares no method of the name)
 * are no call sites (rust-std.ts); a `name!` the crate defines is a call of that macro, any other
 * an unresolved external call `name!`. Arguments of every macro are read as code (macro-tokens.ts).
 *
 * State (resolve-uses.ts, rust-values.ts): struct fields are slots `path#Struct.field`, read and
 * written through `self` or any value of the type; a field changed in place (`push`, `insert`, an
 * item set, a `&mut self` method called on it) is written, and so is one whose lock or cell a
 * borrow came out of (`self.state.lock().unwrap().push(x)`, a guard held in a local). Statics are
 * state (`module-variable` slots, the static's unit id) when `static mut`, of an interior-mutable
 * type, lazily initialized, or written anywhere; consts and other statics are referenced.
 */
export const rustFrontEnd: SyntaxFrontEnd<RustFacts> = {
  language: RUST,
  isTestPath: isRustTestPath,
  extract: extractRustFile,
  resolve: resolveRustFiles,
};
