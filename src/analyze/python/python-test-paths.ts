/**
 * Whether a path is Python test code: pytest's and unittest's conventions (`test_*.py`,
 * `*_test.py`, `conftest.py`) and the folders tests live in, as the TypeScript front end counts
 * them (`tests/`, `test/`, `testing/`).
 */
export function isPythonTestPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return /(^|\/)(tests?|testing)\//.test(path) || /^test_.*\.py$/.test(name) || /_tests?\.py$/.test(name) || name === 'conftest.py';
}
