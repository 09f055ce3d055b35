import { describe, expect, it } from 'vitest';
import { decodeSource } from '../../../src/analyze/source-text.js';
import { edgeList, extract, resolveSources, rs, unitOf } from './rust-kit.js';

describe('Rust bad input', () => {
  it('reads units from what parsed around a syntax error, and counts the error', () => {
    const source = rs`
      fn good() -> u32 { 1 }

      fn broken( { let x = ; }

      pub struct After { field: u8 }
      impl After { fn method(&self) -> u32 { good() } }
    `;
    const extracted = extract('src/m.rs', source);
    expect(extracted.parseErrors).toBeGreaterThan(0);
    expect(extracted.warning).toEqual({ line: 3, message: expect.stringMatching(/^(invalid syntax|missing .+)$/) });
    expect(extracted.units.map((unit) => unit.symbol)).toEqual(expect.arrayContaining(['good', 'After', 'After.field', 'After.method']));
    const { file } = resolveSources({ 'src/m.rs': source });
    expect(edgeList(file('src/m.rs').edges, 'calls')).toContain('src/m.rs#After.method -> src/m.rs#good');
  });

  it('names a token the parser had to insert', () => {
    const extracted = extract('src/m.rs', 'fn f() {\n    let x = 1\n}\nstruct S { a: u8 \n');
    expect(extracted.parseErrors).toBeGreaterThan(0);
    expect(extracted.warning?.line).toBeGreaterThanOrEqual(2);
  });

  it('reads NUL bytes and replacement characters (bytes that were no UTF-8) without throwing', () => {
    const latin1 = decodeSource(Buffer.concat([Buffer.from('fn caf'), Buffer.from([0xe9]), Buffer.from('() {}\nfn ok() -> &\'static str { "a\u0000b" }\n')]));
    expect(latin1).toContain('\uFFFD');
    const source = `${latin1}\u0000\nfn after() { ok(); }\n`;
    const extracted = extract('src/nul.rs', source);
    expect(unitOf(extracted.units, 'ok').kind).toBe('function');
    expect(() => resolveSources({ 'src/nul.rs': source })).not.toThrow();
  });

  it('reads an empty file and a file of comments', () => {
    expect(extract('src/empty.rs', '').units).toEqual([expect.objectContaining({ id: 'src/empty.rs', kind: 'file', endLine: 1 })]);
    expect(extract('src/comments.rs', '// nothing\n/* here */\n').units).toHaveLength(1);
    expect(() => resolveSources({ 'src/empty.rs': '' })).not.toThrow();
  });

  it('reads expressions nested far deeper than any stack allows', () => {
    const chain = `fn f() -> u32 { ${Array.from({ length: 20_000 }, (_, index) => `g${index}()`).join(' + ')} }\n`;
    const nested = `fn f() -> u32 { ${'('.repeat(3000)}1${')'.repeat(3000)} }\n`;
    const methods = `fn f() { x${'.m()'.repeat(5000)}; }\n`;
    const macros = `fn f() { ${'vec!['.repeat(3000)}1${']'.repeat(3000)}; }\n`;
    const types = `fn f(x: ${'Vec<'.repeat(3000)}u8${'>'.repeat(3000)}) {}\n`;
    for (const source of [chain, nested, methods, macros, types]) {
      const extracted = extract('src/deep.rs', source);
      expect(extracted.units.map((unit) => unit.symbol)).toEqual(['', 'f']);
      expect(() => resolveSources({ 'src/deep.rs': source })).not.toThrow();
    }
  });

  it('reads a 2 MB generated file in reasonable time', () => {
    let source = '';
    for (let index = 0; source.length < 2_000_000; index += 1) {
      source += `/// Generated ${index}.\npub struct Generated${index} { pub value: u32, items: Vec<String> }\n\nimpl Generated${index} {\n    pub fn method_${index}(&mut self, value: u32) -> u32 {\n        self.value = helper(value, "text ${index}");\n        self.items.push(format!("{}", self.value));\n        Generated${index}::other(self.value)\n    }\n    fn other(value: u32) -> u32 { value + ${index} }\n}\n\n`;
    }
    source += 'fn helper(value: u32, _text: &str) -> u32 { value }\n';
    const started = performance.now();
    const extracted = extract('src/generated.rs', source);
    const resolved = resolveSources({ 'src/generated.rs': source });
    const seconds = (performance.now() - started) / 1000;
    expect(extracted.parseErrors).toBe(0);
    expect(extracted.units.length).toBeGreaterThan(25_000);
    expect(resolved.file('src/generated.rs').resolvedCalls).toBe(resolved.file('src/generated.rs').callSites);
    // Generous for a slow, shared machine: parsing and copying the tree alone take a few seconds.
    expect(seconds).toBeLessThan(60);
  }, 120_000);

  it('ends on loops: an alias of itself, supertraits of each other, a type holding itself, a module at its own path', () => {
    const source = rs`
      #[path = "lib.rs"]
      mod again;
      type A = B;
      type B = A;
      pub trait Left: Right { fn left(&self) { self.right(); } }
      pub trait Right: Left { fn right(&self) { self.left(); } }
      pub struct Node { children: Vec<Node> }
      impl Node { pub fn walk(&self) { self.children[0].children[0].walk(); } }
      impl A { fn a(&self) {} }
      pub fn f(x: A) { x.a(); }
    `;
    const { file, resolved } = resolveSources({ 'src/lib.rs': source });
    expect(edgeList(resolved.heritage, 'extends')).toEqual(['src/lib.rs#Left -> src/lib.rs#Right', 'src/lib.rs#Right -> src/lib.rs#Left']);
    expect(edgeList(file('src/lib.rs').edges, 'calls')).toEqual(expect.arrayContaining(['src/lib.rs#Node.walk -> src/lib.rs#Node.walk', 'src/lib.rs#Left.left -> src/lib.rs#Right.right']));
  });
});

describe('Rust heritage', () => {
  it('extends a trait by its supertraits in the repository; implements a trait by each impl, through aliases and paths', () => {
    const { resolved } = resolveSources({
      'src/lib.rs': 'pub mod model;\npub mod tools;\n',
      'src/model.rs': rs`
        pub trait Named { fn name(&self) -> String; }
        pub trait Tool: Named + Send + std::fmt::Debug { fn run(&self); }
        #[derive(Debug)]
        pub struct Shell;
        pub type Alias = Shell;
      `,
      'src/tools.rs': rs`
        use crate::model::{Named, Tool};
        impl Named for crate::model::Alias { fn name(&self) -> String { String::new() } }
        impl Tool for crate::model::Shell { fn run(&self) {} }
        impl std::fmt::Display for crate::model::Shell {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { Ok(()) }
        }
      `,
    });
    expect(resolved.heritage.map((edge) => `${edge.kind} ${edge.from} -> ${edge.to} ${edge.lines.join(',')} ${edge.resolution}`).sort()).toEqual([
      'extends src/model.rs#Tool -> src/model.rs#Named 2 scope',
      'implements src/model.rs#Shell -> src/model.rs#Named 2 scope',
      'implements src/model.rs#Shell -> src/model.rs#Tool 3 scope',
    ]);
  });
});
