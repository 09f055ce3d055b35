import type { Unit } from '../graph/model.js';
import type { LiveDeclaration } from './live-declaration.js';
import type { ResolvedLocation } from './live-resolver.js';

/**
 * The words every reader prints beside a place or a name the handbook recorded, when the code no
 * longer stands as the build saw it, so the CLI's listings and the MCP pages say it alike. Code
 * that only shifted gets no word: it is printed at its live line. Each is empty while the code is
 * the build's.
 */

/** "(moved from src/a.ts)", "(changed)" or "(gone)" after a place printed where the code stands now. */
export function placeNote(unit: Pick<Unit, 'file'>, live: ResolvedLocation): string {
  if (live.status === 'frozen') return '(gone)';
  if (live.movedTo) return `(moved from ${unit.file})`;
  return live.status === 'changed' ? '(changed)' : '';
}

/** "(moved to src/b.ts)", "(changed)" or "(gone)" after a unit named without its place. */
export function nameNote(live: ResolvedLocation | undefined): string {
  if (!live || live.status === 'fresh') return '';
  if (live.status === 'frozen') return '(gone)';
  return live.movedTo ? `(moved to ${live.movedTo.file})` : '(changed)';
}

/** "(moved from src/a.ts)", "(changed)" or "(gone)" after where a slot is declared now; `builtIn` is the file the build recorded. */
export function declarationNote(builtIn: string, declared: LiveDeclaration): string {
  return { fresh: '', changed: '(changed)', moved: `(moved from ${builtIn})`, frozen: '(gone)' }[declared.status];
}
