import { assertIncludeFolders } from './include-folders.js';
import { assertRepositoryRoot } from './repository-root.js';
import { AnalysisSession, type AnalysisResult, type AnalyzeOptions } from './analysis-session.js';

export type { AnalysisPhase, AnalysisProgress, AnalysisResult, AnalysisStatistics, AnalyzeOptions, ParseWarning } from './analysis-session.js';

/**
 * Static analysis of a repository into a program graph: no model calls, nothing written to
 * disk. The result is deterministic: the same tree gives the same graph, in the same order.
 */
export function analyzeRepository(root: string, options: AnalyzeOptions = {}): AnalysisResult {
  const absoluteRoot = assertRepositoryRoot(root);
  assertIncludeFolders(absoluteRoot, options.include);
  return AnalysisSession.open(absoluteRoot, options).session.result();
}
