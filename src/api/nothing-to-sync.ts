import { storedSettingsStand } from '../analyze/analysis-settings.js';
import type { FileHash } from '../graph/model.js';
import { describeProject, type ProjectDescription } from '../organize/overview.js';
import type { GenerationInfo } from '../store/generations.js';
import { handbookSettingsSchema } from './handbook-settings.js';
import { onePassResolverOf, sourceDiscoveryOf } from './live-resolution.js';

/** What a sync compares the tree with, read from the store in one transaction. */
export interface StoredTree {
  generation: GenerationInfo;
  /** Every file the generation holds, with the hash of the bytes it was analyzed from. */
  files: readonly FileHash[];
  /** The project as the stored overview describes it. */
  project: ProjectDescription;
}

/**
 * Whether a sync of the tree at `root` would find nothing changed, told by the checks `status`
 * makes and without parsing a file or loading the compiler: every stored file still holds the
 * bytes it was analyzed from, a sync would analyze exactly those files (none new, gone or left
 * out now), the compiler settings were read from files that read as they did, by this version of
 * the analyzer, and package.json and the README describe the project as the overview does. False
 * as soon as one check fails or cannot tell without the compiler: the full sync then decides.
 */
export function nothingToSync(root: string, stored: StoredTree): boolean {
  const settings = handbookSettingsSchema.safeParse(stored.generation.settings);
  if (!settings.success || !storedSettingsStand(root, settings.data.compiler, settings.data.compilerInputs)) return false;
  const project = describeProject(root);
  if (project.title !== stored.project.title || project.description !== stored.project.description) return false;
  const handbook = { root, generation: stored.generation };
  const resolver = onePassResolverOf(handbook, stored.files);
  if (!stored.files.every((file) => resolver.unchangedSinceBuild(file.path))) return false;
  // The walk a sync makes: with every stored file found, the same count means no file is new.
  const found = sourceDiscoveryOf(handbook)().files;
  const recorded = new Set(stored.files.map((file) => file.path));
  return found.length === recorded.size && found.every((file) => recorded.has(file.path));
}
