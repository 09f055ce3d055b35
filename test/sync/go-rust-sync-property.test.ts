import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook, openHandbook, syncHandbook } from '../../src/index.js';
import { Picker } from '../helpers/edit-generators.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';

/**
 * The sync invariant on a Go and on a Rust repository: after any sequence of edits, `sync` (kept
 * open, or opened from the store) equals a cold build. The edits are the ones every language has:
 * a function added, a call added to a body (which leaves what the file shows others alone, so the
 * other files' resolutions are reused), a unit cut or moved to another file, a name renamed everywhere, a file added,
 * deleted or moved, syntax broken and mended, lines shifted. A fixed seed, so CI sees the same
 * sequences every time; HANDBOOK_PROPERTY_SEED and HANDBOOK_PROPERTY_RUNS explore.
 */

const seed = Number(process.env.HANDBOOK_PROPERTY_SEED ?? 20_261_208);
const numRuns = Number(process.env.HANDBOOK_PROPERTY_RUNS ?? 10);
const SEARCH_LIMIT_MS = Math.max(90_000, numRuns * 6_000);

const KINDS = ['add-function', 'edit-body', 'rename-everywhere', 'delete-unit', 'move-unit', 'add-file', 'delete-file', 'move-file', 'break-syntax', 'fix-syntax', 'shift-lines'] as const;
const plan = fc.record({ kind: fc.constantFrom(...KINDS), picks: fc.array(fc.nat({ max: 9_999 }), { minLength: 4, maxLength: 4 }) });

interface Language {
  fixture: string;
  extension: string;
  /** A new function that calls `callee` (a name in the same file) or nothing. */
  addFunction(name: string, callee: string | undefined): string;
  /** A statement that calls `callee`, to open a function's body. */
  call(callee: string): string;
  /** A whole new file of the language, in the same package or module as `beside`. */
  newFile(beside: string, name: string): string;
  broken: string;
  comment: string;
}

const LANGUAGES: Record<'go' | 'rust', Language> = {
  go: {
    fixture: 'go-harness',
    extension: '.go',
    addFunction: (name, callee) => `\nfunc ${name}() {\n\t${callee ? `${callee}()` : 'return'}\n}\n`,
    call: (callee) => `\t${callee}()`,
    newFile: (beside, name) => `${/^package \w+/m.exec(beside)?.[0] ?? 'package main'}\n\nfunc ${name}() int {\n\treturn 1\n}\n`,
    broken: 'func broken_( {\n',
    comment: '// a comment that moves every line down\n\n',
  },
  rust: {
    fixture: 'rust-harness',
    extension: '.rs',
    addFunction: (name, callee) => `\npub fn ${name}() {\n    ${callee ? `${callee}();` : ''}\n}\n`,
    call: (callee) => `    ${callee}();`,
    newFile: (_beside, name) => `pub fn ${name}() -> u32 {\n    1\n}\n`,
    broken: 'fn broken_( {\n',
    comment: '// a comment that moves every line down\n\n',
  },
};

function sourceFiles(repo: string, extension: string): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(repo, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory() && entry.name !== '.handbook') walk(child);
      else if (entry.name.endsWith(extension)) found.push(child);
    }
  };
  walk('');
  return found;
}

function applyEdit(language: Language, repo: string, database: string, kind: (typeof KINDS)[number], pick: Picker, counter: { value: number }): string {
  const files = sourceFiles(repo, language.extension);
  const read = (file: string): string => readFileSync(path.join(repo, file), 'utf8');
  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  };
  const fresh = (base: string): string => `${base}_${(counter.value += 1)}`;
  const units = openHandbook(repo, { database }).graph.toData().units.filter((unit) => files.includes(unit.file) && unit.parent === unit.file && unit.kind === 'function');
  const file = pick.one(files);
  if (!file) return 'no file left';
  const nameOf = (symbol: string): string => symbol.slice(symbol.lastIndexOf('.') + 1).replace(/~\d+$/, '');
  switch (kind) {
    case 'add-function': {
      const callee = pick.one(units.filter((unit) => unit.file === file));
      const name = fresh('added');
      write(file, `${read(file)}${language.addFunction(name, callee && nameOf(callee.symbol))}`);
      return `add ${name} to ${file}`;
    }
    case 'edit-body': {
      // Any function of the repository, called from the first line of one whose body opens on its signature's line.
      const unit = pick.one(units.filter((each) => each.file === file && /\{\s*$/.test(read(file).split('\n')[each.startLine - 1] ?? '')));
      const callee = pick.one(units);
      if (!unit || !callee) return 'edit-body: nothing';
      const lines = read(file).split('\n');
      lines.splice(unit.startLine, 0, language.call(nameOf(callee.symbol)));
      write(file, lines.join('\n'));
      return `call ${callee.symbol} from ${unit.id}`;
    }
    case 'rename-everywhere': {
      const unit = pick.one(units);
      if (!unit) return 'rename: nothing';
      const old = nameOf(unit.symbol);
      const name = fresh(old);
      const word = new RegExp(`(?<![A-Za-z0-9_])${old}(?![A-Za-z0-9_])`, 'g');
      for (const each of files) {
        const text = read(each);
        if (word.test(text)) write(each, text.replace(word, name));
      }
      return `rename ${old} to ${name} everywhere`;
    }
    case 'delete-unit':
    case 'move-unit': {
      const unit = pick.one(units);
      if (!unit) return `${kind}: nothing`;
      const lines = read(unit.file).split('\n');
      const cut = lines.splice(unit.startLine - 1, unit.endLine - unit.startLine + 1);
      write(unit.file, lines.join('\n'));
      if (kind === 'delete-unit') return `delete ${unit.id}`;
      const target = pick.one(files.filter((each) => each !== unit.file)) ?? unit.file;
      write(target, `${read(target)}\n${cut.join('\n')}\n`);
      return `move ${unit.id} to ${target}`;
    }
    case 'add-file': {
      const name = `${path.posix.dirname(file)}/${fresh('extra')}${language.extension}`;
      write(name, language.newFile(read(file), fresh('value')));
      return `add ${name}`;
    }
    case 'delete-file':
      rmSync(path.join(repo, file));
      return `delete ${file}`;
    case 'move-file': {
      const target = `${path.posix.dirname(file)}/${fresh('moved')}${language.extension}`;
      renameSync(path.join(repo, file), path.join(repo, target));
      return `move ${file} to ${target}`;
    }
    case 'break-syntax':
      write(file, `${read(file)}\n${language.broken}`);
      return `break syntax in ${file}`;
    case 'fix-syntax': {
      const broken = files.find((each) => read(each).includes(language.broken));
      if (!broken) return 'fix-syntax: nothing broken';
      write(broken, read(broken).replace(language.broken, ''));
      return `fix syntax in ${broken}`;
    }
    case 'shift-lines':
      write(file, `${language.comment}${read(file)}`);
      return `shift ${file}`;
  }
}

describe.each(Object.entries(LANGUAGES))('sync equals a cold build after any sequence of edits to a %s repository', (_name, language) => {
  it(`holds for ${numRuns} generated sequences of 2-4 edits (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(plan, { minLength: 2, maxLength: 4 }), async (keepOpen, plans) => {
        const repo = path.join(scratchDirectory(), language.fixture);
        cpSync(path.join(PROJECT_ROOT, 'fixtures', language.fixture), repo, { recursive: true, filter: (source) => !source.split(path.sep).includes('.handbook') });
        const database = path.join(scratchDirectory(), 'handbook.db');
        const counter = { value: 0 };
        const done: string[] = [];
        let live: LiveHandbook | undefined;
        try {
          await buildHandbook(repo, { database });
          if (keepOpen) {
            live = await LiveHandbook.open(repo, { database });
            await live.sync();
          }
          for (const [position, step] of plans.entries()) {
            done.push(`${position + 1}. ${applyEdit(language, repo, database, step.kind, new Picker(step.picks), counter)}`);
            if (live) await live.sync();
            else await syncHandbook(repo, { database });
            try {
              await expectSameAsColdBuild(repo, database, `edit ${position + 1}`);
            } catch (error) {
              throw new Error(`${keepOpen ? 'kept-open LiveHandbook' : 'syncHandbook from the store'}, after:\n${done.join('\n')}\n${error instanceof Error ? error.message : String(error)}`, { cause: error });
            }
          }
        } finally {
          live?.close();
          rmSync(path.dirname(repo), { recursive: true, force: true });
          rmSync(path.dirname(database), { recursive: true, force: true });
        }
      }),
      { seed, numRuns, plugins: [fc.interruptAfterTimeLimit(SEARCH_LIMIT_MS)] },
    );
    expect(KINDS.length).toBeGreaterThan(8);
  }, SEARCH_LIMIT_MS + 60_000);
});
