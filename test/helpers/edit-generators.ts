import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { openHandbook, type Slot, type Unit } from '../../src/index.js';

/**
 * Random edits to a copy of the fixture harness, for the sync property test. fast-check
 * generates an abstract plan (a kind and a few numbers); the plan is interpreted against the
 * repository as it is at that moment (its files, and its graph as the handbook holds it), so each
 * edit has something real to work on, and the same plans on the same tree give the same edits.
 * Most edits leave plausible TypeScript; some leave it broken, which the invariant must survive too.
 */

export const EDIT_KINDS = [
  'add-function',
  'change-body',
  'edit-body-locally',
  'rename-in-file',
  'rename-everywhere',
  'delete-unit',
  'move-unit',
  'change-doc',
  'edit-reexport',
  'add-file',
  'delete-file',
  'move-file',
  'break-syntax',
  'fix-syntax',
  'change-return-type',
  'change-declared-type',
  'change-heritage',
  'add-implementation',
] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

/** What fast-check generates: which edit, and the numbers that choose its targets and variants. */
export interface EditPlan {
  kind: EditKind;
  picks: number[];
}

const PICKS = 8;

export const editPlan: fc.Arbitrary<EditPlan> = fc.record({
  kind: fc.constantFrom(...EDIT_KINDS),
  picks: fc.array(fc.nat({ max: 9_999 }), { minLength: PICKS, maxLength: PICKS }),
});

/** The repository as an edit sees it. */
export interface RepoSnapshot {
  repo: string;
  /** Every file under src, repo-relative with forward slashes, sorted, with its text. */
  files: Map<string, string>;
  units: Unit[];
  slots: Slot[];
}

/** What lives across the edits of one run: fresh names are numbered so they never repeat. */
export interface RunState {
  repo: string;
  database: string;
  counter: number;
}

export function snapshot(state: RunState): RepoSnapshot {
  const files = new Map<string, string>();
  const walk = (relative: string): void => {
    const absolute = path.join(state.repo, relative);
    for (const entry of readdirSync(absolute, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.set(child, readFileSync(path.join(state.repo, child), 'utf8'));
    }
  };
  if (existsSync(path.join(state.repo, 'src'))) walk('src');
  const graph = openHandbook(state.repo, { database: state.database }).graph.toData();
  // The handbook matches the tree after every synced step; a unit whose file is gone is not a target.
  return { repo: state.repo, files, units: graph.units.filter((unit) => files.has(unit.file)), slots: graph.slots.filter((slot) => files.has(slot.file)) };
}

/** Consumes the plan's numbers one by one (wrapping around) to choose among what the tree offers. */
export class Picker {
  private next = 0;
  constructor(private readonly picks: readonly number[]) {}
  number(bound: number): number {
    const value = this.picks[this.next % this.picks.length] ?? 0;
    this.next += 1;
    return bound <= 0 ? 0 : value % bound;
  }
  one<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[this.number(items.length)];
  }
  chance(outOf: number): boolean {
    return this.number(outOf) === 0;
  }
}

const IDENTIFIER = '[A-Za-z0-9_$]';
const wordPattern = (word: string): RegExp => new RegExp(`(?<!${IDENTIFIER})${word.replace(/\$/g, '\\$')}(?!${IDENTIFIER})`, 'g');
const replaceWord = (text: string, word: string, by: string): string => text.replace(wordPattern(word), () => by);

/** `a.ts#Loop.run~2` → `run`. */
export function nameOf(unit: Unit): string {
  return unit.symbol.slice(unit.symbol.lastIndexOf('.') + 1).replace(/~\d+$/, '');
}

const isCode = (file: string): boolean => /\.[cm]?tsx?$/.test(file) && !/\.d\.ts$/.test(file) && !/\.(test|spec)\.ts$/.test(file);
const stemOf = (file: string): string => path.posix.basename(file).replace(/\.[^.]+$/, '');
const TOP_LEVEL_KINDS = new Set(['function', 'class', 'interface', 'type', 'enum', 'variable']);
const isTopLevel = (unit: Unit): boolean => unit.parent === unit.file && TOP_LEVEL_KINDS.has(unit.kind);
const isRenamable = (unit: Unit): boolean => unit.kind !== 'file' && unit.kind !== 'constructor' && /^[A-Za-z_$][\w$]*$/.test(nameOf(unit));

/** How `from` imports `to`: a relative path (`../tools/shell.js`) or, under src, the fixture's alias (`@harness/tools/shell.js`). */
export function specifier(from: string, to: string, alias: boolean): string {
  const target = to.replace(/\.tsx?$/, '.js');
  if (alias && target.startsWith('src/')) return `@harness/${target.slice('src/'.length)}`;
  const relative = path.posix.relative(path.posix.dirname(from), target);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** The file an import specifier names, if it is one of the tree's files. */
function resolveSpecifier(from: string, spec: string, files: ReadonlyMap<string, string> | ReadonlySet<string>): string | undefined {
  let base: string;
  if (spec.startsWith('@harness/')) base = `src/${spec.slice('@harness/'.length)}`;
  else if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return undefined;
  const stripped = base.replace(/\.js$/, '');
  for (const candidate of [`${stripped}.ts`, `${stripped}.tsx`, `${stripped}/index.ts`, base]) if (files.has(candidate)) return candidate;
  return undefined;
}

const SPECIFIER = /((?:\bfrom|\bimport)\s*\(?\s*)(['"])([^'"\n]+)\2/g;

/** Names that exist already (a rename or an addition onto one is where resolution gets interesting) and fresh ones. */
function newName(snapshot: RepoSnapshot, state: RunState, pick: Picker, base: string): string {
  if (pick.chance(4)) {
    const taken = pick.one(snapshot.units.filter(isRenamable).map(nameOf).concat(['run', 'complete', 'execute', 'list', 'headers', 'check']));
    if (taken) return taken;
  }
  state.counter += 1;
  return `${base.replace(/[^\w$]/g, '') || 'added'}${state.counter}`;
}

interface Edits {
  write(file: string, text: string): void;
  remove(file: string): void;
  move(from: string, to: string): void;
}

function editsOf(snapshot: RepoSnapshot): Edits {
  const absolute = (file: string): string => path.join(snapshot.repo, file);
  return {
    write(file, text) {
      mkdirSync(path.dirname(absolute(file)), { recursive: true });
      writeFileSync(absolute(file), text);
      snapshot.files.set(file, text);
    },
    remove(file) {
      rmSync(absolute(file), { force: true });
      snapshot.files.delete(file);
    },
    move(from, to) {
      mkdirSync(path.dirname(absolute(to)), { recursive: true });
      renameSync(absolute(from), absolute(to));
      snapshot.files.set(to, snapshot.files.get(from) ?? '');
      snapshot.files.delete(from);
    },
  };
}

const lineList = (text: string): string[] => text.split('\n');

/** Adds `import { name } from '<spec>'` at the top of a file's text. */
const withImport = (text: string, name: string, spec: string, typeOnly = false): string => `import ${typeOnly ? 'type ' : ''}{ ${name} } from '${spec}';\n${text}`;

/** Imports `unit` into `file` (relative, alias or not at all, as picked); returns the new text and what it did. */
function importInto(file: string, text: string, unit: Unit, pick: Picker, typeOnly = false): { text: string; how: string } {
  if (unit.file === file) return { text, how: 'same file' };
  const mode = pick.number(3);
  if (mode === 2) return { text, how: 'no import (unresolved)' };
  const spec = specifier(file, unit.file, mode === 1);
  return { text: withImport(text, nameOf(unit), spec, typeOnly), how: `import from '${spec}'` };
}

function codeFiles(snapshot: RepoSnapshot): string[] {
  return [...snapshot.files.keys()].filter(isCode);
}

function folders(snapshot: RepoSnapshot): string[] {
  return [...new Set([...snapshot.files.keys()].map((file) => path.posix.dirname(file)))].sort();
}

/** A folder to add or move a file into: an existing one, or a new one, sometimes nested. */
function someFolder(snapshot: RepoSnapshot, pick: Picker): string {
  const existing = folders(snapshot);
  if (pick.chance(3) || existing.length === 0) return pick.one(['src/plugins', 'src/extra/deep', 'src/tools/builtin', 'src']) ?? 'src/plugins';
  return pick.one(existing) ?? 'src';
}

/** A path for a new file: a fresh name, or one whose stem an existing import already spells (`retry.ts`, `index.ts`). */
function newFilePath(snapshot: RepoSnapshot, state: RunState, pick: Picker, suffix = '.ts'): string {
  const folder = someFolder(snapshot, pick);
  const stems = [...snapshot.files.keys()].map(stemOf).concat(['index']);
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const stem = pick.chance(2) ? (pick.one(stems) ?? 'index') : `added${(state.counter += 1)}`;
    const file = `${folder}/${stem}${suffix}`;
    if (!snapshot.files.has(file)) return file;
  }
  return `${folder}/added${(state.counter += 1)}${suffix}`;
}

/** A use of a unit in an expression: a call, an instantiation, or a read. */
function useOf(unit: Unit): string {
  const name = nameOf(unit);
  if (unit.kind === 'function') return `${name}('input' as never)`;
  if (unit.kind === 'class') return `new ${name}(undefined as never)`;
  return `String(${name})`;
}

type Interpreter = (snapshot: RepoSnapshot, state: RunState, pick: Picker, edits: Edits) => string | undefined;

const addFunction: Interpreter = (snapshot, state, pick, edits) => {
  const file = pick.one(codeFiles(snapshot));
  if (!file) return undefined;
  const callee = pick.one(snapshot.units.filter((unit) => isTopLevel(unit) && (unit.exported || unit.file === file) && ['function', 'class', 'variable'].includes(unit.kind)));
  const name = newName(snapshot, state, pick, callee ? `${nameOf(callee)}Again` : 'helper');
  const exported = pick.chance(3) ? '' : 'export ';
  const returns = pick.chance(3) ? ': unknown' : '';
  const body = callee ? useOf(callee) : 'input.length';
  let text = snapshot.files.get(file)!;
  let how = 'calls nothing';
  if (callee) ({ text, how } = importInto(file, text, callee, pick));
  edits.write(file, `${text}\n/** Added by the property test. */\n${exported}function ${name}(input: string)${returns} {\n  return ${body};\n}\n`);
  return `add ${exported}function ${name} to ${file}${callee ? ` using ${callee.id} (${how})` : ''}`;
};

/** The statement a body change inserts: a call, a field write, or a module variable write. */
function statementFor(snapshot: RepoSnapshot, unit: Unit, pick: Picker): { statement: string; importOf?: Unit } {
  const owner = snapshot.units.find((candidate) => candidate.id === unit.parent && candidate.kind === 'class');
  const variant = pick.number(4);
  if (variant === 0 && owner) {
    const fields = snapshot.slots.filter((slot) => slot.owner === owner.id);
    const field = pick.one(fields)?.name ?? 'addedField';
    return { statement: `this.${field} = undefined as never;` };
  }
  if (variant === 1) {
    const variable = pick.one(snapshot.units.filter((candidate) => candidate.kind === 'variable' && isTopLevel(candidate) && (candidate.file === unit.file || candidate.exported)));
    if (variable) return { statement: `${nameOf(variable)} = undefined as never;`, importOf: variable };
  }
  if (variant === 2 && owner) {
    const method = pick.one(snapshot.units.filter((candidate) => candidate.parent === owner.id && candidate.kind === 'method'));
    if (method) return { statement: `void this.${nameOf(method)}(undefined as never);` };
  }
  const callee = pick.one(snapshot.units.filter((candidate) => candidate.kind === 'function' && candidate.id !== unit.id && (candidate.file === unit.file || (isTopLevel(candidate) && candidate.exported))));
  if (callee) return { statement: `void ${nameOf(callee)}(undefined as never);`, importOf: callee };
  return { statement: 'void 0;' };
}

const changeBody: Interpreter = (snapshot, _state, pick, edits) => {
  const unit = pick.one(snapshot.units.filter((candidate) => ['function', 'method', 'constructor', 'accessor', 'property'].includes(candidate.kind) && candidate.endLine > candidate.startLine));
  if (!unit) return undefined;
  const lines = lineList(snapshot.files.get(unit.file)!);
  let at = -1;
  for (let line = unit.startLine - 1; line < unit.endLine - 1 && line < lines.length; line += 1) {
    if (lines[line]!.trimEnd().endsWith('{')) {
      at = line + 1;
      break;
    }
  }
  if (at < 0) at = Math.min(unit.endLine - 1, lines.length);
  const { statement, importOf } = statementFor(snapshot, unit, pick);
  lines.splice(at, 0, `    ${statement}`);
  let text = lines.join('\n');
  let how = '';
  if (importOf) ({ text, how } = importInto(unit.file, text, importOf, pick));
  edits.write(unit.file, text);
  return `change the body of ${unit.id}: insert \`${statement}\` at line ${at + 1}${how ? ` (${how})` : ''}`;
};

/** A statement that needs no import, added to a body: the edit a kept-open handbook may resolve in part, leaving the rest of the file as it was. */
const editBodyLocally: Interpreter = (snapshot, _state, pick, edits) => {
  const unit = pick.one(snapshot.units.filter((candidate) => ['function', 'method', 'constructor', 'accessor', 'property'].includes(candidate.kind) && candidate.endLine > candidate.startLine + 1));
  if (!unit) return undefined;
  const lines = lineList(snapshot.files.get(unit.file)!);
  const owner = snapshot.units.find((candidate) => candidate.id === unit.parent && candidate.kind === 'class');
  const sameFile = snapshot.units.filter((candidate) => candidate.file === unit.file && candidate.kind === 'function' && isTopLevel(candidate) && candidate.id !== unit.id);
  const methods = owner ? snapshot.units.filter((candidate) => candidate.parent === owner.id && candidate.kind === 'method') : [];
  const callee = pick.chance(2) ? pick.one(sameFile) : undefined;
  const method = callee ? undefined : pick.one(methods);
  const statement = callee ? `void ${nameOf(callee)}(undefined as never);` : method ? `void this.${nameOf(method)}(undefined as never);` : `console.log('edited ${pick.number(100)}');`;
  // Before the unit's last line, so the statement lands inside its body.
  const at = Math.min(unit.endLine - 1, lines.length);
  lines.splice(at, 0, `    ${statement}`);
  edits.write(unit.file, lines.join('\n'));
  return `edit the body of ${unit.id} in place: insert \`${statement}\` at line ${at + 1}`;
};

const renameInFile: Interpreter = (snapshot, state, pick, edits) => {
  const unit = pick.one(snapshot.units.filter(isRenamable));
  if (!unit) return undefined;
  const name = nameOf(unit);
  const renamed = newName(snapshot, state, pick, `${name}Renamed`);
  const text = snapshot.files.get(unit.file)!;
  if (pick.chance(2)) {
    edits.write(unit.file, replaceWord(text, name, renamed));
    return `rename ${name} → ${renamed} throughout ${unit.file} only`;
  }
  // Only the declaration: the first occurrence on or after its first line.
  const lines = lineList(text);
  for (let line = unit.startLine - 1; line < lines.length; line += 1) {
    const pattern = wordPattern(name);
    const match = pattern.exec(lines[line]!);
    if (match) {
      lines[line] = `${lines[line]!.slice(0, match.index)}${renamed}${lines[line]!.slice(match.index + name.length)}`;
      break;
    }
  }
  edits.write(unit.file, lines.join('\n'));
  return `rename the declaration ${unit.id} → ${renamed} (uses left as they are)`;
};

const renameEverywhere: Interpreter = (snapshot, state, pick, edits) => {
  const unit = pick.one(snapshot.units.filter(isRenamable));
  if (!unit) return undefined;
  const name = nameOf(unit);
  const renamed = newName(snapshot, state, pick, `${name}Renamed`);
  const touched: string[] = [];
  for (const [file, text] of [...snapshot.files]) {
    const next = replaceWord(text, name, renamed);
    if (next !== text) {
      edits.write(file, next);
      touched.push(file);
    }
  }
  return `rename ${name} → ${renamed} in every file (${touched.join(', ')})`;
};

/** The 0-based line where the doc comment right above a unit begins, if it has one (a unit's lines start after it). */
function docStart(lines: readonly string[], unit: Unit): number | undefined {
  let line = unit.startLine - 2;
  if (line < 0 || !lines[line]!.trimEnd().endsWith('*/')) return undefined;
  while (line >= 0 && !lines[line]!.trimStart().startsWith('/**')) line -= 1;
  return line >= 0 ? line : undefined;
}

/** A unit's span, with its doc comment or (sometimes) without, leaving the comment to whatever follows. */
function spanOf(lines: readonly string[], unit: Unit, pick: Picker): { from: number; count: number; withDoc: boolean } {
  const doc = docStart(lines, unit);
  const withDoc = doc !== undefined && !pick.chance(3);
  const from = withDoc ? doc : unit.startLine - 1;
  return { from, count: unit.endLine - from, withDoc };
}

const deleteUnit: Interpreter = (snapshot, _state, pick, edits) => {
  const unit = pick.one(snapshot.units.filter((candidate) => candidate.kind !== 'file'));
  if (!unit) return undefined;
  const lines = lineList(snapshot.files.get(unit.file)!);
  const { from, count, withDoc } = spanOf(lines, unit, pick);
  lines.splice(from, count);
  edits.write(unit.file, lines.join('\n'));
  return `delete ${unit.id} (lines ${from + 1}-${from + count}${withDoc ? ', with its doc comment' : ''})`;
};

const DOCS = [
  'Retries the model provider request with exponential backoff.',
  'Masks secrets and api keys before anything is logged.',
  'Runs a tool call after the user approved it.',
  'Compacts the conversation history when it nears the token limit.',
  'Loads the configuration from the environment.',
  'Helper.',
];

const changeDoc: Interpreter = (snapshot, _state, pick, edits) => {
  const unit = pick.one(snapshot.units.filter((candidate) => candidate.kind !== 'file'));
  if (!unit) return undefined;
  const lines = lineList(snapshot.files.get(unit.file)!);
  const doc = pick.one(DOCS) ?? 'Helper.';
  const indent = /^\s*/.exec(lines[unit.startLine - 1] ?? '')?.[0] ?? '';
  const start = docStart(lines, unit);
  if (start !== undefined && pick.chance(4)) {
    lines.splice(start, unit.startLine - 1 - start);
    edits.write(unit.file, lines.join('\n'));
    return `drop the doc comment of ${unit.id} (lines ${start + 1}-${unit.startLine - 1})`;
  }
  if (start !== undefined) lines.splice(start, unit.startLine - 1 - start, `${indent}/** ${doc} */`);
  else lines.splice(unit.startLine - 1, 0, `${indent}/** ${doc} */`);
  edits.write(unit.file, lines.join('\n'));
  return `${start === undefined ? 'add' : 'replace'} the doc comment of ${unit.id} (line ${(start ?? unit.startLine - 1) + 1}): ${doc}`;
};

const moveUnit: Interpreter = (snapshot, _state, pick, edits) => {
  const unit = pick.one(snapshot.units.filter(isTopLevel));
  const target = pick.one(codeFiles(snapshot).filter((file) => file !== unit?.file));
  if (!unit || !target) return undefined;
  const lines = lineList(snapshot.files.get(unit.file)!);
  const { from, count, withDoc } = spanOf(lines, unit, pick);
  const moved = lines.splice(from, count);
  const heading = unit.startLine - 1 - from;
  if (moved.length > heading && !/^\s*export\b/.test(moved[heading]!)) moved[heading] = `export ${moved[heading]!.trimStart()}`;
  let source = lines.join('\n');
  const importBack = pick.chance(2);
  if (importBack) source = withImport(source, nameOf(unit), specifier(unit.file, target, pick.chance(3)));
  edits.write(unit.file, source);
  edits.write(target, `${snapshot.files.get(target)!.trimEnd()}\n\n${moved.join('\n')}\n`);
  return `move ${unit.id} (lines ${from + 1}-${from + count}${withDoc ? ', with its doc comment' : ''}) to the end of ${target} as an export${importBack ? ', importing it back' : ''}`;
};

/** A barrel's re-exports: drop one, point one at another file, or add one (`export *` or a named one). */
const REEXPORT = /^\s*export\s+(\*|\{[^}]*\}|type\s+\{[^}]*\})\s*from\s*['"]/;

const editReexport: Interpreter = (snapshot, _state, pick, edits) => {
  // Barrels first: their importers are where a re-export change shows.
  const barrels = codeFiles(snapshot).filter((file) => lineList(snapshot.files.get(file)!).some((line) => REEXPORT.test(line)));
  const file = barrels.length > 0 && !pick.chance(3) ? pick.one(barrels) : pick.one(codeFiles(snapshot));
  if (!file) return undefined;
  const lines = lineList(snapshot.files.get(file)!);
  const reexports = lines.map((line, index) => ({ line, index })).filter(({ line }) => REEXPORT.test(line));
  const existing = pick.one(reexports);
  const variant = pick.number(3);
  const exported = snapshot.units.filter((unit) => isTopLevel(unit) && unit.exported && unit.file !== file);
  if (existing && variant === 0) {
    lines.splice(existing.index, 1);
    edits.write(file, lines.join('\n'));
    return `drop the re-export \`${existing.line.trim()}\` from ${file}`;
  }
  const other = pick.one(exported);
  if (!other) return undefined;
  const spec = specifier(file, other.file, pick.chance(3));
  if (existing && variant === 1) {
    lines[existing.index] = existing.line.replace(/(from\s*)(['"])[^'"]*\2/, `$1'${spec}'`);
    edits.write(file, lines.join('\n'));
    return `point the re-export \`${existing.line.trim()}\` in ${file} at '${spec}'`;
  }
  const line = pick.chance(2) ? `export * from '${spec}';` : `export { ${nameOf(other)} } from '${spec}';`;
  lines.splice(pick.chance(2) ? 0 : lines.length, 0, line);
  edits.write(file, lines.join('\n'));
  return `add \`${line}\` to ${file}`;
};

const addFile: Interpreter = (snapshot, state, pick, edits) => {
  const variant = pick.number(4);
  const file = newFilePath(snapshot, state, pick, variant === 3 ? '.test.ts' : '.ts');
  const used = pick.one(snapshot.units.filter((unit) => isTopLevel(unit) && unit.exported && ['function', 'class', 'variable'].includes(unit.kind)));
  let text: string;
  if (variant === 1 && used) {
    // A barrel that re-exports another file.
    text = pick.chance(2) ? `export * from '${specifier(file, used.file, pick.chance(3))}';\n` : `export { ${nameOf(used)} } from '${specifier(file, used.file, pick.chance(3))}';\n`;
  } else if (variant === 2) {
    const name = newName(snapshot, state, pick, 'shared');
    text = `/** Added by the property test. */\nexport let ${name} = 0;\n\nexport function bump${state.counter}(): number {\n  ${name} += 1;\n  return ${name};\n}\n`;
  } else {
    const name = newName(snapshot, state, pick, 'added');
    const call = used ? useOf(used) : '0';
    text = `/** Added by the property test. */\nexport function ${name}(input: string) {\n  return ${call};\n}\n`;
    if (used) text = withImport(text, nameOf(used), specifier(file, used.file, pick.chance(3)));
  }
  edits.write(file, text);
  return `add ${file}:\n${text.replace(/^/gm, '    | ')}`;
};

const deleteFile: Interpreter = (snapshot, _state, pick, edits) => {
  const file = pick.one([...snapshot.files.keys()]);
  if (!file) return undefined;
  edits.remove(file);
  return `delete ${file}`;
};

const moveFile: Interpreter = (snapshot, state, pick, edits) => {
  const file = pick.one([...snapshot.files.keys()].filter((candidate) => /\.tsx?$/.test(candidate)));
  if (!file) return undefined;
  const folder = someFolder(snapshot, pick);
  let target = `${folder}/${pick.chance(2) ? path.posix.basename(file) : `moved${(state.counter += 1)}.ts`}`;
  if (snapshot.files.has(target)) target = `${folder}/moved${(state.counter += 1)}.ts`;
  const fixImports = !pick.chance(3);
  const before = new Set(snapshot.files.keys());
  edits.move(file, target);
  if (!fixImports) return `move ${file} → ${target}, imports left as they are`;
  const after = new Set(snapshot.files.keys());
  // Its own imports, resolved from where it was; the imports of it, pointed to where it is.
  const own = snapshot.files.get(target)!.replace(SPECIFIER, (whole, lead: string, quote: string, spec: string) => {
    const resolved = resolveSpecifier(file, spec, before);
    return resolved && resolved !== file ? `${lead}${quote}${specifier(target, resolved, spec.startsWith('@harness/'))}${quote}` : whole;
  });
  if (own !== snapshot.files.get(target)) edits.write(target, own);
  const updated: string[] = [];
  for (const [other, text] of [...snapshot.files]) {
    if (other === target) continue;
    const next = text.replace(SPECIFIER, (whole, lead: string, quote: string, spec: string) =>
      resolveSpecifier(other, spec, before) === file && !resolveSpecifier(other, spec, after) ? `${lead}${quote}${specifier(other, target, spec.startsWith('@harness/'))}${quote}` : whole,
    );
    if (next !== text) {
      edits.write(other, next);
      updated.push(other);
    }
  }
  return `move ${file} → ${target}, fixing its imports and those of ${updated.join(', ') || 'no other file'}`;
};

/** Breakage is marked in the text so a later fix finds it wherever the file went. */
const BROKEN_LINE = '/*@broken*/';
const BROKEN_TOKEN = /\/\*@broken:([^*]+)\*\//g;

const breakSyntax: Interpreter = (snapshot, _state, pick, edits) => {
  const file = pick.one(codeFiles(snapshot));
  if (!file) return undefined;
  const lines = lineList(snapshot.files.get(file)!);
  const line = pick.number(lines.length);
  const variant = pick.number(4);
  if (variant < 2) {
    const garbage = pick.one(['export async function (( broken', '}}', 'const = ;', 'const oops = `', 'class {', 'import { from;']) ?? '}}';
    lines.splice(line, 0, `${BROKEN_LINE} ${garbage}`);
    edits.write(file, lines.join('\n'));
    return `break ${file}: insert \`${garbage}\` before line ${line + 1}`;
  }
  const token = pick.one(['{', '}', '(', ')']) ?? '{';
  for (let offset = 0; offset < lines.length; offset += 1) {
    const index = (line + offset) % lines.length;
    const at = lines[index]!.indexOf(token);
    if (at >= 0) {
      lines[index] = `${lines[index]!.slice(0, at)}/*@broken:${token}*/${lines[index]!.slice(at + token.length)}`;
      edits.write(file, lines.join('\n'));
      return `break ${file}: drop the first \`${token}\` on line ${index + 1}`;
    }
  }
  return undefined;
};

const fixSyntax: Interpreter = (snapshot, state, pick, edits) => {
  const broken = [...snapshot.files].filter(([, text]) => text.includes(BROKEN_LINE) || /\/\*@broken:/.test(text)).map(([file]) => file);
  const file = pick.one(broken);
  // Nothing is broken: break something, so a later fix has work.
  if (!file) return breakSyntax(snapshot, state, pick, edits);
  const text = snapshot.files.get(file)!;
  const fixed = lineList(text).filter((line) => !line.includes(BROKEN_LINE)).join('\n').replace(BROKEN_TOKEN, (_whole, token: string) => token);
  edits.write(file, fixed);
  return `fix the syntax errors introduced in ${file}`;
};

const RETURN_TYPES = ['string', 'number', 'void', 'Promise<string>', 'unknown', 'never[]'];

const changeReturnType: Interpreter = (snapshot, _state, pick, edits) => {
  const unit = pick.one(snapshot.units.filter((candidate) => ['function', 'method', 'accessor'].includes(candidate.kind)));
  if (!unit) return undefined;
  const lines = lineList(snapshot.files.get(unit.file)!);
  const types = snapshot.units.filter((candidate) => isTopLevel(candidate) && ['interface', 'class', 'type'].includes(candidate.kind));
  const typeUnit = pick.chance(2) ? pick.one(types) : undefined;
  const type = typeUnit ? nameOf(typeUnit) : (pick.one(RETURN_TYPES) ?? 'string');
  for (let line = unit.startLine - 1; line < Math.min(unit.endLine, lines.length); line += 1) {
    const text = lines[line]!;
    const annotated = /\)\s*:\s*([^={};]+?)\s*(\{|=>)\s*$/.exec(text);
    const bare = /\)\s*(\{|=>)\s*$/.exec(text);
    if (!annotated && !bare) continue;
    const drop = annotated !== null && pick.chance(3);
    if (annotated) lines[line] = `${text.slice(0, annotated.index)})${drop ? '' : `: ${type}`} ${annotated[2]}`;
    else lines[line] = `${text.slice(0, bare!.index)}): ${type} ${bare![1]}`;
    let result = lines.join('\n');
    let how = '';
    if (typeUnit && !drop) ({ text: result, how } = importInto(unit.file, result, typeUnit, pick, true));
    edits.write(unit.file, result);
    return drop ? `drop the return type of ${unit.id} (line ${line + 1})` : `make ${unit.id} return ${type} (line ${line + 1}${how ? `, ${how}` : ''})`;
  }
  return undefined;
};

/** Points a type alias, or a property's annotation in a class or interface, at another type: what the uses of it see changes without their text changing. */
const changeDeclaredType: Interpreter = (snapshot, _state, pick, edits) => {
  const unit = pick.one(snapshot.units.filter((candidate) => ['type', 'interface', 'class'].includes(candidate.kind)));
  if (!unit) return undefined;
  const lines = lineList(snapshot.files.get(unit.file)!);
  const typeUnit = pick.chance(3) ? undefined : pick.one(snapshot.units.filter((candidate) => isTopLevel(candidate) && candidate.id !== unit.id && ['interface', 'class', 'type'].includes(candidate.kind)));
  const type = typeUnit ? nameOf(typeUnit) : (pick.one(['string', 'number', '{ size: number }', 'unknown']) ?? 'string');
  const candidates: Array<{ line: number; match: RegExpExecArray }> = [];
  const pattern = unit.kind === 'type' ? /^(\s*(?:export\s+)?type\s+[\w$]+(?:<[^>]*>)?\s*=\s*)(.+?)(;?\s*)$/ : /^(\s*(?:(?:private|protected|public|readonly|static)\s+)*[\w$]+\??\s*:\s*)([^=;{}]+?)(\s*[;,]?\s*)$/;
  for (let line = unit.startLine - 1; line < Math.min(unit.endLine, lines.length); line += 1) {
    const match = pattern.exec(lines[line]!);
    if (match) candidates.push({ line, match });
  }
  const chosen = pick.one(candidates);
  if (!chosen) return undefined;
  const [, head, before, tail] = chosen.match as unknown as [string, string, string, string];
  lines[chosen.line] = `${head}${type}${tail}`;
  let text = lines.join('\n');
  let how = '';
  if (typeUnit) ({ text, how } = importInto(unit.file, text, typeUnit, pick, true));
  edits.write(unit.file, text);
  return `in ${unit.id}, line ${chosen.line + 1}: \`${before}\` → \`${type}\`${how ? ` (${how})` : ''}`;
};

const HEADING = /^(\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(class|interface)\s+[\w$]+(?:<[^>]*>)?)((?:\s+extends\s+[^{]+?)?)((?:\s+implements\s+[^{]+?)?)\s*\{(.*)$/;

const changeHeritage: Interpreter = (snapshot, _state, pick, edits) => {
  const unit = pick.one(snapshot.units.filter((candidate) => candidate.kind === 'class' || candidate.kind === 'interface'));
  if (!unit) return undefined;
  const lines = lineList(snapshot.files.get(unit.file)!);
  const heading = HEADING.exec(lines[unit.startLine - 1] ?? '');
  if (!heading) return undefined;
  const [, head, kind, extendsClause, implementsClause, rest] = heading as unknown as [string, string, string, string, string, string];
  const interfaces = snapshot.units.filter((candidate) => candidate.kind === 'interface' && isTopLevel(candidate) && candidate.id !== unit.id);
  const classes = snapshot.units.filter((candidate) => candidate.kind === 'class' && isTopLevel(candidate) && candidate.id !== unit.id);
  const variant = pick.number(3);
  let next: string;
  let imported: Unit | undefined;
  let what: string;
  if (variant === 0 && (extendsClause || implementsClause)) {
    next = `${head} {${rest}`;
    what = 'drop its extends/implements clauses';
  } else if (kind === 'class' && variant === 1) {
    imported = pick.one(classes);
    if (!imported) return undefined;
    next = `${head} extends ${nameOf(imported)}${implementsClause} {${rest}`;
    what = `make it extend ${imported.id}`;
  } else {
    imported = pick.one(interfaces);
    if (!imported) return undefined;
    const keyword = kind === 'class' ? 'implements' : 'extends';
    const existing = kind === 'class' ? implementsClause : extendsClause;
    const list = pick.chance(2) || !existing ? ` ${keyword} ${nameOf(imported)}` : `${existing}, ${nameOf(imported)}`;
    next = kind === 'class' ? `${head}${extendsClause}${list} {${rest}` : `${head}${list} {${rest}`;
    what = `make it ${keyword} ${imported.id}`;
  }
  lines[unit.startLine - 1] = next;
  let text = lines.join('\n');
  let how = '';
  if (imported) ({ text, how } = importInto(unit.file, text, imported, pick));
  edits.write(unit.file, text);
  return `change the heading of ${unit.id}: ${what}${how ? ` (${how})` : ''}`;
};

/** The members an implementation of an interface needs, read from the interface's text. */
function membersOf(text: string, unit: Unit): Array<{ name: string; method: boolean }> {
  const members: Array<{ name: string; method: boolean }> = [];
  const lines = lineList(text).slice(unit.startLine, unit.endLine - 1);
  for (const line of lines) {
    const member = /^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)(\?)?\s*(\(|:)/.exec(line);
    if (member && !members.some((known) => known.name === member[1])) members.push({ name: member[1]!, method: member[3] === '(' });
  }
  return members;
}

const addImplementation: Interpreter = (snapshot, state, pick, edits) => {
  const contract = pick.one(snapshot.units.filter((candidate) => candidate.kind === 'interface'));
  if (!contract) return undefined;
  const members = membersOf(snapshot.files.get(contract.file)!, contract);
  const name = newName(snapshot, state, pick, `Other${nameOf(contract)}`);
  const body = members.map((member) => (member.method ? `  ${member.name}(..._args: never[]): never {\n    throw new Error('not implemented');\n  }` : `  ${member.name} = undefined as never;`));
  const declaration = `/** Added by the property test. */\nexport class ${name} implements ${nameOf(contract)} {\n${body.join('\n')}\n}\n`;
  const intoNewFile = pick.chance(2);
  const file = intoNewFile ? newFilePath(snapshot, state, pick) : pick.one(codeFiles(snapshot));
  if (!file) return undefined;
  const before = snapshot.files.get(file);
  let text = before === undefined ? declaration : `${before}\n${declaration}`;
  let how = '';
  ({ text, how } = importInto(file, text, contract, pick, true));
  edits.write(file, text);
  return `add class ${name} implementing ${contract.id} to ${before === undefined ? 'new file ' : ''}${file} (${how}, members ${members.map((member) => member.name).join(', ') || 'none'})`;
};

const INTERPRETERS: Record<EditKind, Interpreter> = {
  'add-function': addFunction,
  'change-body': changeBody,
  'edit-body-locally': editBodyLocally,
  'rename-in-file': renameInFile,
  'rename-everywhere': renameEverywhere,
  'delete-unit': deleteUnit,
  'move-unit': moveUnit,
  'change-doc': changeDoc,
  'edit-reexport': editReexport,
  'add-file': addFile,
  'delete-file': deleteFile,
  'move-file': moveFile,
  'break-syntax': breakSyntax,
  'fix-syntax': fixSyntax,
  'change-return-type': changeReturnType,
  'change-declared-type': changeDeclaredType,
  'change-heritage': changeHeritage,
  'add-implementation': addImplementation,
};

/**
 * Applies a plan to the repository as it is now; returns what it did, in words a reproduction can
 * follow. When the tree offers nothing for the planned kind, a function is added instead, so every
 * step changes something.
 */
export function applyEdit(state: RunState, plan: EditPlan): string {
  const current = snapshot(state);
  const pick = new Picker(plan.picks);
  const edits = editsOf(current);
  const done = INTERPRETERS[plan.kind](current, state, pick, edits);
  if (done !== undefined) return `${plan.kind}: ${done}`;
  const fallback = addFunction(current, state, pick, edits) ?? 'nothing to edit';
  return `${plan.kind} (nothing to apply it to), instead add-function: ${fallback}`;
}
