import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One pinned Debian package whose source the end-to-end tests build. */
export interface DebianRealCode {
  debianPackage: string;
  version: string;
  /** The folder in the .deb that holds the source. */
  inside: string;
  /**
   * The name the folder keeps under the analyzed root, for a language whose imports name it
   * (`prompt_toolkit/`); absent, the folder itself is the root (a Go module, a crate).
   */
  keep?: string;
  /** A file that exists once the source is in place, from the analyzed root. */
  marker: string;
}

/**
 * The real code bases of the Python, Go and Rust end-to-end tests, as Debian 12 (bookworm) ships
 * them. The facts the tests assert were checked by hand on exactly these versions; if the archive
 * drops one, the setup fails naming the version it offers instead, and the facts must be checked again.
 */
export const DEBIAN_REAL_CODE = {
  /** prompt_toolkit: 146 .py files, about 41,000 lines. */
  python: { debianPackage: 'python3-prompt-toolkit', version: '3.0.36-2', inside: 'usr/lib/python3/dist-packages/prompt_toolkit', keep: 'prompt_toolkit', marker: 'prompt_toolkit/__init__.py' },
  /** logrus, a Go module: 46 .go files (26 not tests), about 5,900 lines, interfaces implemented across packages. */
  go: { debianPackage: 'golang-github-sirupsen-logrus-dev', version: '1.9.0-1', inside: 'usr/share/gocode/src/github.com/sirupsen/logrus', marker: 'go.mod' },
  /** serde_json, a crate: 68 .rs files (40 not tests), about 21,700 lines, traits, impls and macro_rules! macros. */
  rust: { debianPackage: 'librust-serde-json-dev', version: '1.0.87-1', inside: 'usr/share/cargo/registry/serde_json-1.0.87', marker: 'Cargo.toml' },
} as const satisfies Record<string, DebianRealCode>;

export type DebianRealCodeName = keyof typeof DEBIAN_REAL_CODE;

/** The root to analyze: the folder that holds `keep`, or the package's folder itself. */
export function debianRealCodeDirectory(name: DebianRealCodeName): string {
  const entry = DEBIAN_REAL_CODE[name];
  return path.join(PROJECT_ROOT, '.cache', 'real-code', `${entry.debianPackage}-${entry.version}`);
}
