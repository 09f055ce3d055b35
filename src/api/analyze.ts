import type { AnalysisResult, AnalyzeOptions } from '../analyze/analyze-repository.js';

/** Static analysis of a repository into a program graph; the compiler loads on first use, not on import. */
export async function analyzeRepository(root: string, options: AnalyzeOptions = {}): Promise<AnalysisResult> {
  return (await import('../analyze/analyze-repository.js')).analyzeRepository(root, options);
}
