import { liveLinesOf, linesPhrase, shortName } from '../index.js';
import type { AskResult, Behavior, StatusReport, SyncSummary, BuildSummary, WatchEvent, Neighbour, LiveDeclaration, OrganizedHandbook, Overview, RegisterEntry, SkippedFile, Slot, Stage, StateAccess, Unit } from '../index.js';
import { declarationText, linesText, liveOf, nameNote, type Placed, placeText, spanText, startText } from './live-places.js';

function counts(record: Partial<Record<string, number>>): string {
  const parts = Object.entries(record)
    .filter(([, value]) => (value ?? 0) > 0)
    .map(([key, value]) => `${key} ${value}`);
  return parts.length > 0 ? parts.join(' · ') : 'none';
}

function total(record: Record<string, number>): number {
  return Object.values(record).reduce((sum, value) => sum + value, 0);
}

export function formatSummary(summary: BuildSummary, heading: string): string {
  const calls = summary.calls;
  const share = (calls.resolvedShare * 100).toFixed(1);
  const lines = [
    `${heading} ${summary.root}`,
    `  generation ${summary.generation}${summary.commit ? `, commit ${summary.commit.slice(0, 12)}` : ', not a git checkout'}`,
    `  files      ${summary.files} analyzed; skipped files: ${counts(summary.skipped)}; skipped folders: ${counts(summary.skippedDirectories)}`,
    `  units      ${total(summary.units)}: ${counts(summary.units)}`,
    `  edges      ${total(summary.edges)}: ${counts(summary.edges)}`,
    `  calls      ${calls.sites} call ${calls.sites === 1 ? 'site' : 'sites'}: ${calls.resolved} resolved to repository code (${share}% of the ${calls.sites - calls.external} that are not external), ${calls.external} external, ${calls.dynamic} dynamic, ${calls.unknown} unknown`,
    ...languageLines(summary),
    `  state      ${summary.slots} slots, ${summary.registerSlots} shared across units`,
    `  stages     ${summary.stages.length} by the ${summary.stager.kind === 'offline' ? 'offline stager (deterministic, no model)' : `llm stager (${summary.stager.model})`}: ${summary.assigned} units placed, ${summary.unassigned} unassigned`,
  ];
  if (summary.model) {
    const use = summary.model;
    lines.push(`  model      ${use.calls} calls to ${use.model}; ${use.cachedUnits} units answered from the cache; ${use.fallbackUnits} units, ${use.fallbackSummaries} summaries and ${use.fallbackBehaviorNames ?? 0} behaviour names left to the offline stager; ${use.rejected.length} answers rejected${use.rejected[0] ? ` (first: ${use.rejected[0]})` : ''}`);
  }
  lines.push(...parseWarningLines(summary));
  const unread = summary.settingsProblems ?? [];
  if (unread.length > 0) {
    lines.push(`  settings   ${unread.length} settings file(s) read with problems, so import paths or packages they declare may be missing; first: ${unread[0]!.file}: ${unread[0]!.message}`);
  }
  lines.push(`  time       ${(summary.durationMs / 1000).toFixed(2)} s`);
  return lines.join('\n');
}

/**
 * Calls per language, and how each language's were resolved, once a language other than
 * TypeScript is read: for TypeScript alone the calls line says it all (the checker resolved them).
 */
function languageLines(summary: BuildSummary): string[] {
  const languages = summary.languages ?? [];
  if (!languages.some((language) => language.language !== 'typescript')) return [];
  return languages.map((language) => {
    const how = [
      language.resolvedBy.checker > 0 ? `${language.resolvedBy.checker} by the type checker` : '',
      language.resolvedBy.scope > 0 ? `${language.resolvedBy.scope} by scope and imports` : '',
      language.resolvedBy.name > 0 ? `${language.resolvedBy.name} by name alone` : '',
    ].filter((part) => part !== '');
    return `  ${language.language.padEnd(10)} ${language.files} files, ${language.sites} call sites: ${language.resolved} resolved${how.length > 0 ? ` (${how.join(', ')})` : ''}, ${language.external} external, ${language.dynamic} dynamic, ${language.unknown} unknown`;
  });
}

/** The files the analysis read only in part: a sync reports them as a build does, or a syntax error just typed would pass unseen. */
function parseWarningLines(summary: BuildSummary): string[] {
  const first = summary.parseWarnings[0];
  if (first === undefined) return [];
  return [`  warnings   ${summary.parseWarnings.length} file(s) with syntax errors, analyzed partially; first: ${first.file}:${first.line} ${first.message}`];
}

/** How many callers and how many callees `graph show` names. */
const NEIGHBOURS_NAMED = 8;

/** The units formatUnit prints: the unit, and the callers and callees it names; only these are resolved. */
export function graphShowUnits(unit: Unit, callers: readonly Neighbour[], callees: readonly Neighbour[]): string[] {
  return [unit.id, ...[...callers.slice(0, NEIGHBOURS_NAMED), ...callees.slice(0, NEIGHBOURS_NAMED)].map((neighbour) => neighbour.unit.id)];
}

/** The unit at its lines now; its callers and callees by name, noted when their code changed, moved or is gone. */
export function formatUnit(unit: Unit, callers: Neighbour[], callees: Neighbour[], placed: Placed): string {
  const names = (list: Neighbour[]): string =>
    list.length === 0 ? '' : `: ${list.slice(0, NEIGHBOURS_NAMED).map((neighbour) => `${neighbour.unit.id}${nameNote(neighbour.unit.id, placed)}`).join(', ')}${list.length > NEIGHBOURS_NAMED ? ', …' : ''}`;
  const lines = [
    `${unit.id}  (${unit.kind}${unit.exported ? ', exported' : ''})`,
    `  at         ${spanText(unit, liveOf(unit, placed))}`,
    `  signature  ${unit.signature}`,
  ];
  if (unit.doc) lines.push(`  doc        ${unit.doc}`);
  lines.push(`  hash       ${unit.hash}`);
  lines.push(`  callers    ${callers.length}${names(callers)}`);
  lines.push(`  callees    ${callees.length}${names(callees)}`);
  return lines.join('\n');
}

/**
 * Callers are shown at their call site (a line in the caller's code); callees at their own
 * declaration, with the line of the call in the unit asked about. Each line is where it stands now:
 * a call moves with the code it lies in, and has no line once that code changed or is gone.
 */
export function formatNeighbours(unit: Unit, neighbours: Neighbour[], direction: 'callers' | 'callees', placed: Placed): string {
  const title = `${direction} of ${unit.id}${nameNote(unit.id, placed)}`;
  if (neighbours.length === 0) return `${title}: none`;
  const rows = neighbours.map((neighbour) => {
    const live = liveOf(neighbour.unit, placed);
    const calls = direction === 'callees' ? liveLinesOf(neighbour.lines, unit, liveOf(unit, placed)) : undefined;
    const at = direction === 'callers' ? linesText(neighbour.lines, neighbour.unit, live) : `${startText(neighbour.unit, live)}${calls ? `  (called at ${linesPhrase(calls)})` : ''}`;
    return `  ${neighbour.unit.id}  ${at}${neighbour.via === 'dispatch' ? '  (through an interface or override)' : ''}`;
  });
  return [`${title}: ${neighbours.length}`, ...rows].join('\n');
}

/** A slot where it is declared now, its writers and readers at the lines of their writes and reads now. */
export function formatSlot(slot: Slot, declared: LiveDeclaration, writers: StateAccess[], readers: StateAccess[], placed: Placed): string {
  const access = (list: StateAccess[]): string[] => list.map(({ unit, lines }) => `    ${unit.id}  ${linesText(lines, unit, liveOf(unit, placed))}`);
  return [
    `${slot.id}  (${slot.kind}${slot.type ? `: ${slot.type}` : ''})`,
    `  declared   ${declarationText(slot, declared)}`,
    `  writers    ${writers.length}`,
    ...access(writers),
    `  readers    ${readers.length}`,
    ...access(readers),
  ].join('\n');
}

/** Short names, except where two of the list share one (every extension's `default`): those keep their file. */
function distinctNames(ids: readonly string[]): string[] {
  const count = new Map<string, number>();
  for (const id of ids) count.set(shortName(id), (count.get(shortName(id)) ?? 0) + 1);
  return ids.map((id) => ((count.get(shortName(id)) ?? 0) > 1 ? id : shortName(id)));
}

/** distinctNames, each with a note when its code changed, moved or is gone since the build. */
function notedNames(ids: readonly string[], placed: Placed): string[] {
  const names = distinctNames(ids);
  return ids.map((id, index) => `${names[index]}${nameNote(id, placed)}`);
}

/** The entry points the overview names; only these are resolved, so a large repository's overview stays quick. */
export function overviewEntryPoints(overview: Overview): string[] {
  return overview.entryPoints.slice(0, 6);
}

function stagerLine(organized: OrganizedHandbook): string {
  return organized.stager.kind === 'offline' ? 'stages by the offline stager (deterministic, no model)' : `stages by the llm stager (${organized.stager.model})`;
}


export function formatOverview(organized: OrganizedHandbook, placed: Placed): string {
  const overview = organized.overview;
  const lines = [overview.title, ...(overview.description ? [`  ${overview.description}`] : []), `  ${stagerLine(organized)}`, ''];
  for (const stage of organized.stages) lines.push(`  ${String(stage.position + 1).padStart(2)}. ${stage.id.padEnd(20)} ${String(stage.members.filter((member) => member.primary).length).padStart(5)} units ${String(stage.behaviors.length).padStart(3)} ${stage.behaviors.length === 1 ? 'behaviour ' : 'behaviours'}  ${stage.description}`);
  lines.push('', `  unassigned: ${overview.counts.unassigned} of ${overview.counts.units} units`);
  const shown = overviewEntryPoints(overview);
  if (shown.length > 0) lines.push(`  entry points: ${notedNames(shown, placed).join(', ')}${overview.entryPoints.length > shown.length ? ', …' : ''}`);
  if (overview.couplingSlots.length > 0) {
    lines.push('  state coupling stages:');
    for (const slot of overview.couplingSlots.slice(0, 8)) lines.push(`    ${shortName(slot.slot)}  (${slot.stages.join(', ')})`);
  }
  return lines.join('\n');
}

/** The units `formatStage` prints: its entry points and its primary members. */
export function stageUnitsShown(stage: Stage): string[] {
  return [...stage.entryPoints, ...stage.members.filter((member) => member.primary).map((member) => member.unit)];
}

/**
 * Members at the place their code stands now, behaviour by behaviour (a flat list for a handbook
 * stored before behaviours were found); `placed` holds at least the units of stageUnitsShown.
 */
export function formatStage(stage: Stage, organized: OrganizedHandbook, placed: Placed): string {
  const primary = stage.members.filter((member) => member.primary);
  const lines = [`${stage.position + 1}. ${stage.name} (${stage.id}), ${stagerLine(organized)}`, `  ${stage.summary}`, ''];
  if (stage.entryPoints.length > 0) lines.push(`  entry points: ${notedNames(stage.entryPoints, placed).join(', ')}`, '');
  const memberLine = (unit: string): void => {
    const place = placed.get(unit);
    if (place) lines.push(`      ${placeText(place.listed.unit, place.live)}`);
  };
  if (stage.behaviors.length === 0) {
    lines.push(`  members: ${primary.length}`);
    for (const member of primary) memberLine(member.unit);
    return lines.join('\n').replace(/^ {6}/gm, '    ');
  }
  lines.push(`  ${primary.length} members in ${stage.behaviors.length} behaviour${stage.behaviors.length === 1 ? '' : 's'}:`);
  for (const behavior of stage.behaviors) lines.push(`    ${behavior.name}  (${behavior.id}, ${behavior.members.length})`);
  for (const behavior of stage.behaviors) {
    lines.push('', `  ${behavior.name}  (${behavior.id})`, `    ${behavior.summary}`);
    for (const unit of behavior.members) memberLine(unit);
  }
  return lines.join('\n');
}

/** One behaviour: what it does, where it is entered, the state it touches, and its members where their code stands now. */
export function formatBehavior(behavior: Behavior, stage: Stage, placed: Placed): string {
  const lines = [`${behavior.name}  (${behavior.id}), in stage ${stage.name} (${stage.id})`, `  ${behavior.summary}`, ''];
  if (behavior.entryPoints.length > 0) lines.push(`  entry points: ${notedNames(behavior.entryPoints, placed).join(', ')}`);
  if (behavior.writes.length > 0) lines.push(`  writes: ${behavior.writes.map(shortName).join(', ')}`);
  if (behavior.reads.length > 0) lines.push(`  reads: ${behavior.reads.map(shortName).join(', ')}`);
  lines.push(`  files: ${behavior.files.join(', ')}`, `  members: ${behavior.members.length}`);
  for (const unit of behavior.members) {
    const place = placed.get(unit);
    if (place) lines.push(`    ${placeText(place.listed.unit, place.live)}`);
  }
  return lines.join('\n');
}

/** Each slot where it is declared now, its writers and readers noted when their code changed, moved or is gone. */
export function formatRegister(entries: ReadonlyArray<{ entry: RegisterEntry; declared: LiveDeclaration }>, placed: Placed): string {
  if (entries.length === 0) return 'no shared state';
  const names = (accesses: RegisterEntry['writers']): string => accesses.map((access) => `${shortName(access.unit)}${nameNote(access.unit, placed)}`).join(', ') || '-';
  const lines: string[] = [];
  for (const { entry, declared } of entries) {
    lines.push(`${shortName(entry.slot)}  ${declarationText(entry, declared)}  stages: ${entry.stages.join(', ') || '-'}`);
    lines.push(`  writers: ${names(entry.writers)}`);
    lines.push(`  readers: ${names(entry.readers)}`);
  }
  return lines.join('\n');
}

/** A slot that exists but is no shared state: "no shared state" alone would read as a register that is empty. */
export function formatUnsharedSlot(slot: string): string {
  return `${slot} is read or written by one unit at most, so it is not in the register (\`handbook graph state ${shellWord(slot)}\` shows who does)`;
}

/** An id as one shell word, so the command shown can be pasted: a path with a space, a `$field`. */
function shellWord(text: string): string {
  return /^[\w./@+#~:-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** How a request was routed (`--explain`): the words searched, stages, files, folders and seeds. */
function formatRouting(trace: NonNullable<AskResult['explain']>): string[] {
  const words = (source: string) => trace.terms.filter((term) => term.source === source).map((term) => term.term).join(', ') || '-';
  return [
    '',
    'how it was routed',
    `  request words     ${words('request')}`,
    `  thesaurus         ${words('thesaurus')}`,
    `  from this repo    ${words('repository')}`,
    `  from best matches ${words('feedback')}`,
    `  stages            ${trace.stages.join(', ') || '-'}${trace.coupledStages.length ? `; coupled through state: ${trace.coupledStages.join(', ')}` : ''}`,
    `  files about it    ${trace.files.join(', ') || '-'}`,
    `  folders about it  ${trace.folders.map((folder) => folder || '(root)').join(', ') || '-'}`,
    `  cross-cutting     ${trace.crossCutting ? 'yes: every caller of a match, every sibling implementation and every unit named alike are followed' : 'no'}`,
    `  expanded from     ${trace.seeds.slice(0, 5).map(shortName).join(', ')}${trace.seeds.length > 5 ? `, … (${trace.seeds.length})` : ''}`,
  ];
}

/** Ask results grouped by stage, then by behaviour, each with `path:line` and one line of why. */
export function formatAsk(result: AskResult): string {
  // With nothing found, the words searched are what explains it: --explain shows them then too.
  const routing = result.explain ? formatRouting(result.explain) : [];
  if (result.locations.length === 0) return [`no location found for "${result.request}"${result.note ? `: ${result.note}` : ''}`, ...routing].join('\n');
  const router = result.router === 'offline' ? 'offline router' : `ranked by ${result.router} from ${result.model?.candidates ?? 0} offline candidates`;
  const lines = [`${result.locations.length} location${result.locations.length === 1 ? '' : 's'} for "${result.request}" (${router}${result.frozen ? `; ${result.frozen} frozen, left out` : ''})`];
  if (result.note) lines.push(`note: ${result.note}`);
  const byStage = new Map<string, AskResult['locations']>();
  for (const location of result.locations) {
    const key = location.stage ?? 'unassigned';
    const list = byStage.get(key) ?? [];
    list.push(location);
    byStage.set(key, list);
  }
  lines.push(...routing);
  for (const [stage, locations] of byStage) {
    lines.push('', `${stage}`);
    // Within a stage, by behaviour, in the order of each behaviour's best location.
    const byBehavior = new Map<string, AskResult['locations']>();
    for (const location of locations) {
      const key = location.behavior?.id ?? '';
      byBehavior.set(key, [...(byBehavior.get(key) ?? []), location]);
    }
    for (const group of byBehavior.values()) {
      const behavior = group[0]!.behavior;
      if (behavior) lines.push(`  ${behavior.name} (${behavior.id})`);
      for (const location of group) {
        lines.push(`    ${location.file}:${location.line}  ${location.symbol}${location.status === 'fresh' ? '' : `  (${location.status} since the build)`}`);
        lines.push(`        ${location.why}`);
      }
    }
  }
  return lines.join('\n');
}

export function formatStatus(report: StatusReport): string {
  const { counts } = report;
  const lines = [
    `${report.fresh ? 'fresh' : 'stale'}: ${report.root}`,
    `  built      ${report.builtAt}${report.builtCommit ? ` at commit ${report.builtCommit.slice(0, 12)}` : ''}; now ${report.head ? `at commit ${report.head.slice(0, 12)}` : 'not a git checkout'}`,
    `  entries    ${counts.fresh} fresh, ${counts.changed} changed, ${counts.moved} moved, ${counts.frozen} frozen`,
  ];
  if (report.compilerSettings) lines.push(`  settings   ${report.compilerSettings} (a sync analyzes everything again)`);
  if (report.projectChanged) lines.push('  project    package.json or the README describe the project otherwise (a sync writes the overview again)');
  if (report.editedFiles.length > 0) lines.push(`  edited     ${fileList(report.editedFiles)} (changed since the build: a sync re-reads them)`);
  if (report.goneFiles.length > 0) lines.push(`  gone       ${fileList(report.goneFiles)} (no longer in the tree: a sync removes them)`);
  if (report.skipped.length > 0) lines.push(`  skipped    ${skippedCount(report.skipped)} still there, now left out by analysis: ${skippedList(report.skipped)}`);
  for (const move of report.moved.slice(0, 20)) lines.push(`  moved      ${move.unit} → ${move.to}`);
  lines.push(...unitsByFile('changed   ', report.changed, ''));
  for (const entry of report.frozen.slice(0, 20)) lines.push(`  frozen     ${shortName(entry.unit)}: ${entry.reason}`);
  if (report.newFiles.length > 0) lines.push(`  new files  ${fileList(report.newFiles)} (not in the handbook yet)`);
  lines.push(...unitsByFile('new units ', report.newUnits, ' (not in the handbook yet)'));
  if (report.frozen.length > 20) lines.push(`  … and ${report.frozen.length - 20} more frozen`);
  if (!report.fresh) lines.push('  run `handbook sync` to bring the handbook up to date');
  for (const record of report.acceptance.slice(-10)) {
    const state = record.unreadable ? `unreadable (${record.unreadable})` : record.valid ? 'valid' : `invalid: ${fileList(record.changed)} changed since it was accepted`;
    lines.push(`  accepted   run ${record.runId}: ${state}`);
  }
  return lines.join('\n');
}

/** The note on pages rendered from a handbook the files have moved past: they show the build, not the code. */
export function formatStaleRender(report: StatusReport): string {
  const { changed, moved, frozen } = report.counts;
  const entries = changed + moved + frozen > 0 ? `${changed} changed, ${moved} moved and ${frozen} frozen entries` : 'files edited, added or gone';
  return `note: the pages show the handbook as built at ${report.builtAt}, and the code has moved on since (${entries}); run \`handbook sync\`, then render again`;
}

const FILES_SHOWN = 8;
const NAMES_SHOWN = 8;

/**
 * Units named under their file, a line per file: a symbol alone is ambiguous in a status report
 * (every class has a `constructor`, a function copied into a new file reads as already known).
 */
function unitsByFile(label: string, ids: readonly string[], note: string): string[] {
  const byFile = new Map<string, string[]>();
  for (const id of ids) {
    const file = id.slice(0, Math.max(0, id.indexOf('#')));
    byFile.set(file, [...(byFile.get(file) ?? []), shortName(id)]);
  }
  const lines = [...byFile].slice(0, FILES_SHOWN).map(([file, names]) => `  ${label} ${file}: ${names.slice(0, NAMES_SHOWN).join(', ')}${names.length > NAMES_SHOWN ? ', …' : ''}${note}`);
  if (byFile.size > FILES_SHOWN) lines.push(`  ${label} … and ${byFile.size - FILES_SHOWN} more files`);
  return lines;
}

function fileList(files: string[]): string {
  return files.length <= 5 ? files.join(', ') : `${files.slice(0, 5).join(', ')} and ${files.length - 5} more`;
}

/** "3 files (2 binary, 1 too-large)": how many, and why, before a list that may be cut short. */
function skippedCount(skipped: SkippedFile[]): string {
  const reasons = new Map<string, number>();
  for (const entry of skipped) reasons.set(entry.reason, (reasons.get(entry.reason) ?? 0) + 1);
  const why = [...reasons].map(([reason, count]) => `${count} ${reason}`).join(', ');
  return `${skipped.length} ${skipped.length === 1 ? 'file' : 'files'} (${why})`;
}

function skippedList(skipped: SkippedFile[]): string {
  return fileList(skipped.map((entry) => `${entry.file} (${entry.reason})`));
}

export function formatSync(summary: SyncSummary): string {
  if (summary.upToDate) return [`up to date: ${summary.build.root} (generation ${summary.generation}; nothing changed, ${summary.durationMs} ms)`, ...parseWarningLines(summary.build)].join('\n');
  const lines = [`synced ${summary.build.root} in ${summary.durationMs} ms (generation ${summary.generation})`];
  if (summary.fullRebuild) lines.push(`  full       ${summary.fullRebuild}`);
  if (summary.added.length > 0) lines.push(`  added      ${fileList(summary.added)}`);
  if (summary.modified.length > 0) lines.push(`  modified   ${fileList(summary.modified)}`);
  // A file left out now is still there: saying it was removed would send the user looking for a deletion.
  const skipped = new Set(summary.skipped.map((entry) => entry.file));
  const removed = summary.removed.filter((file) => !skipped.has(file));
  if (removed.length > 0) lines.push(`  removed    ${fileList(removed)}`);
  if (summary.skipped.length > 0) lines.push(`  skipped    ${skippedList(summary.skipped)}; still there, no longer analyzed`);
  if (summary.projectChanged) lines.push('  project    package.json or the README describe the project otherwise: the overview was written again');
  const inPart = summary.resolvedInPart > 0 ? `; ${summary.resolvedInPart} of them only in the unit the edit lay in` : '';
  lines.push(`  resolved   ${summary.resolvedFiles} files again (the changed ones and those whose edges could depend on them${inPart})`);
  lines.push(`  entries    ${summary.entries.added} added, ${summary.entries.changed} changed, ${summary.entries.removed} removed; ${summary.restaged} moved to another stage`);
  lines.push(...parseWarningLines(summary.build));
  return lines.join('\n');
}

/** One line per watch event, stamped with the local time: `06:12:01 synced 3 files: 2 entries added, …`. */
export function formatWatchEvent(event: WatchEvent): string {
  const clock = new Date(event.time).toTimeString().slice(0, 8);
  const files = (count: number): string => `${count} ${count === 1 ? 'file' : 'files'}`;
  switch (event.type) {
    case 'ready':
      return `${clock} watching ${event.root} (database ${event.database}); Ctrl-C to stop`;
    case 'error':
      return `${clock} error: ${event.message}`;
    case 'closed':
      return `${clock} stopped watching`;
    case 'sync': {
      const { entries } = event;
      const changed = event.added.length + event.modified.length + event.removed.length;
      const head = event.upToDate
        ? 'up to date'
        : `synced ${files(changed)}: ${entries.added} entries added, ${entries.changed} changed, ${entries.removed} removed, ${event.restaged} restaged`;
      const notes = [
        ...(event.fullRebuild ? [`full rebuild: ${event.fullRebuild}`] : []),
        ...(event.projectChanged ? ['overview written again (package.json or the README describe the project otherwise)'] : []),
        ...(event.skipped.length > 0 ? [`skipped ${skippedList(event.skipped)}`] : []),
        ...(event.unreadable > 0 ? [`${files(event.unreadable)} unreadable`] : []),
        ...(event.syntaxErrors > 0 ? [`${files(event.syntaxErrors)} with syntax errors`] : []),
      ];
      return `${clock} ${[head, ...notes].join('; ')} (${event.durationMs} ms)`;
    }
  }
}
