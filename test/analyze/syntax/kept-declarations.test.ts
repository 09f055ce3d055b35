import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExtractedFile, FileInput } from '../../../src/analyze/front-end.js';
import type { Unit } from '../../../src/graph/model.js';
import { extractGoFile } from '../../../src/analyze/go/extract-go-file.js';
import { extractRustFile } from '../../../src/analyze/rust/extract-rust-file.js';
import { RecentTrees } from '../../../src/analyze/syntax/recent-trees.js';

/**
 * A warm session extracts an edited file again reusing what it read of every declaration the
 * edit left alone (KeptDeclarations). Whatever the edits, the file so extracted must be exactly
 * what a cold extraction of the same text gives: units, facts, digest, warnings, errors.
 */

const fixture = (file: string): string => readFileSync(path.join(import.meta.dirname, '../../../fixtures', file), 'utf8');

interface Language {
  path: string;
  text: string;
  extract: (file: FileInput) => ExtractedFile;
  /** Where a declaration starts at the top of the file. */
  topLevel: RegExp;
  /** Where a function's body opens: a statement can go on the next line. */
  bodyOpens: RegExp;
  statement: (n: number) => string;
  /** A statement that binds locals, which number every later local of the file again. */
  binding: (n: number) => string;
  declaration: (name: string, n: number) => string;
  /** A name a declaration already has, or gets, more than once. */
  duplicate: string;
  /** The names functions are declared with. */
  functionNames: RegExp;
  comment: (n: number) => string;
  broken: string;
  typeName: RegExp;
  /** The units a front end reuses when an edit leaves them alone. */
  reusable: (unit: Unit) => boolean;
}

const GO_EXTRA = `
// Mode says how a run goes.
type Mode int

// The modes, in order.
const (
	// Quiet says nothing.
	Quiet Mode = iota
	Loud
	Louder // the loudest
)

var (
	first, second = pair()
	// third is documented.
	third = New(Config{}, nil, nil, nil, nil)
)

func pair() (int, int) { return 1, 2 }

func init() { _ = first }

// Later is declared after its methods' first use.
func (l *Later) Touch(x int) int {
	y := x + 1
	for i, v := range []int{y} {
		y += i + v
	}
	return l.count + y
}

// Later counts.
type Later struct {
	// count is how many.
	count int
	name, alias string // both names
	*Config
}

type Reader interface {
	Read(p []byte) (int, error)
	Later
}

func init() { second++ }

func Map[T any](xs []T, f func(T) T) []T {
	out := make([]T, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
`;

const GO: Language = {
  path: 'internal/agent/loop.go',
  text: fixture('go-harness/internal/agent/loop.go') + GO_EXTRA,
  extract: extractGoFile,
  topLevel: /^(func|type|var|const) /,
  bodyOpens: /^func .*\{$/,
  statement: (n) => `\t_ = ${n}`,
  binding: (n) => `\tv${n}, w${n} := pair()\n\t_, _ = v${n}, w${n}`,
  declaration: (name, n) => `func ${name}() int {\n\tz${n} := ${n}\n\treturn z${n}\n}`,
  duplicate: 'init',
  functionNames: /^func (\w+)\(/gm,
  comment: (n) => `// note ${n}`,
  broken: 'func broken_( {',
  typeName: /^type (\w+)/,
  reusable: () => true,
};

const RUST_EXTRA = `
/// Modes a run goes in.
#[derive(Debug, Clone, Copy)]
pub enum Mode {
    Quiet,
    Loud,
}

static COUNT: AtomicUsize = AtomicUsize::new(0);

lazy_static! {
    /// The shared registry.
    static ref REGISTRY: Mutex<Vec<String>> = Mutex::new(Vec::new());
}

macro_rules! twice {
    ($e:expr) => {
        $e + $e
    };
}

/// Engine runs steps; documented before its attributes.
#[derive(Default)]
pub struct Engine<T> {
    /// How many steps ran.
    pub steps: usize,
    items: Vec<T>,
}

impl<T: Clone> Engine<T> {
    /// A fresh engine.
    pub fn new() -> Self {
        Engine { steps: 0, items: Vec::new() }
    }

    #[inline]
    pub fn step(&mut self, item: T) -> usize {
        let copy = item.clone();
        self.items.push(copy);
        for (i, x) in self.items.iter().enumerate() {
            let _ = (i.max(1), x);
        }
        if let Some(first) = self.items.first() {
            let _ = first.clone();
        }
        self.steps += 1;
        self.steps
    }

    // A plain comment right above.
    fn count(&self) -> usize {
        let Mode::Quiet = Mode::Quiet else { return 0 };
        let n = twice!(self.items.len());
        COUNT.fetch_add(n, Ordering::SeqCst)
    }

    pub fn count(&self, extra: usize) -> usize {
        let total = self.steps + extra;
        total
    }

    const LIMIT: usize = 8;

    fn nested(&self) -> usize {
        fn inner(x: usize) -> usize {
            x + 1
        }
        inner(self.steps)
    }

    fn written(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = write!(out, "{}", self.steps);
        out
    }

    fn rows(&self) -> Vec<String> {
        struct Row {
            name: String,
        }
        impl std::fmt::Display for Row {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.name)
            }
        }
        trait Named: std::fmt::Display {
            fn named(&self) -> String {
                self.to_string()
            }
        }
        impl Named for Row {}
        const LIMIT: usize = 3;
        macro_rules! row {
            ($n:expr) => {
                Row { name: $n.to_string() }
            };
        }
        mod local {
            pub fn one() -> usize {
                1
            }
        }
        let [first, ..] = [row!("a"), row!("b")];
        vec![first.named(); LIMIT + local::one()]
    }

    async fn later(&self) -> usize {
        let (a, b) = (1, 2);
        a + b + self.steps
    }
}

impl<T> Drop for Engine<T> {
    fn drop(&mut self) {
        let [first, ..] = [0, 1] else { return };
        let _ = first.max(1);
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            Mode::Quiet => "quiet",
            Mode::Loud => "loud",
        };
        write!(f, "{}", text)
    }
}

pub mod inner {
    use super::Engine;

    pub fn make() -> Engine<u8> {
        let engine = Engine::new();
        engine
    }

    impl Engine<u8> {
        pub fn byte(&self) -> u8 {
            let b = 1;
            b
        }
    }
}

pub fn count() -> usize {
    let value = COUNT.load(Ordering::SeqCst);
    value
}

#[cfg(not(test))]
fn count() -> usize {
    let [n, ..] = [COUNT.load(Ordering::SeqCst), 0];
    n.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps() {
        let mut engine = Engine::<u8>::new();
        assert_eq!(engine.step(1), 1);
    }
}
`;

const RUST: Language = {
  path: 'crates/core/src/session.rs',
  text: fixture('rust-harness/crates/core/src/session.rs') + RUST_EXTRA,
  extract: extractRustFile,
  topLevel: /^( {4})?(pub )?(async )?(fn|struct|enum|static|const|impl|mod|macro_rules!|trait) /,
  bodyOpens: /^( {4})?(pub )?(async )?fn .*\{$/,
  statement: (n) => `        let _ = ${n};`,
  binding: (n) => `        let (v${n}, w${n}) = (1, 2);\n        let [p${n}, ..] = [v${n}, w${n}];\n        let _ = (p${n}, w${n});`,
  declaration: (name, n) => `    fn ${name}(&self) -> usize {\n        let z${n} = ${n};\n        let _ = (z${n},);\n        z${n}\n    }`,
  duplicate: 'count',
  functionNames: /^ *(?:pub )?fn (\w+)/gm,
  comment: (n) => `    /// note ${n}`,
  broken: 'fn broken_( {',
  typeName: /^(?:impl(?:<[^>]*>)? |pub struct |pub enum )(\w+)/,
  // Rust reuses fns at the top and in top-level impls, with what their bodies declare; other items are read again.
  reusable: (unit) => /^Engine\.\w+\./.test(unit.symbol) || ((unit.kind === 'function' || unit.kind === 'method') && !/^(inner\.|twice$)/.test(unit.symbol)),
};

const KINDS = ['statement', 'binding', 'delete-line', 'add-declaration', 'remove-declaration', 'comment', 'uncomment', 'blank', 'break', 'fix', 'raw', 'rename-type', 'retype', 'same-length'] as const;
const plan = fc.record({ kind: fc.constantFrom(...KINDS), picks: fc.array(fc.nat({ max: 9_999 }), { minLength: 3, maxLength: 3 }) });
const RAW = ['', '\n', ' ', '}', '{', 'x', '// c\n', '\n\n'];

/** Applies one planned edit to the text as it is now; the same plans on the same text give the same edits. */
function applyEdit(language: Language, text: string, kind: (typeof KINDS)[number], picks: number[], n: number): string {
  const lines = text.split('\n');
  const pickLine = (test: (line: string) => boolean): number | undefined => {
    const found = lines.flatMap((line, index) => (test(line) ? [index] : []));
    return found.length === 0 ? undefined : found[picks[0]! % found.length];
  };
  const insertAt = (at: number | undefined, ...added: string[]): string => {
    if (at === undefined) return text;
    lines.splice(at, 0, ...added);
    return lines.join('\n');
  };
  switch (kind) {
    case 'statement':
    case 'binding': {
      const at = pickLine((line) => language.bodyOpens.test(line));
      return insertAt(at === undefined ? undefined : at + 1, kind === 'statement' ? language.statement(n) : language.binding(n));
    }
    case 'delete-line':
      lines.splice(picks[0]! % lines.length, 1);
      return lines.join('\n');
    case 'add-declaration': {
      const names = [`fresh${n}`, language.duplicate, ...[...text.matchAll(language.functionNames)].map((match) => match[1]!)];
      const name = names[picks[1]! % names.length]!;
      const doc = picks[2]! % 2 === 0 ? [language.comment(n)] : [];
      return insertAt(pickLine((line) => language.topLevel.test(line)), ...doc, language.declaration(name, n), '');
    }
    case 'remove-declaration': {
      const at = pickLine((line) => language.topLevel.test(line));
      if (at === undefined) return text;
      let end = at;
      const indent = /^\s*/.exec(lines[at]!)![0];
      const closes = (line: string): boolean => line.startsWith(`${indent}}`) || line.startsWith(`${indent})`);
      if (lines[at]!.endsWith('{') || lines[at]!.endsWith('(')) while (end < lines.length - 1 && !closes(lines[end]!)) end += 1;
      lines.splice(at, end - at + 1);
      return lines.join('\n');
    }
    case 'comment':
      return insertAt(pickLine((line) => language.topLevel.test(line) || /^\s*\/\//.test(line)), language.comment(n));
    case 'uncomment': {
      const at = pickLine((line) => /^\s*\/\//.test(line));
      if (at !== undefined) lines.splice(at, 1);
      return lines.join('\n');
    }
    case 'blank':
      if (picks[1]! % 2 === 0) return insertAt(picks[0]! % lines.length, '');
      return ((at) => (at === undefined ? text : (lines.splice(at, 1), lines.join('\n'))))(pickLine((line) => line.trim() === ''));
    case 'break':
      return insertAt(picks[0]! % lines.length, language.broken);
    case 'fix':
      return lines.filter((line) => line !== language.broken).join('\n');
    case 'raw': {
      const at = picks[0]! % (text.length + 1);
      return text.slice(0, at) + RAW[picks[2]! % RAW.length] + text.slice(Math.min(text.length, at + (picks[1]! % 4)));
    }
    case 'rename-type': {
      const at = pickLine((line) => language.typeName.test(line));
      if (at === undefined) return text;
      lines[at] = lines[at]!.replace(language.typeName, (whole, name: string) => whole.replace(name, `${name}R${n}`));
      return lines.join('\n');
    }
    case 'retype': {
      // A type renamed without moving any offset: what stands after it is lent unshifted, the very nodes read before.
      const at = pickLine((line) => language.typeName.test(line));
      if (at === undefined) return text;
      lines[at] = lines[at]!.replace(language.typeName, (whole, name: string) => whole.replace(name, `${name.slice(0, -1)}${name.endsWith('Q') ? 'Z' : 'Q'}`));
      return lines.join('\n');
    }
    case 'same-length': {
      // A space turned into a line break: no offset moves, every line after does.
      const spaces = [...text.matchAll(/ /g)].map((match) => match.index);
      if (spaces.length === 0) return text;
      const at = spaces[picks[0]! % spaces.length]!;
      return `${text.slice(0, at)}\n${text.slice(at + 1)}`;
    }
  }
}

function input(language: Language, text: string, recentTrees?: RecentTrees): FileInput {
  return { path: language.path, text, hash: String(text.length), lines: text.split('\n').length, test: false, ...(recentTrees ? { recentTrees } : {}) };
}

/** Extracts every version warm (one session's trees, so kept parts are reused) and cold, and compares. */
function expectWarmEqualsCold(language: Language, edits: ReadonlyArray<{ kind: (typeof KINDS)[number]; picks: number[] }>): void {
  const trees = new RecentTrees(2);
  let text = language.text;
  language.extract(input(language, text, trees));
  edits.forEach(({ kind, picks }, n) => {
    text = applyEdit(language, text, kind, picks, n);
    const warm = language.extract(input(language, text, trees));
    const cold = language.extract(input(language, text));
    expect(JSON.stringify(warm), `after ${kind} ${picks.join(',')}`).toBe(JSON.stringify(cold));
    expect(warm).toStrictEqual(cold);
  });
}

describe('kept declarations', () => {
  for (const [name, language] of [['go', GO], ['rust', RUST]] as const) {
    it(`extract an edited file as a cold extraction does, over random edits (${name})`, () => {
      fc.assert(
        fc.property(fc.array(plan, { minLength: 1, maxLength: 10 }), (edits) => expectWarmEqualsCold(language, edits)),
        { numRuns: 60, seed: 20_261_207 },
      );
    });

    it(`reuse what was read of the declarations an edit leaves alone (${name})`, () => {
      const trees = new RecentTrees(2);
      language.extract(input(language, language.text, trees));
      const lines = language.text.split('\n');
      const opens = lines.flatMap((line, index) => (language.bodyOpens.test(line) ? [index] : []));
      const at = opens[Math.floor(opens.length / 2)]!;
      // A statement added, then replaced by one of the same lines: the second time nothing moves, and only the edited function is read again.
      lines.splice(at + 1, 0, language.statement(1));
      const once = language.extract(input(language, lines.join('\n'), trees));
      lines[at + 1] = language.statement(2);
      const twice = language.extract(input(language, lines.join('\n'), trees));
      const edited = twice.units.filter((unit) => unit.startLine <= at + 1 && at + 1 <= unit.endLine && unit.kind !== 'file');
      expect(edited).toHaveLength(1);
      expect(twice.units.filter((unit) => language.reusable(unit) && !edited.includes(unit)).length).toBeGreaterThan(5);
      for (const [index, unit] of twice.units.entries()) {
        if (unit.kind === 'file' || edited.includes(unit) || !language.reusable(unit)) continue;
        expect(unit, unit.id).toBe(once.units[index]);
      }
    });
  }
});
