/**
 * Whether a path is Rust test code: a crate's integration tests and benchmarks (`tests/`,
 * `benches/`), and files named as test modules (`tests.rs`, `foo_tests.rs`, `foo_test.rs`), which
 * are by convention the bodies of `#[cfg(test)] mod tests;`. A `#[cfg(test)]` module inside a
 * source file is left out by extraction, item by item.
 */
export function isRustTestPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return /(^|\/)(tests|benches)\//.test(path) || name === 'tests.rs' || /_tests?\.rs$/.test(name);
}
