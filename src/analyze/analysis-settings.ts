import type { CompilerSetup } from './typescript/compiler-setup.js';
import { type SettingsInputs, settingsInputsNow } from './settings-inputs.js';

// Apart from the session and the compiler, so `status` can compare settings without loading either while nothing changed.

/**
 * What the analysis records of code that has not changed (unit fields, body words, edges):
 * bumped when that changes, so a handbook stored by an earlier version is analyzed again whole
 * on its next sync instead of keeping the old records of every file the sync does not touch.
 */
const ANALYSIS_VERSION = 22;

/** The settings as stored with the analysis; free of absolute paths, so it still matches after the repository moves. */
export function settingsKey(setup: CompilerSetup): string {
  const options = { ...setup.options, paths: setup.rootRelativePaths };
  // Folder entries only where a package.json has any, so a handbook stored before they were keyed still matches without them.
  const folderEntries = Object.keys(setup.folderEntries).length > 0 ? { folderEntries: setup.folderEntries } : {};
  return JSON.stringify({ analysis: ANALYSIS_VERSION, options, tsconfigs: setup.tsconfigs, outDirectories: setup.outDirectories, ...folderEntries });
}

const ANOTHER_VERSION = 'the handbook was analyzed by another version of harness-handbook';

/** Why a stored analysis made under `previous` settings cannot be carried forward under `current` ones. */
export function settingsChange(previous: string, current: string): string | undefined {
  if (previous === current) return undefined;
  return analysisVersionOf(previous) === ANALYSIS_VERSION ? 'compiler settings changed' : ANOTHER_VERSION;
}

function analysisVersionOf(settings: string): unknown {
  try {
    return (JSON.parse(settings) as { analysis?: unknown }).analysis;
  } catch {
    return undefined;
  }
}

/**
 * Why a sync from the store would analyze everything again: the settings read from the tree now
 * (tsconfigs, workspace manifests, this analyzer's version) against the ones stored with the
 * handbook; undefined while they match. `status` asks it, so it calls stale what a sync redoes.
 * While the files the stored settings were read from read as they did (`inputs`, stored beside
 * them), the settings read now are the stored ones, and the compiler is not loaded to read them.
 */
export async function compilerSettingsChange(root: string, stored: string, inputs?: SettingsInputs): Promise<string | undefined> {
  if (settingsInputsStand(root, inputs)) return analysisVersionOf(stored) === ANALYSIS_VERSION ? undefined : ANOTHER_VERSION;
  const { createCompilerSetup } = await import('./typescript/compiler-setup.js');
  return settingsChange(stored, settingsKey(createCompilerSetup(root)));
}

/**
 * Whether the stored settings are the ones a sync would analyze with, told without the compiler:
 * false both when they changed and when telling would take the compiler (a settings file edited,
 * or no inputs stored).
 */
export function storedSettingsStand(root: string, stored: string, inputs?: SettingsInputs): boolean {
  return settingsInputsStand(root, inputs) && analysisVersionOf(stored) === ANALYSIS_VERSION;
}

/** Whether every file the settings were read from reads as it did, and no config file came or went. */
function settingsInputsStand(root: string, inputs: SettingsInputs | undefined): boolean {
  return inputs !== undefined && settingsInputsNow(root, inputs.files).digest === inputs.digest;
}
