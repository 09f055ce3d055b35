/**
 * Whether a path is Go test code: `go test`'s convention (`*_test.go`) and `testdata/` folders,
 * which the go tool ignores and which hold inputs for tests, not code of the program.
 */
export function isGoTestPath(path: string): boolean {
  return path.endsWith('_test.go') || /(^|\/)testdata\//.test(path);
}
