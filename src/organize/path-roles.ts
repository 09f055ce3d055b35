import type { UnitAssignment } from './offline-stager.js';
import type { StageDefinition } from './skeleton.js';

/**
 * What a file's place in the repository says of its code, before any word of it is read. A
 * harness repository keeps beside the harness code that never runs in it: build and release
 * scripts, CI, examples, evaluation datasets and harnesses, documentation sites, tool config. Its
 * words ("run", "tool", "model") pull it into pipeline stages, where it buries the harness's own
 * code: judged blind on 100 sampled units of each dev repository, every such unit (36 of 200) had
 * been placed in a stage. And code in a UI folder is interface code whatever it mentions: a
 * component that handles the escape key is not sandboxing.
 */
export type PathRole = 'outside' | 'interface';

/**
 * Folder names that hold code kept beside the harness. Each is a convention of many repositories
 * (found in at least three harnesses: bench/vocabulary/word-sources.json), never one product's name.
 */
export const OUTSIDE_FOLDERS: ReadonlySet<string> = new Set(['examples', 'example', 'evals', 'eval', 'benchmarks', 'benchmark', 'scripts', 'docs']);
/** `eval-harness`, `benchmarks_v2`: one of those folders by a longer name. */
function outsideByPrefix(folder: string): boolean {
  const cut = folder.search(/[-_]/);
  return cut > 0 && OUTSIDE_FOLDERS.has(folder.slice(0, cut));
}
/** Tool configuration (`vitest.config.ts`), type-level tests (`agent.test-d.ts`), packaging (`setup.py`) and build scripts (`build.rs`). */
const OUTSIDE_FILE = /(^|\/)([^/]+\.config\.[cm]?[jt]sx?|[^/]+\.test-d\.[cm]?tsx?|setup\.py|noxfile\.py|build\.rs)$/;
/** Folder names of interface code. */
export const INTERFACE_FOLDERS: ReadonlySet<string> = new Set(['ui', 'tui', 'components']);
/** The seed skeleton's stage for interface code; a skeleton without it gets no interface rule. */
export const INTERFACE_STAGE = 'user-interface';

/** The role a file's path gives its code, or undefined when the path says nothing. */
export function pathRole(file: string): PathRole | undefined {
  const folders = file.split('/').slice(0, -1);
  // A dot folder (`.github`, `.vscode`, an agent's own `.gemini/skills`) holds the repository's tooling.
  if (folders.some((folder) => folder.startsWith('.') || OUTSIDE_FOLDERS.has(folder) || outsideByPrefix(folder)) || OUTSIDE_FILE.test(file)) return 'outside';
  if (folders.some((folder) => INTERFACE_FOLDERS.has(folder))) return 'interface';
  return undefined;
}

/**
 * The assignments with what paths say applied, whichever stager made them: code kept beside the
 * harness is placed in no stage, and code in an interface folder has the interface stage first
 * (the stages its words gave it stay as secondary ones). The same array when no path says anything.
 */
export function placeByPath(assignments: readonly UnitAssignment[], skeleton: readonly StageDefinition[]): readonly UnitAssignment[] {
  const hasInterface = skeleton.some((stage) => stage.id === INTERFACE_STAGE);
  let changed = false;
  const placed = assignments.map((assignment) => {
    const role = pathRole(assignment.unit.slice(0, assignment.unit.indexOf('#') < 0 ? undefined : assignment.unit.indexOf('#')));
    if (role === 'outside' && assignment.stages.length > 0) {
      changed = true;
      return { unit: assignment.unit, stages: [] };
    }
    if (role === 'interface' && hasInterface && assignment.stages[0]?.stage !== INTERFACE_STAGE) {
      changed = true;
      const own = assignment.stages.find((entry) => entry.stage === INTERFACE_STAGE);
      const rest = assignment.stages.filter((entry) => entry.stage !== INTERFACE_STAGE);
      return { unit: assignment.unit, stages: [{ stage: INTERFACE_STAGE, score: own?.score ?? assignment.stages[0]?.score ?? 0 }, ...rest] };
    }
    return assignment;
  });
  return changed ? placed : assignments;
}
