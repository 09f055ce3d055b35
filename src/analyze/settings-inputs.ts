import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { type FolderListings, listFolder } from './discover-files.js';

// Apart from the compiler setup, so `status` can tell the settings unchanged without loading the compiler.

const SEARCH_DEPTH = 5;
const NOT_SEARCHED = new Set(['node_modules', '.git', '.handbook', 'dist', 'build', 'out', 'coverage', 'vendor', 'third_party']);

/**
 * The compiler that turns the files into settings: another release may read the same files into
 * other settings (new defaults, new options), so its version is an input too. Read from its package
 * manifest, which loads no compiler.
 */
const COMPILER_VERSION: string = (createRequire(import.meta.url)('@ts-morph/common/package.json') as { version: string }).version;

/** Folder listings kept across setups: a sync looks for tsconfigs every time, and most folders never change. */
const listings: FolderListings = new Map();

/** The tsconfig and package.json files the compiler settings are looked for in, absolute, in walk order. */
export function findConfigFiles(root: string): { tsconfigs: string[]; packageJsons: string[] } {
  const tsconfigs: string[] = [];
  const packageJsons: string[] = [];
  const walk = (directory: string, depth: number): void => {
    const stats = statSync(directory, { throwIfNoEntry: false });
    for (const entry of (stats && listFolder(directory, stats, listings)) || []) {
      const full = path.join(directory, entry.name);
      if (entry.isFile() && entry.name === 'tsconfig.json') tsconfigs.push(full);
      else if (entry.isFile() && entry.name === 'package.json') packageJsons.push(full);
      else if (entry.isDirectory() && depth < SEARCH_DEPTH && !NOT_SEARCHED.has(entry.name) && !entry.name.startsWith('.'))
        walk(full, depth + 1);
    }
  };
  walk(root, 0);
  return { tsconfigs, packageJsons };
}

/**
 * What the compiler settings were read from, stored with a handbook. The settings are a function
 * of the config files found and the text of every file read (a tsconfig's `extends` chain may
 * leave the tree), so while the digest of those stands, the settings read now are the stored ones.
 */
export const settingsInputsSchema = z.object({
  /** Every file read, from the root (`..` for one outside it), sorted. */
  files: z.array(z.string()),
  /** sha256 of the compiler's version, the config files found and each read file's text, or of its absence. */
  digest: z.string(),
});

export type SettingsInputs = z.infer<typeof settingsInputsSchema>;

/** The inputs of a setup from the files it found and the text it read of each (undefined: missing), for this compiler. */
export function settingsInputsOf(root: string, found: readonly string[], read: ReadonlyMap<string, string | undefined>, compiler = COMPILER_VERSION): SettingsInputs {
  const relative = (file: string): string => path.relative(root, file).split(path.sep).join('/');
  const texts = [...read].map(([file, text]) => [relative(file), text ?? null] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const digest = createHash('sha256').update(JSON.stringify({ compiler, found: found.map(relative), texts })).digest('hex');
  return { files: texts.map(([file]) => file), digest };
}

/** The inputs as the tree holds them now: the config files found by the same walk, and `files` read again. */
export function settingsInputsNow(root: string, files: readonly string[]): SettingsInputs {
  const { tsconfigs, packageJsons } = findConfigFiles(root);
  const read = new Map(files.map((file) => path.resolve(root, file)).map((file) => [file, textOrUndefined(file)]));
  return settingsInputsOf(root, [...tsconfigs, ...packageJsons], read);
}

function textOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // Missing or unreadable: the setup records no text of such a file either.
    return undefined;
  }
}
