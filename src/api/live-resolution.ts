import { discoverFiles, type DiscoveryResult } from '../analyze/discover-files.js';
import { LiveResolver } from '../locate/live-resolver.js';
import { type LiveSourceOptions, type LiveSourceReader, liveSourceReader } from '../locate/live-source.js';
import type { FileHash } from '../graph/model.js';
import { handbookSettingsSchema } from './handbook-settings.js';
import type { Handbook } from './open-handbook.js';

/** What judging a handbook against the live tree needs of it: its repository and how it was built. */
type BuiltHandbook = Pick<Handbook, 'root' | 'generation'>;

/** The discovery options the handbook was built with, so the live tree is seen as a build would see it. */
function discoveryOptionsOf(handbook: BuiltHandbook): LiveSourceOptions {
  const parsed = handbookSettingsSchema.safeParse(handbook.generation.settings);
  if (!parsed.success) return {};
  return {
    ...(parsed.data.include ? { include: parsed.data.include } : {}),
    ...(parsed.data.maxFileBytes === undefined ? {} : { maxFileBytes: parsed.data.maxFileBytes }),
    buildOutputDirectories: parsed.data.outDirectories,
  };
}

/** What a build of this handbook would analyze now and what it would leave out; the tree is walked on the first call only. */
export function sourceDiscoveryOf(handbook: BuiltHandbook): () => DiscoveryResult {
  let discovery: DiscoveryResult | undefined;
  return () => (discovery ??= discoverFiles(handbook.root, discoveryOptionsOf(handbook)));
}

/** The repository's files as a build of this handbook would read them now. */
export function liveSourceOf(handbook: BuiltHandbook): LiveSourceReader {
  return liveSourceReader(handbook.root, discoveryOptionsOf(handbook));
}

/**
 * The one way a reader resolves a handbook's entries against the live tree, so ask, status, the
 * MCP tools and the viewer agree on what is fresh, changed, moved or frozen. The compiler is loaded
 * only when a changed file must be parsed, and the tree walked only when a unit is gone.
 */
export function liveResolverOf(handbook: Handbook, discovered = sourceDiscoveryOf(handbook)): LiveResolver {
  return resolverOver(handbook.graph.toData().files, liveSourceOf(handbook), discovered);
}

/**
 * The same resolver for one pass over every file the build recorded (status), which loads no
 * graph: each folder on the way is judged once for the pass, not once for every file under it.
 */
export function onePassResolverOf(handbook: BuiltHandbook, files: readonly FileHash[], discovered = sourceDiscoveryOf(handbook)): LiveResolver {
  return resolverOver(files, liveSourceReader(handbook.root, discoveryOptionsOf(handbook), new Map()), discovered);
}

function resolverOver(files: readonly FileHash[], read: LiveSourceReader, discovered: () => DiscoveryResult): LiveResolver {
  return new LiveResolver(
    files,
    read,
    async (file, source) => (await import('../analyze/parse-live-file.js')).parseLiveFile(file, source),
    () => discovered().files.map((file) => file.path),
  );
}
