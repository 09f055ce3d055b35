import { readFileSync } from 'node:fs';
import { ts } from 'ts-morph';
import { type Edge, type ProgramGraphData, type Slot, type SourceFileRecord, type Unit, type UnresolvedCall } from '../../graph/model.js';
import { compareEdges, compareText } from '../../graph/order.js';
import { shortHash } from '../../graph/content-hash.js';
import { settingsChange, settingsKey } from '../analysis-settings.js';
import type { SettingsInputs } from '../settings-inputs.js';
import {
  changedNames, exportsChangedFrom, filesAffectedBy, hierarchyMoved, importStem, isChangedDeclaration, isTypeOrMember, joinSitesMoved, MentionIndex, movedNames,
  namesDeclaredMoreThanOnce, slotsRejoined, touchesPropertyNamed, WordMatcher,
} from './affected-files.js';
import { addFileUnit, collectUnits, createUnitIndex, type UnitIndex } from './collect-units.js';
import { type CompilerSetup, createCompilerSetup, type SettingsWarning } from './compiler-setup.js';
import { createProgram, type ModuleResolver, toCompilerPath } from './create-program.js';
import { annotationOf, declarationDigest, declaredNameOf, EXPORTS_ENTRY, fileOfId, hasInferredType, type DeclarationDigest } from './declaration-digest.js';
import { type DiscoveredFile, type DiscoveryResult, type FileStamp, recordSkip, sameStamp, skipReasonOf } from '../discover-files.js';
import type { AnalysisChange, AnalysisProgress, AnalyzeOptions, FileAnalysis, LanguageReport, ParseWarning } from '../analysis-types.js';
import { annotationReferenceText } from './annotation-references.js';
import { importsOfJoinSites, joinSites } from './join-sites.js';
import { MergedUnitIndex } from './merged-index.js';
import { type KeptPart, keptPart, mergeResolution, type PartialPlan, planPartialResolution } from './partial-resolution.js';
import { EdgeResolver, type FileResolution } from './resolve-edges.js';
import { decodeSource } from '../source-text.js';
import { emptyGraph, type FileRows, GraphAssembly, withRows } from '../graph-assembly.js';
import { isTestPath, lineOf, tokenTextReader } from './unit-text.js';

/** The files of TypeScript and JavaScript a discovery found, and the whole discovery (for skips). */
export interface LanguageDiscovery {
  discovery: DiscoveryResult;
  files: DiscoveredFile[];
}

/** Walks the tree once the compiler settings say which folders are build output. */
export type Discover = (buildOutputDirectories: string[]) => LanguageDiscovery;

interface LiveFile {
  path: string;
  absolute: string;
  text: string;
  record: SourceFileRecord;
  stamp: FileStamp;
  /** When the text was read: a file modified shortly before is read again next time. */
  readAt: number;
  index: UnitIndex;
  digest: DeclarationDigest;
  inferred: ReadonlySet<string>;
  /** Classes and constructors whose edges decide fields' types (an untyped field's initializer, a constructor's assignments), with those fields' names. */
  decidesFields: ReadonlyMap<string, readonly string[]>;
  warning?: ParseWarning;
  resolution?: FileResolution;
}

/** A file read for this refresh, not indexed yet. */
interface ReadFile {
  path: string;
  absolute: string;
  text: string;
  bytes: Buffer;
  stamp: FileStamp;
  readAt: number;
}

const MAX_WARNINGS = 50;

const EMPTY_RESOLUTION: FileResolution = { edges: [], unresolved: [], slots: [], externalImports: [], callSites: 0, resolvedCalls: 0 };

/**
 * Static analysis of a repository into a program graph, kept warm for the next change: no model
 * calls, nothing written to disk. `open` analyzes the tree (from scratch, or against a previous
 * analysis read from the store); `refresh` brings it up to date with the files as they are now,
 * parsing only changed files and resolving only the files whose edges can have moved. Either way
 * the graph is the one a cold analysis of the same tree gives, in the same order.
 */
export class TypeScriptSession {
  private readonly files = new Map<string, LiveFile>();
  private readonly sourceFiles = new Map<string, ts.SourceFile>();
  private program: ts.Program | undefined;
  private resolveModule: ModuleResolver | undefined;
  private heritage: Edge[] = [];
  private setup: CompilerSetup;
  private readonly mentions = new MentionIndex();
  private readonly merged = new MergedUnitIndex();
  private readonly inferredIncoming = new InferredIncoming();
  /** The graph as last assembled, kept for the next sync to change in place. */
  private readonly assembly = new GraphAssembly();

  private constructor(
    readonly root: string,
    private readonly options: AnalyzeOptions,
  ) {
    this.setup = createCompilerSetup(root);
  }

  /** A session that has read the compiler settings and analyzed nothing yet: `start` analyzes. */
  static create(root: string, options: AnalyzeOptions): TypeScriptSession {
    return new TypeScriptSession(root, options);
  }

  /**
   * Analyzes the tree; with `previous` (an analysis and the compiler settings it ran with),
   * resolves again only what changed since, unless the settings differ.
   */
  start(discover: Discover, previous?: { files: ReadonlyMap<string, FileAnalysis>; heritage: readonly Edge[]; compiler: string }): AnalysisChange {
    const reason = previous ? settingsChange(previous.compiler, this.settings) : 'first analysis';
    return this.refreshAgainst(discover, previous?.files, reason, previous?.heritage ?? []);
  }

  /** Compiler settings as analyzed: a re-sync from the store starts over when they differ. */
  get settings(): string {
    return settingsKey(this.setup);
  }

  /** What the compiler settings were read from, stored beside them. */
  get settingsInputs(): SettingsInputs {
    return this.setup.inputs;
  }

  /** Build-output folders the tsconfigs name, which discovery leaves out. */
  get outDirectories(): string[] {
    return this.setup.outDirectories;
  }

  /** The files the compiler settings were read from, absolute: an edit to any of them is a change though none is source. */
  get settingsFiles(): readonly string[] {
    return this.setup.settingsFiles;
  }

  /** Brings the analysis up to date with the tree; `full` resolves every file again (and says why). */
  refresh(discover: Discover, full?: string): AnalysisChange {
    const setup = createCompilerSetup(this.root, this.setup);
    let reason = full;
    const previous = this.fileAnalyses();
    const settingsChanged = settingsKey(setup) !== settingsKey(this.setup);
    // Taken even when it reads the same settings: its inputs (a tsconfig's whitespace, say) are what a sync stores and `status` compares.
    this.setup = setup;
    if (settingsChanged) {
      this.program = undefined;
      // Module resolution follows the settings (paths, workspace packages) as much as the file set.
      this.resolveModule = undefined;
      this.sourceFiles.clear();
      // Every file is parsed again under the new settings, so every file is indexed again: an index points into its syntax tree.
      this.files.clear();
      reason ??= 'compiler settings changed';
    }
    return this.refreshAgainst(discover, previous, reason, this.heritage);
  }

  /** Every file's analysis: for the store, and as the previous state of the next refresh. */
  fileAnalyses(): Map<string, FileAnalysis> {
    return new Map(
      [...this.files].map(([path, file]) => [
        path,
        { record: file.record, units: [...file.index.units.values()], digest: file.digest, resolution: file.resolution ?? EMPTY_RESOLUTION },
      ]),
    );
  }

  /** Every unit of the analysis, without building per-file records. */
  *units(): Iterable<Unit> {
    for (const file of this.files.values()) yield* file.index.units.values();
  }

  private refreshAgainst(discover: Discover, previous: ReadonlyMap<string, FileAnalysis> | undefined, fullReason: string | undefined, heritageBefore: readonly Edge[]): AnalysisChange {
    const progress = this.options.onProgress ?? (() => undefined);
    this.resolvedBy.clear();
    const { discovery, files: discovered } = discover(this.setup.outDirectories);

    const added: string[] = [];
    const modified: string[] = [];
    const current = new Map<string, LiveFile | ReadFile>();
    for (const found of discovered) {
      const live = this.files.get(found.path);
      // The same stamp means unchanged, unless the file was written so close to our read
      // that a second write could share its timestamps (git calls such entries racily clean).
      if (live && sameStamp(live.stamp, live.readAt, found.stamp)) {
        current.set(found.path, live);
        continue;
      }
      let bytes: Buffer;
      const readAt = Date.now();
      try {
        bytes = readFileSync(found.absolutePath);
      } catch {
        recordSkip(discovery, 'file', found.path, 'unreadable');
        continue;
      }
      const text = decodeSource(bytes);
      if (live && live.text === text) {
        live.stamp = found.stamp;
        live.readAt = readAt;
        current.set(found.path, live);
        continue;
      }
      current.set(found.path, { path: found.path, absolute: toCompilerPath(found.absolutePath), text, bytes, stamp: found.stamp, readAt });
    }

    const fileSetChanged = current.size !== this.files.size || [...current.keys()].some((path) => !this.files.has(path));
    // An edit in another language leaves every file as it was: the program and every resolution stand, and
    // building the program and its checker again would cost a sync of a mostly-Go or -Rust tree a tenth of its time.
    if (fullReason === undefined && previous && this.program && !fileSetChanged && [...current].every(([path, file]) => this.files.get(path) === file)) {
      return { added: [], modified: [], removed: [], skipped: [], resolved: 0, resolvedPaths: [], resolvedInPart: 0, unitsBefore: [], unitsAfter: [], unitCountBefore: [...previous.values()].reduce((sum, file) => sum + file.units.length, 0) };
    }
    const removed = [...this.files.keys()].filter((path) => !current.has(path));
    for (const path of removed) this.sourceFiles.delete(this.files.get(path)!.absolute);

    const texts = new Map<string, string>();
    const repoPathOf = new Map<string, string>();
    for (const [path, file] of current) {
      texts.set(file.absolute, file.text);
      repoPathOf.set(file.absolute, path);
    }
    const programFiles = [...current].filter(([path]) => !isTestPath(path)).map(([, file]) => file.absolute);
    let parsed = 0;
    const { program, resolveModule } = createProgram(
      programFiles,
      texts,
      this.setup.options,
      () => {
        parsed += 1;
        if (parsed % 25 === 0) progress({ phase: 'parse', done: parsed, total: programFiles.length });
      },
      {
        sourceFiles: this.sourceFiles,
        ...(this.program ? { oldProgram: this.program } : {}),
        ...(this.resolveModule && !fileSetChanged ? { resolveModule: this.resolveModule } : {}),
      },
    );
    progress({ phase: 'parse', done: programFiles.length, total: programFiles.length });
    this.program = program;
    this.resolveModule = resolveModule;
    // Creating the checker binds every file, which also sets the parent links the walks below rely on.
    const checker = program.getTypeChecker();

    const next = new Map<string, LiveFile>();
    let position = 0;
    for (const [path, file] of current) {
      position += 1;
      if ('index' in file) {
        next.set(path, file);
        continue;
      }
      next.set(path, this.indexFile(path, file, program));
      if (position % 50 === 0) progress({ phase: 'index', done: position, total: current.size });
    }
    progress({ phase: 'index', done: current.size, total: current.size });

    for (const [path, file] of next) {
      const before = previous?.get(path);
      if (this.files.get(path) === file) continue;
      if (before?.record.hash === file.record.hash) {
        if (!this.files.has(path)) {
          file.resolution = before.resolution;
          file.record = { ...file.record, externalImports: before.resolution.externalImports };
        }
        continue;
      }
      if (before) modified.push(path);
      else added.push(path);
    }
    const removedBefore = previous ? [...previous.keys()].filter((path) => !next.has(path)) : [];
    for (const path of [...added, ...modified]) this.mentions.update(path, next.get(path)!.text);
    for (const path of removedBefore) this.mentions.update(path, undefined);

    const index = this.merged.update(new Map([...next].map(([path, file]) => [path, file.index])));
    const resolver = new EdgeResolver({ program, checker, index, repoPathOf, resolveModule, indexOfFile: (file) => next.get(file)?.index });
    // Heritage for the whole tree every time, before any file is resolved: no rule that picks files
    // to resolve again sees a base through a default import or a global, and it is one lookup per clause.
    this.heritage = resolver.heritageOf(index.typeDeclarations, index.intersections);
    resolver.useHeritage(this.heritage);

    const changed = new Set([...added, ...modified, ...removedBefore]);
    const toResolve = new Set<string>();
    let partial = 0;
    if (fullReason !== undefined || !previous) {
      for (const path of next.keys()) toResolve.add(path);
    } else if (changed.size > 0) {
      const names = new Set<string>();
      const moved = movedNames(removedBefore.map((path) => previous.get(path)!.digest), added.map((path) => next.get(path)!.digest));
      for (const path of [...added, ...removedBefore]) {
        for (const name of changedNames(previous.get(path)?.digest, next.get(path)?.digest)) if (!moved.has(name)) names.add(name);
      }
      for (const path of modified) for (const name of changedNames(previous.get(path)?.digest, next.get(path)?.digest)) names.add(name);
      const stems = new Set(added.map(importStem));
      for (const path of changed) if (next.has(path)) toResolve.add(path);
      const textsByPath = new Map([...next].map(([path, file]) => [path, file.text]));
      const edgesBefore = (path: string): readonly Edge[] => previous.get(path)?.resolution.edges ?? [];
      const exportsChanged = exportsChangedFrom(
        changed,
        (path, when) => (when === 'before' ? previous.get(path)?.digest : next.get(path)?.digest)?.[EXPORTS_ENTRY],
        next.keys(),
        edgesBefore,
      );
      for (const path of filesAffectedBy({ changed, removed: new Set(removedBefore), names, stems, exportsChanged, texts: textsByPath, edgesOf: edgesBefore, mentions: this.mentions })) toResolve.add(path);
      // Dispatch follows the hierarchy, which an edit can move without changing a name the caller spells (an import of a base that broke).
      const rehomed = hierarchyMoved(heritageBefore, this.heritage);
      if (rehomed.size > 0) for (const path of next.keys()) if (edgesBefore(path).some((edge) => isTypeOrMember(edge.to, rehomed))) toResolve.add(path);
      // So does the slot a property of several supertypes is joined into, which no name the reader spells need show.
      const rejoined = slotsRejoined(heritageBefore, this.heritage);
      const reachesRejoined = (edge: Edge): boolean => (edge.kind === 'reads' || edge.kind === 'writes') && isTypeOrMember(edge.to, rejoined);
      if (rejoined.size > 0) for (const path of next.keys()) if (edgesBefore(path).some(reachesRejoined)) toResolve.add(path);
      // An alias or an intersection joins slots of the types it names, which no heritage edge connects (a component above that holds
      // an alias reaches past it) and the code reaching them need not spell. What a join site named before is not kept: every file
      // reaching a property of a name declared more than once, the only ones a join can take in, is resolved again.
      const kindOf = (id: string): string | undefined => index.units.get(id)?.kind ?? previous.get(fileOfId(id))?.units.find((unit) => unit.id === id)?.kind;
      const joinsMoved = [...rejoined].some((id) => kindOf(id) === 'type') || joinSitesMoved({
        changed,
        removed: new Set(removedBefore),
        exportsChanged,
        digestOf: (path, when) => (when === 'before' ? previous.get(path) : next.get(path))?.digest,
        files: next.keys(),
        siteTextOf: (path) => joinSites(next.get(path)!.index).map((node) => node.getText()).join('\n'),
        siteImportLinesOf: (path) => siteImportLines(next.get(path)!.index),
        edgesOf: edgesBefore,
      });
      const joinable = joinsMoved ? namesDeclaredMoreThanOnce([...next.values()].map((file) => file.index)) : new Set<string>();
      if (joinable.size > 0) for (const path of next.keys()) if (touchesPropertyNamed(previous.get(path)?.resolution.slots ?? [], joinable)) toResolve.add(path);
      // With the same files as before, a module resolves as before: an edit inside one unit's body needs only that unit resolved again.
      const parts = new Map<string, PartialPlan & { kept: KeptPart }>();
      // One matcher per set of names (each set is complete when asked with), not one per file: as many names as files may have changed.
      const matchers = new WeakMap<ReadonlySet<string>, WordMatcher>();
      const settled = (path: string, part: { keptText: string; kept: KeptPart }, allNames: ReadonlySet<string>, propagated: ReadonlySet<string>): boolean => {
        const units = next.get(path)!.index.units;
        const slots = new Set(part.kept.slots.map((slot) => slot.id));
        let matcher = matchers.get(allNames);
        if (!matcher) matchers.set(allNames, (matcher = new WordMatcher(allNames)));
        return !matcher.mentionedIn(part.keptText) && part.kept.edges.every((edge) =>
          !propagated.has(edge.to) && !isChangedDeclaration(edge.to, changed, allNames) && !(edge.kind === 'imports' && exportsChanged.has(edge.to)) &&
          !isTypeOrMember(edge.to, rehomed) && !reachesRejoined(edge) &&
          (fileOfId(edge.to) !== path || units.has(edge.to) || slots.has(edge.to))) && !touchesPropertyNamed(part.kept.slots, joinable);
      };
      if (!fileSetChanged && added.length === 0 && removedBefore.length === 0) {
        for (const path of modified) {
          const part = this.resolvePart(resolver, this.files.get(path), next.get(path)!, changed);
          if (!part || !settled(path, part, names, new Set())) continue;
          const file = next.get(path)!;
          file.resolution = part.resolution;
          file.record = { ...file.record, externalImports: part.resolution.externalImports };
          this.resolvedBy.add(path);
          parts.set(path, part);
        }
      }
      this.resolveAll(resolver, next, toResolve, progress);
      let followed = this.followInferredTypes(resolver, next, textsByPath, changed, names, toResolve, progress);
      // A kept part must also be clear of what the inferred types reached; where it is not, the whole file is resolved after all.
      for (let unsettled = [...parts].filter(([path, part]) => !settled(path, part, followed.names, followed.propagated)); unsettled.length > 0; ) {
        for (const [path] of unsettled) {
          parts.delete(path);
          this.resolvedBy.delete(path);
        }
        this.resolveAll(resolver, next, new Set(unsettled.map(([path]) => path)), progress);
        followed = this.followInferredTypes(resolver, next, textsByPath, changed, names, toResolve, progress);
        unsettled = [...parts].filter(([path, part]) => !settled(path, part, followed.names, followed.propagated));
      }
      partial = parts.size;
    }
    this.resolveAll(resolver, next, toResolve, progress);
    this.refreshSlotRecords(resolver, next, new Set([...added, ...modified]));

    this.files.clear();
    for (const [path, file] of next) this.files.set(path, file);
    const change: AnalysisChange = {
      added: added.sort(compareText),
      modified: modified.sort(compareText),
      removed: removedBefore.sort(compareText),
      skipped: removedBefore.flatMap((file) => {
        const reason = skipReasonOf(discovery, file);
        return reason ? [{ file, reason }] : [];
      }),
      resolved: toResolve.size,
      resolvedPaths: [...toResolve].sort(compareText),
      resolvedInPart: partial,
      unitsBefore: [...modified, ...removedBefore].flatMap((path) => previous?.get(path)?.units ?? []),
      unitsAfter: [...added, ...modified].flatMap((path) => [...next.get(path)!.index.units.values()]),
      unitCountBefore: [...(previous?.values() ?? [])].reduce((sum, file) => sum + file.units.length, 0),
    };
    if (fullReason !== undefined) change.fullReason = fullReason;
    if (fullReason !== undefined || !previous) this.assembly.changeAll();
    else this.assembly.changeFiles([...added, ...modified, ...removedBefore, ...toResolve]);
    return change;
  }

  private indexFile(path: string, file: ReadFile, program: ts.Program): LiveFile {
    const record: SourceFileRecord = {
      path,
      size: file.bytes.length,
      hash: shortHash(file.bytes),
      lines: file.text.length === 0 ? 0 : file.text.split('\n').length,
      test: isTestPath(path),
      parseErrors: 0,
      externalImports: [],
    };
    const index = createUnitIndex();
    const live: LiveFile = { path, absolute: file.absolute, text: file.text, record, stamp: file.stamp, readAt: file.readAt, index, digest: {}, inferred: new Set(), decidesFields: new Map() };
    if (record.test) {
      // Tests matter to the handbook through what they import (which tests reach a change);
      // a scan of their imports costs a fraction of a parse.
      addFileUnit(index, path, record.hash, record.lines);
      return live;
    }
    const sourceFile = program.getSourceFile(file.absolute);
    if (!sourceFile) return live;
    const diagnostics = program.getSyntacticDiagnostics(sourceFile);
    record.parseErrors = diagnostics.length;
    const first = diagnostics[0];
    if (first) {
      live.warning = {
        file: path,
        line: first.start === undefined ? 1 : lineOf(sourceFile, first.start),
        message: ts.flattenDiagnosticMessageText(first.messageText, ' '),
      };
    }
    const tokenText = tokenTextReader(sourceFile);
    collectUnits(sourceFile, path, record.hash, index, tokenText);
    for (const [unitId, words] of index.literalWords) {
      const unit = index.units.get(unitId);
      if (unit) unit.literals = [...words].join(' ');
    }
    for (const [unitId, words] of index.bodyWords) {
      const unit = index.units.get(unitId);
      if (unit) unit.words = [...words].join(' ');
    }
    live.digest = declarationDigest(index, sourceFile, tokenText);
    live.decidesFields = fieldsDecidedBy(index);
    live.inferred = new Set([...[...index.unitByDeclaration].filter(([node]) => hasInferredType(node)).map(([, id]) => id), ...live.decidesFields.keys()]);
    return live;
  }

  private resolveAll(resolver: EdgeResolver, files: Map<string, LiveFile>, paths: ReadonlySet<string>, progress: (progress: AnalysisProgress) => void): void {
    const pending = [...paths].sort(compareText).filter((path) => !this.resolvedBy.has(path));
    pending.forEach((path, position) => {
      const file = files.get(path)!;
      if (file.record.test) {
        file.resolution = resolver.resolveImportsOfText(path, file.absolute, file.text);
      } else {
        const sourceFile = this.program!.getSourceFile(file.absolute);
        file.resolution = sourceFile ? resolver.resolveFile(sourceFile, path) : EMPTY_RESOLUTION;
      }
      file.record = { ...file.record, externalImports: file.resolution.externalImports };
      this.resolvedBy.add(path);
      if (position % 10 === 0 || position === pending.length - 1) progress({ phase: 'resolve', done: position + 1, total: pending.length });
    });
  }

  /**
   * A modified file resolved only in the unit its edit lies in, the rest of its last resolution
   * kept with lines shifted; undefined when that cannot be shown to give what a whole-file
   * resolution gives (the caller also checks the kept part against the changed names).
   */
  private resolvePart(
    resolver: EdgeResolver,
    before: LiveFile | undefined,
    after: LiveFile,
    changed: ReadonlySet<string>,
  ): (PartialPlan & { kept: KeptPart; resolution: FileResolution }) | undefined {
    if (!before?.resolution?.resolvedCallLines || before.record.test || after.record.test || before.record.parseErrors > 0 || after.record.parseErrors > 0) return undefined;
    const beforeSource = sourceFileOf(before.index);
    const afterSource = this.program!.getSourceFile(after.absolute);
    if (!beforeSource || !afterSource) return undefined;
    const version = { path: before.path, text: before.text, index: before.index, sourceFile: beforeSource, resolution: before.resolution };
    const plan = planPartialResolution(version, { path: after.path, text: after.text, index: after.index, sourceFile: afterSource });
    if (!plan) return undefined;
    const kept = keptPart(version, plan);
    if (!kept) return undefined;
    const fresh = resolver.resolveDeclaration(afterSource, after.path, plan.declaration);
    const slotNow = (slot: Slot): Slot | undefined => (changed.has(slot.file) ? resolver.currentSlot(slot) : slot);
    const resolution = mergeResolution(kept, fresh, plan, slotNow);
    return resolution && { ...plan, kept, resolution };
  }

  /** Paths resolved by the current refresh's resolver. */
  private readonly resolvedBy = new Set<string>();

  /**
   * A unit without a type annotation takes its type from what it calls and reads: when that
   * changed, so may its type, and with it every use of the unit elsewhere. Followed to a fixed point.
   */
  private followInferredTypes(
    resolver: EdgeResolver,
    files: Map<string, LiveFile>,
    texts: ReadonlyMap<string, string>,
    changed: ReadonlySet<string>,
    names: ReadonlySet<string>,
    toResolve: Set<string>,
    progress: (progress: AnalysisProgress) => void,
  ): { names: ReadonlySet<string>; propagated: ReadonlySet<string> } {
    const propagated = new Set<string>();
    const allNames = new Set(names);
    const isChanged = (id: string): boolean => propagated.has(id) || isChangedDeclaration(id, changed, names);
    // Each round adds ids or names, or ends: both sets only grow, and both are finite.
    for (;;) {
      const incoming = this.inferredIncoming.update(files);
      const queue = [...incoming.keys()].filter(isChanged);
      const found: string[] = [];
      while (queue.length > 0) {
        for (const from of incoming.get(queue.pop()!) ?? []) {
          if (isChanged(from)) continue;
          propagated.add(from);
          found.push(from);
          queue.push(from);
        }
      }
      // A class or constructor reached changes the types of the fields it decides, not its own: other code meets those by their names.
      const namesOf = (id: string): readonly string[] => files.get(fileOfId(id))?.decidesFields.get(id) ?? [declaredNameOf(id)!];
      const newNames = new Set(found.flatMap(namesOf).filter((name) => name.length > 0 && !allNames.has(name)));
      // A declaration whose annotation names a changed type holds something else now (`shape: Alias` after Alias changed).
      const changedNamesMatcher = new WordMatcher(allNames);
      for (const path of toResolve) for (const name of annotatedWithChangedNames(files.get(path), allNames, changedNamesMatcher)) newNames.add(name);
      if (found.length === 0 && newNames.size === 0) return { names: allNames, propagated };
      for (const name of newNames) allNames.add(name);
      const foundIds = new Set(found);
      const mentioning = this.mentions.filesMentioningAny(newNames, texts);
      const more = new Set<string>();
      for (const [path, file] of files) {
        if (toResolve.has(path)) continue;
        if ((file.resolution?.edges ?? []).some((edge) => foundIds.has(edge.to)) || mentioning.has(path)) more.add(path);
      }
      for (const path of more) toResolve.add(path);
      this.resolveAll(resolver, files, more, progress);
    }
  }

  /**
   * A file not resolved again still reads state declared in a changed file, whose record (line,
   * type) it holds as of its last resolution: the record is taken again from the declaration.
   */
  private refreshSlotRecords(resolver: EdgeResolver, files: Map<string, LiveFile>, changed: ReadonlySet<string>): void {
    if (changed.size === 0) return;
    const current = new Map<string, Slot | undefined>();
    for (const [path, file] of files) {
      const resolution = file.resolution;
      if (!resolution || this.resolvedBy.has(path) || !resolution.slots.some((slot) => changed.has(slot.file))) continue;
      const slots = resolution.slots.map((slot) => {
        if (!changed.has(slot.file)) return slot;
        if (!current.has(slot.id)) current.set(slot.id, resolver.currentSlot(slot));
        return current.get(slot.id) ?? slot;
      });
      file.resolution = { ...resolution, slots };
    }
  }

  /** The whole graph in canonical order, assembled again only where files changed since the last. */
  graph(): ProgramGraphData {
    return this.assembly.assemble(this.files, rowsOf, (file) => (file.resolution ?? EMPTY_RESOLUTION).slots, this.heritage);
  }

  /** The rows of these files, and every heritage edge in canonical order: what an in-place update writes. */
  rowsOfFiles(paths: Iterable<string>): { files: SourceFileRecord[]; units: Unit[]; edges: Edge[]; unresolved: UnresolvedCall[]; heritage: Edge[] } {
    const files = [...paths].flatMap((path) => {
      const file = this.files.get(path);
      return file ? [rowsOf(file)] : [];
    });
    const rows = withRows(emptyGraph(), files);
    return { files: rows.files, units: rows.units, edges: rows.edges, unresolved: rows.unresolved, heritage: [...this.heritage].sort(compareEdges) };
  }

  /** This language's share of the analysis, and the first parse warnings (at most MAX_WARNINGS, in file order). */
  report(): LanguageReport {
    const warnings: ParseWarning[] = [];
    let callSites = 0;
    let resolvedCalls = 0;
    for (const file of this.files.values()) {
      if (file.warning && warnings.length < MAX_WARNINGS) warnings.push(file.warning);
      callSites += file.resolution?.callSites ?? 0;
      resolvedCalls += file.resolution?.resolvedCalls ?? 0;
    }
    return {
      statistics: { language: 'typescript', files: this.files.size, callSites, resolvedCalls, resolvedBy: { checker: resolvedCalls, scope: 0, name: 0 } },
      warnings: warnings.sort((a, b) => compareText(a.file, b.file)),
    };
  }

  /** The tsconfigs read and what was wrong with them, for the build's report. */
  get compilerReport(): { tsconfigs: string[]; settingsProblems: SettingsWarning[] } {
    return { tsconfigs: this.setup.tsconfigs, settingsProblems: this.setup.settingsProblems };
  }

  /** How many files the session holds. */
  get fileCount(): number {
    return this.files.size;
  }

  /** Every heritage edge, for the whole language. */
  get heritageEdges(): readonly Edge[] {
    return this.heritage;
  }
}

/** Names declared in a file with a type annotation that refers to one of `names` (as `matcher` finds them), past the names it declares itself. */
function annotatedWithChangedNames(file: LiveFile | undefined, names: ReadonlySet<string>, matcher: WordMatcher): string[] {
  if (!file || file.record.test) return [];
  const found: string[] = [];
  const check = (name: string | undefined, node: ts.Node): void => {
    if (!name || names.has(name)) return;
    const annotation = annotationOf(node);
    if (annotation && matcher.mentionedIn(annotationReferenceText(annotation))) found.push(name);
  };
  for (const { name, node } of file.index.memberDeclarations) check(name, node);
  for (const [node, id] of file.index.unitByDeclaration) check(declaredNameOf(id), node);
  return found;
}

/**
 * The units whose edges decide field types: a class, for its fields with neither type nor a
 * function as initializer (the class unit holds the initializers' edges); a constructor, for the
 * fields with neither type nor initializer (their type comes from its assignments).
 */
function fieldsDecidedBy(index: UnitIndex): Map<string, string[]> {
  const decided = new Map<string, string[]>();
  for (const [node, id] of index.unitByDeclaration) {
    const owner = ts.isClassLike(node) ? node : ts.isConstructorDeclaration(node) ? node.parent : undefined;
    if (!owner || !ts.isClassLike(owner)) continue;
    const names = owner.members.flatMap((member) => {
      if (!ts.isPropertyDeclaration(member) || member.type || !(ts.isIdentifier(member.name) || ts.isPrivateIdentifier(member.name))) return [];
      const initializer = member.initializer;
      const decides = ts.isConstructorDeclaration(node)
        ? !initializer
        : initializer !== undefined && hasInferredType(member) && !ts.isArrowFunction(initializer) && !ts.isFunctionExpression(initializer);
      return decides ? [member.name.text] : [];
    });
    if (names.length > 0) decided.set(id, names);
  }
  return decided;
}

/** The lines each import statement a file's join sites spell a name of stands on, first to last. */
function siteImportLines(index: UnitIndex): Array<readonly [number, number]> {
  const sourceFile = sourceFileOf(index);
  if (!sourceFile) return [];
  return importsOfJoinSites(joinSites(index), sourceFile).map((statement) => [lineOf(sourceFile, statement.getStart(sourceFile)), lineOf(sourceFile, statement.end)] as const);
}

/** The syntax tree an index was collected from: the file unit's declaration. */
function sourceFileOf(index: UnitIndex): ts.SourceFile | undefined {
  for (const node of index.unitByDeclaration.keys()) if (ts.isSourceFile(node)) return node;
  return undefined;
}

/**
 * Who each declaration's inferred-type dependents are: `to` → the unannotated units with an edge
 * into it, over every file, kept across refreshes and updated for the files whose resolution moved.
 */
class InferredIncoming {
  private readonly incoming = new Map<string, string[]>();
  private readonly contributed = new Map<string, readonly Edge[]>();

  update(files: ReadonlyMap<string, LiveFile>): ReadonlyMap<string, readonly string[]> {
    for (const [path, edges] of this.contributed) {
      const file = files.get(path);
      if (file && inferredEdgesOf(file) === edges) continue;
      for (const edge of edges) {
        const list = this.incoming.get(edge.to)!;
        list.splice(list.indexOf(edge.from), 1);
        if (list.length === 0) this.incoming.delete(edge.to);
      }
      this.contributed.delete(path);
    }
    for (const [path, file] of files) {
      if (this.contributed.has(path)) continue;
      const edges = inferredEdgesOf(file);
      for (const edge of edges) {
        const list = this.incoming.get(edge.to);
        if (list) list.push(edge.from);
        else this.incoming.set(edge.to, [edge.from]);
      }
      this.contributed.set(path, edges);
    }
    return this.incoming;
  }
}

const inferredEdges = new WeakMap<FileResolution, readonly Edge[]>();

/** The edges of a file's units without a type annotation (imports and self-edges aside): what their inferred types follow. Kept per resolution. */
function inferredEdgesOf(file: LiveFile): readonly Edge[] {
  const resolution = file.resolution;
  if (!resolution) return [];
  let edges = inferredEdges.get(resolution);
  if (!edges) {
    edges = file.inferred.size === 0 ? [] : resolution.edges.filter((edge) => edge.kind !== 'imports' && edge.from !== edge.to && file.inferred.has(edge.from));
    inferredEdges.set(resolution, edges);
  }
  return edges;
}

function rowsOf(file: LiveFile): FileRows {
  const resolution = file.resolution ?? EMPTY_RESOLUTION;
  return { record: file.record, units: [...file.index.units.values()], edges: resolution.edges, unresolved: resolution.unresolved };
}

