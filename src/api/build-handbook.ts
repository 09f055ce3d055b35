import { assertIncludeFolders } from '../analyze/include-folders.js';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { HandbookError } from '../errors.js';
import type { ChatProvider } from '../llm/chat-types.js';
import type { CreateProviderOptions } from '../llm/create-provider.js';
import { loadSkeleton } from '../organize/skeleton.js';
import { fileIdentity, identityChange } from '../store/file-identity.js';
import { currentGeneration } from '../store/generations.js';
import { assertHandbookOf } from '../store/handbook-repository.js';
import { databasePathFor, openDatabase, peekHandbookFile } from '../store/open-database.js';
import type { BuildSummary } from './build-summary.js';
import { currentCommit } from './git-commit.js';
import type { HandbookSettings } from './handbook-settings.js';
import { type BuildProgress, storeAnalysis } from './store-analysis.js';

export type { BuildProgress } from './store-analysis.js';

export interface BuildOptions {
  /** Where the database lives; `<root>/.handbook/handbook.db` by default. */
  database?: string;
  maxFileBytes?: number;
  /** Folders (relative to the repository) to analyze instead of all of it. */
  include?: string[];
  /** A skeleton file (`--skeleton stages.json`) that replaces or extends the built-in stages. */
  skeleton?: string;
  /** `offline` (default) or a model spec: `anthropic:MODEL`, `openai:MODEL`, `openai-compatible:MODEL@URL`. */
  model?: string;
  /** Keys, base URL and retry settings for the model provider; the environment by default. */
  provider?: CreateProviderOptions;
  onProgress?: (progress: BuildProgress) => void;
}

/** The model provider a build or sync needs, or none for the offline stager; a missing key is reported before any work. */
export async function providerFor(model: string, options: CreateProviderOptions | undefined): Promise<ChatProvider | undefined> {
  if (model === 'offline') return undefined;
  // The model SDKs load only for a model: an offline build or a query never pays for them.
  return (await import('../llm/create-provider.js')).createProvider(model, options);
}

/**
 * Analyzes the repository, places its units in stages and stores the result as the handbook's
 * new current generation. The previous generation stays readable until the new one is complete.
 */
export async function buildHandbook(root: string, options: BuildOptions = {}): Promise<BuildSummary> {
  const started = performance.now();
  const absoluteRoot = assertRepositoryRoot(root);
  assertIncludeFolders(absoluteRoot, options.include);
  // Checked here, not only by the CLI: a cap the store's settings cannot hold would turn every later sync away.
  if (options.maxFileBytes !== undefined && !(Number.isSafeInteger(options.maxFileBytes) && options.maxFileBytes > 0))
    throw new HandbookError('INVALID_INPUT', `maxFileBytes must be a positive whole number of bytes, not ${options.maxFileBytes}`, 'pass a size such as 1000000');
  const databasePath = databasePathFor(absoluteRoot, options.database);
  // Before any work: a build would write into another application's database, or replace another repository's handbook.
  const builtFor = peekHandbookFile(databasePath, (database) => currentGeneration(database)?.root);
  if (builtFor !== undefined) assertHandbookOf(absoluteRoot, databasePath, builtFor);
  const skeleton = loadSkeleton(options.skeleton);
  const model = options.model ?? 'offline';
  const provider = await providerFor(model, options.provider);
  // The compiler loads only for a build or sync: a query never pays for it.
  const { AnalysisSession } = await import('../analyze/analysis-session.js');
  const { session } = AnalysisSession.open(absoluteRoot, {
    ...(options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes }),
    ...(options.include ? { include: options.include } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const settings: HandbookSettings = {
    ...(options.include ? { include: options.include } : {}),
    ...(options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes }),
    skeleton,
    model,
    compiler: session.settings,
    compilerInputs: session.settingsInputs,
    outDirectories: session.outDirectories,
  };
  const database = openDatabase(databasePath, 'create');
  const databaseFile = fileIdentity(databasePath);
  try {
    const stored = await storeAnalysis({
      database,
      databasePath,
      session,
      settings,
      commit: currentCommit(absoluteRoot),
      ...(provider ? { provider } : {}),
      started,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      assertInPlace: () => {
        const lost = identityChange(databasePath, databaseFile);
        if (lost) throw new HandbookError('NO_HANDBOOK', `the handbook database ${databasePath} was ${lost} while the build ran, so nothing was stored`, 'run `handbook build` again');
      },
    });
    return stored.summary;
  } finally {
    database.close();
  }
}
