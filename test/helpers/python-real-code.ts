import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The real Python code base the end-to-end tests build, pinned: prompt_toolkit as Debian 12
 * (bookworm) ships it in python3-prompt-toolkit (146 .py files, about 41,000 lines). The facts the
 * tests assert were checked by hand on exactly this version; if the Debian archive drops it, the
 * setup fails with the version it offers instead, and the facts must be checked again.
 */
export const PYTHON_REAL_CODE = {
  debianPackage: 'python3-prompt-toolkit',
  version: '3.0.36-2',
  /** The folder under usr/lib/python3/dist-packages/ in the .deb, kept by name so imports resolve. */
  pythonPackage: 'prompt_toolkit',
} as const;

/** The folder that holds the package folder (`prompt_toolkit/`): the root to analyze. */
export function pythonRealCodeDirectory(): string {
  return path.join(PROJECT_ROOT, '.cache', 'real-code', `python-prompt-toolkit-${PYTHON_REAL_CODE.version}`);
}
