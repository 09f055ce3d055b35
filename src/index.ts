export { buildHandbook, type BuildOptions, type BuildProgress } from './api/build-handbook.js';
export { openHandbook, type Handbook } from './api/open-handbook.js';
export type { BuildSummary } from './api/build-summary.js';
export { analyzeRepository, type AnalysisResult, type AnalyzeOptions, type AnalysisProgress } from './analyze/analyze-repository.js';
export { ProgramGraph, type Neighbour, type StateAccess } from './graph/program-graph.js';
export * from './graph/model.js';
export { HandbookError, type ErrorCode } from './errors.js';
