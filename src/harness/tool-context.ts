import type { ProgramGraph } from '../graph/program-graph.js';
import type { LiveResolver } from '../locate/live-resolver.js';
import type { LiveSourceReader } from '../locate/live-source.js';
import type { OrganizedHandbook, RegisterEntry } from '../organize/model.js';
import type { ExitCriteriaVerifier } from './exit-criteria.js';
import type { ImportProblem } from './import-check.js';
import type { ProcessGroupRecorder } from './process-groups.js';
import type { ReadLedger } from './read-ledger.js';
import type { CommandOutcome } from './run-shell-command.js';
import type { ExitCheck } from './task.js';
import type { Workspace } from './workspace.js';

/** One place the handbook's router found for a request. */
export interface SearchHit {
  file: string;
  symbol: string;
  line: number;
  endLine: number;
  /** The content hash of the code as it stands now, as ask gives it: what a plan cites with file and symbol; absent when the search knows none. */
  hash?: string;
  stage?: string;
  why?: string;
}

export type SearchFunction = (query: string, limit: number) => Promise<SearchHit[]>;

/** A built handbook as the planner's navigation tools read it: the program graph, the stages, the state register and the live files. */
export interface HandbookView {
  graph: ProgramGraph;
  organized: OrganizedHandbook;
  register: readonly RegisterEntry[];
  /** The repository's files as the handbook's build reads them now: what `entry` takes its locators from. */
  readSource: LiveSourceReader;
  /**
   * The shared live resolver over this handbook, as ask and the MCP tools use it, so `entry` follows
   * a moved unit as they do. A new one per answer: a resolver reads each file once, and an answer
   * must see the disk as it is when asked.
   */
  liveResolver: () => LiveResolver;
}

/** What tools may see and change of a running task; the loop owns it and hands it to every call. */
export interface ToolContext {
  workspace: Workspace;
  ledger: ReadLedger;
  verifier: ExitCriteriaVerifier;
  /** Bumps on every write, so check results and reads from before it are known to be old. */
  readonly version: number;
  /** Called after a tool changed the workspace (a file, or anything a command may have touched). */
  noteWrite(file?: string): void;
  /** Files this task created, which count as existing for the import check before they are on disk. */
  createdFiles: ReadonlySet<string>;
  findHallucinatedImports(file: string, oldText: string | undefined, newText: string): ImportProblem[];
  /** The handbook's router; absent when the repository has no handbook. */
  search: SearchFunction | undefined;
  /** The handbook the navigation tools read; only a planner run over a built handbook has one. */
  handbook?: HandbookView;
  /** Reports a check that ran, for the event stream. */
  onCheck(check: ExitCheck, outcome: CommandOutcome): void;
  commandTimeoutMs: number;
  /** Where commands write down their process groups while they run; without it they are not written down. */
  processGroups?: ProcessGroupRecorder;
  maxWriteBytes: number;
  /** The operation id of the call running now, when it is tracked: the journal tags its writes with it. */
  operationId: string | undefined;
  /**
   * Records a write in the repository's journal (the previous bytes or their absence, and the
   * new ones) before the write happens, so it can be rolled back; write tools call it last,
   * after every check passed.
   */
  journalWrite(change: { kind: 'write' | 'create' | 'delete'; path: string; before: Buffer | null; after: Buffer | null }): Promise<void>;
}
