import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { openHandbook, type Unit } from '../../src/index.js';
import { Picker } from './edit-generators.js';

/**
 * Random edits to a copy of the Python fixture harness, for the Python sync property test. As for
 * TypeScript (edit-generators.ts), fast-check generates an abstract plan and the plan is read
 * against the tree as it is then, so the same plans on the same tree give the same edits. Most
 * edits leave plausible Python; some leave it broken, which the invariant must survive too.
 */

export const PYTHON_EDIT_KINDS = [
  'add-function',
  'add-call',
  'rename-everywhere',
  'delete-unit',
  'move-unit',
  'add-file',
  'delete-file',
  'move-file',
  'break-syntax',
  'fix-syntax',
  'change-bases',
  'edit-reexport',
  'add-state',
  'shift-lines',
] as const;
export type PythonEditKind = (typeof PYTHON_EDIT_KINDS)[number];

export interface PythonEditPlan {
  kind: PythonEditKind;
  picks: number[];
}

export const pythonEditPlan: fc.Arbitrary<PythonEditPlan> = fc.record({
  kind: fc.constantFrom(...PYTHON_EDIT_KINDS),
  picks: fc.array(fc.nat({ max: 9_999 }), { minLength: 6, maxLength: 6 }),
});

export interface PythonRunState {
  repo: string;
  database: string;
  counter: number;
}


const SOURCE_ROOT = 'src/pyharness';
const BROKEN = 'def broken_(:\n';

function sourceFiles(repo: string): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(repo, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.py')) found.push(child);
    }
  };
  if (existsSync(path.join(repo, SOURCE_ROOT))) walk(SOURCE_ROOT);
  return found;
}

/** A module's dotted name under the src layout: `src/pyharness/tools/shell.py` → `pyharness.tools.shell`. */
function moduleOf(file: string): string {
  return file.slice('src/'.length).replace(/\.py$/, '').replace(/\/__init__$/, '').split('/').join('.');
}

const nameOf = (unit: Unit): string => unit.symbol.slice(unit.symbol.lastIndexOf('.') + 1);
const wordPattern = (word: string): RegExp => new RegExp(`(?<![A-Za-z0-9_])${word}(?![A-Za-z0-9_])`, 'g');

/** Applies one plan to the tree as it is now; returns what it did, in words, for a failure's report. */
export function applyPythonEdit(state: PythonRunState, plan: PythonEditPlan): string {
  const pick = new Picker(plan.picks);
  const files = sourceFiles(state.repo);
  const read = (file: string): string => readFileSync(path.join(state.repo, file), 'utf8');
  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(state.repo, file)), { recursive: true });
    writeFileSync(path.join(state.repo, file), text);
  };
  const units = openHandbook(state.repo, { database: state.database })
    .graph.toData()
    .units.filter((unit) => files.includes(unit.file) && unit.kind !== 'file');
  const topLevel = units.filter((unit) => unit.parent === unit.file && (unit.kind === 'function' || unit.kind === 'class'));
  const fresh = (base: string): string => `${base}_${(state.counter += 1)}`;
  const file = pick.one(files);
  if (!file) return 'no file left';

  switch (plan.kind) {
    case 'add-function': {
      const callee = pick.one(topLevel.filter((unit) => unit.kind === 'function'));
      const name = fresh('helper');
      const body = callee && callee.file === file ? `    return ${nameOf(callee)}\n` : '    return None\n';
      write(file, `${read(file)}\n\ndef ${name}(value=None):\n${body}`);
      return `add function ${name} to ${file}`;
    }
    case 'add-call': {
      const caller = pick.one(units.filter((unit) => unit.kind === 'function' || unit.kind === 'method'));
      const callee = pick.one(topLevel);
      if (!caller || !callee) return 'add-call: nothing to call';
      const lines = read(caller.file).split('\n');
      const defLine = lines.findIndex((line, index) => index >= caller.startLine - 1 && /^\s*(async\s+)?def\s/.test(line));
      if (defLine < 0) return 'add-call: no def line';
      const indent = `${/^\s*/.exec(lines[defLine]!)![0]}    `;
      const importLine = callee.file === caller.file ? [] : [`${indent}from ${moduleOf(callee.file)} import ${nameOf(callee)}`];
      lines.splice(defLine + 1, 0, ...importLine, `${indent}${nameOf(callee)}()`);
      // A def whose signature runs over several lines takes the call inside its parameters: broken code, which sync must survive too.
      write(caller.file, lines.join('\n'));
      return `call ${callee.id} from ${caller.id}`;
    }
    case 'rename-everywhere': {
      const unit = pick.one(topLevel);
      if (!unit) return 'rename: nothing';
      const name = fresh(nameOf(unit));
      for (const each of files) {
        const text = read(each);
        const renamed = text.replace(wordPattern(nameOf(unit)), name);
        if (renamed !== text) write(each, renamed);
      }
      return `rename ${nameOf(unit)} to ${name} everywhere`;
    }
    case 'delete-unit':
    case 'move-unit': {
      const unit = pick.one(topLevel);
      if (!unit) return `${plan.kind}: nothing`;
      const lines = read(unit.file).split('\n');
      const cut = lines.splice(unit.startLine - 1, unit.endLine - unit.startLine + 1);
      write(unit.file, lines.join('\n'));
      if (plan.kind === 'delete-unit') return `delete ${unit.id}`;
      const target = pick.one(files.filter((each) => each !== unit.file)) ?? unit.file;
      write(target, `${read(target)}\n\n${cut.join('\n')}\n`);
      return `move ${unit.id} to ${target}`;
    }
    case 'add-file': {
      const imported = pick.one(topLevel);
      const folder = pick.one([...new Set(files.map((each) => path.posix.dirname(each)))]) ?? SOURCE_ROOT;
      const name = `${folder}/${fresh('extra')}.py`;
      const use = imported ? `from ${moduleOf(imported.file)} import ${nameOf(imported)}\n\n\ndef use_it():\n    return ${nameOf(imported)}()\n` : 'VALUE = 1\n';
      write(name, `"""An added module."""\n${use}`);
      return `add ${name}`;
    }
    case 'delete-file':
      rmSync(path.join(state.repo, file));
      return `delete ${file}`;
    case 'move-file': {
      const target = `${path.posix.dirname(file)}/${fresh('moved')}.py`;
      renameSync(path.join(state.repo, file), path.join(state.repo, target));
      return `move ${file} to ${target}`;
    }
    case 'break-syntax':
      write(file, `${read(file)}\n${BROKEN}`);
      return `break syntax in ${file}`;
    case 'fix-syntax': {
      const broken = files.find((each) => read(each).includes(BROKEN));
      if (!broken) return 'fix-syntax: nothing broken';
      write(broken, read(broken).replace(BROKEN, ''));
      return `fix syntax in ${broken}`;
    }
    case 'change-bases': {
      const classUnit = pick.one(topLevel.filter((unit) => unit.kind === 'class'));
      const base = pick.one(topLevel.filter((unit) => unit.kind === 'class' && unit.file === classUnit?.file && unit.id !== classUnit?.id));
      if (!classUnit) return 'change-bases: no class';
      const lines = read(classUnit.file).split('\n');
      const at = lines.findIndex((line, index) => index >= classUnit.startLine - 1 && /^\s*class\s/.test(line));
      if (at < 0) return 'change-bases: no class line';
      lines[at] = lines[at]!.replace(/class\s+(\w+)(\([^)]*\))?\s*:/, (_whole, name: string) => `class ${name}${base ? `(${nameOf(base)})` : ''}:`);
      write(classUnit.file, lines.join('\n'));
      return `bases of ${classUnit.id} now ${base ? nameOf(base) : 'none'}`;
    }
    case 'edit-reexport': {
      const init = pick.one(files.filter((each) => each.endsWith('/__init__.py')));
      const exported = pick.one(topLevel);
      if (!init || !exported) return 'edit-reexport: nothing';
      const text = read(init);
      const line = `from ${moduleOf(exported.file)} import ${nameOf(exported)}\n`;
      write(init, text.includes(line) ? text.replace(line, '') : `${text}${line}`);
      return `${text.includes(line) ? 'drop' : 'add'} re-export of ${exported.id} in ${init}`;
    }
    case 'add-state': {
      const method = pick.one(units.filter((unit) => unit.kind === 'method' || unit.kind === 'constructor'));
      if (!method) return 'add-state: no method';
      const lines = read(method.file).split('\n');
      const at = lines.findIndex((line, index) => index >= method.startLine - 1 && /^\s*(async\s+)?def\s.*:\s*$/.test(line));
      if (at < 0) return 'add-state: no one-line def';
      const indent = `${/^\s*/.exec(lines[at]!)![0]}    `;
      const field = pick.one(['history', 'tokens', 'calls', fresh('seen')])!;
      lines.splice(at + 1, 0, `${indent}self.${field} = getattr(self, ${JSON.stringify(field)}, 0)`);
      write(method.file, lines.join('\n'));
      return `write self.${field} in ${method.id}`;
    }
    case 'shift-lines':
      write(file, `# a comment that moves every line down\n\n${read(file)}`);
      return `shift ${file}`;
  }
}
