import { describe, expect, it } from 'vitest';
import { edgeList, extract, findEdge, resolveSources, rs, unitOf, unitsOf } from './rust-kit.js';

const SESSION = rs`
  //! Sessions: what a run said and did.
  //! Kept across runs.

  use std::sync::{Arc, Mutex};

  /// The most turns a session keeps.
  pub const MAX_TURNS: usize = 40;
  static mut OPENED: u32 = 0;
  const _: () = ();

  /// One run's conversation.
  #[derive(Debug, Clone)]
  pub struct Session {
      /// Its id.
      pub id: String,
      history: Arc<Mutex<Vec<String>>>,
  }

  pub struct Pair(pub u8, u8);

  pub enum Role { User, Tool(String) }

  pub type Shared = Arc<Mutex<Session>>;

  /// Something that answers.
  pub trait Provider: Send {
      fn name(&self) -> &str;
      /// Retries.
      fn retry(&self) -> String { self.name().to_string() }
      const LIMIT: u32 = 3;
  }

  impl Session {
      pub fn new() -> Self { Session { id: String::new(), history: Arc::new(Mutex::new(Vec::new())) } }
      fn run(&self) {
          fn helper() {}
          struct Local { x: u8 }
          helper();
      }
      pub const KIND: &'static str = "session";
  }

  impl Provider for Session {
      fn name(&self) -> &str { &self.id }
  }

  impl std::fmt::Display for Session {
      fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "{}", self.id) }
  }

  impl From<String> for Session {
      fn from(id: String) -> Self { Session { id, history: Arc::new(Mutex::new(Vec::new())) } }
  }

  impl From<u32> for Session {
      fn from(id: u32) -> Self { Session::from(id.to_string()) }
  }

  pub mod store {
      //! Where sessions go.
      pub fn save() {}
      mod inner { pub fn deep() {} }
  }

  #[macro_export]
  macro_rules! trace { ($x:expr) => { println!("{}", $x) }; }

  lazy_static! {
      /// Every session by id.
      pub static ref REGISTRY: Mutex<Vec<String>> = Mutex::new(Vec::new());
  }

  fn twice() {}
  fn twice() {}

  #[cfg(test)]
  mod tests {
      use super::*;
      #[test]
      fn opens() { Session::new(); }
  }

  #[test]
  fn stray_test() {}

  #[cfg(not(test))]
  fn only_in_release() {}
`;

describe('Rust units', () => {
  const units = unitsOf('src/session.rs', SESSION);

  it('puts the file unit first, its doc from the `//!` comments at the top', () => {
    expect(units[0]).toEqual({
      id: 'src/session.rs', kind: 'file', file: 'src/session.rs', symbol: '', startLine: 1, endLine: SESSION.split('\n').length, signature: 'src/session.rs',
      doc: 'Sessions: what a run said and did. Kept across runs.', exported: false, hash: expect.any(String), literals: '', words: '',
    });
  });

  it('gives each item a dotted symbol and a kind; trait impls name their trait, inline modules nest their items', () => {
    expect(units.slice(1).map((unit) => `${unit.symbol}:${unit.kind}`)).toEqual([
      'MAX_TURNS:variable',
      'OPENED:variable',
      'Session:class',
      'Session.id:property',
      'Session.history:property',
      'Pair:class',
      'Role:enum',
      'Shared:type',
      'Provider:interface',
      'Provider.retry:method',
      'Provider.LIMIT:variable',
      'Session.new:method',
      'Session.run:method',
      'Session.run.helper:function',
      'Session.run.Local:class',
      'Session.run.Local.x:property',
      'Session.KIND:variable',
      'Session.Provider.name:method',
      'Session.Display.fmt:method',
      'Session.From.from:method',
      'Session.From.from~2:method',
      'store:type',
      'store.save:function',
      'store.inner:type',
      'store.inner.deep:function',
      'trace:function',
      'REGISTRY:variable',
      'twice:function',
      'twice~2:function',
      'only_in_release:function',
    ]);
  });

  it('leaves test code out: a #[cfg(test)] module and #[test] fns', () => {
    expect(units.some((unit) => unit.symbol.startsWith('tests') || unit.symbol === 'stray_test')).toBe(false);
  });

  it('puts impl members under their type when the same scope declares it', () => {
    expect(unitOf(units, 'Session.new').parent).toBe('src/session.rs#Session');
    expect(unitOf(units, 'Session.Provider.name').parent).toBe('src/session.rs#Session');
    expect(unitOf(units, 'Session.run.helper').parent).toBe('src/session.rs#Session.run');
    expect(unitOf(units, 'store.inner.deep').parent).toBe('src/session.rs#store.inner');
    const elsewhere = unitsOf('src/other.rs', 'impl crate::session::Session { pub fn extra(&self) {} }\n');
    expect(unitOf(elsewhere, 'Session.extra').parent).toBe('src/other.rs');
  });

  it('starts a unit at its first attribute, leaves doc comments outside, ends it with its body', () => {
    const session = unitOf(units, 'Session');
    const lines = SESSION.split('\n');
    expect(lines[session.startLine - 1]).toBe('#[derive(Debug, Clone)]');
    expect(lines[session.endLine - 1]).toBe('}');
    expect(session.doc).toBe('One run’s conversation.'.replace('’', "'"));
    expect(unitOf(units, 'Session.id').doc).toBe('Its id.');
    expect(unitOf(units, 'store').doc).toBe('Where sessions go.');
    expect(unitOf(units, 'REGISTRY').doc).toBe('Every session by id.');
  });

  it('writes signatures up to the body', () => {
    expect(unitOf(units, 'Session').signature).toBe('pub struct Session');
    expect(unitOf(units, 'Pair').signature).toBe('pub struct Pair(pub u8, u8)');
    expect(unitOf(units, 'Provider').signature).toBe('pub trait Provider: Send');
    expect(unitOf(units, 'Session.Display.fmt').signature).toBe("fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result");
    expect(unitOf(units, 'Session.history').signature).toBe('history: Arc<Mutex<Vec<String>>>');
    expect(unitOf(units, 'MAX_TURNS').signature).toBe('pub const MAX_TURNS: usize = 40');
    expect(unitOf(units, 'Shared').signature).toBe('pub type Shared = Arc<Mutex<Session>>');
    expect(unitOf(units, 'trace').signature).toBe('macro_rules! trace');
    expect(unitOf(units, 'store').signature).toBe('pub mod store');
  });

  it('exports what `pub` makes visible outside the file: trait and trait-impl members with their trait, #[macro_export] macros', () => {
    const exported = units.filter((unit) => unit.exported).map((unit) => unit.symbol);
    expect(exported).toEqual([
      'MAX_TURNS', 'Session', 'Session.id', 'Pair', 'Role', 'Shared', 'Provider', 'Provider.retry', 'Provider.LIMIT', 'Session.new', 'Session.KIND',
      'Session.Provider.name', 'Session.Display.fmt', 'Session.From.from', 'Session.From.from~2', 'store', 'store.save', 'trace', 'REGISTRY',
    ]);
  });

  it('gives a test file its file unit and its imports only', () => {
    const extracted = extract('tests/session_test.rs', SESSION);
    expect(extracted.units.map((unit) => unit.kind)).toEqual(['file']);
    expect(extracted.facts.uses).toEqual([]);
    expect(extracted.facts.imports.map((fact) => fact.segments.join('::'))).toEqual(['std::sync::Arc', 'std::sync::Mutex', 'super']);
    for (const path of ['tests/a.rs', 'crates/x/benches/b.rs', 'src/tests.rs', 'src/foo_test.rs', 'src/foo_tests.rs']) expect(extract(path, '').units).toHaveLength(1);
    expect(extract('src/testing.rs', 'fn a() {}').units).toHaveLength(2);
  });

  it('digests each declaration by kind and signature, and the imports apart', () => {
    const digest = extract('src/session.rs', SESSION).digest;
    expect(Object.keys(digest)).toContain('Session.Provider.name');
    expect(Object.keys(digest)).toContain('*imports');
    expect(extract('src/session.rs', SESSION.replace('fn helper() {}', 'fn helper() { let x = 1; }')).digest).toEqual(digest);
    const headEdited = extract('src/session.rs', SESSION.replace('fn run(&self)', 'fn run(&mut self)')).digest;
    expect(headEdited['Session.run']).not.toBe(digest['Session.run']);
    expect(headEdited['Session.new']).toBe(digest['Session.new']);
    expect(extract('src/session.rs', SESSION.replace('use std::sync::{Arc, Mutex};', 'use std::sync::Arc;')).digest['*imports']).not.toBe(digest['*imports']);
  });

  it('contains each unit in its parent, from the line the unit starts on', () => {
    const { file } = resolveSources({ 'src/lib.rs': 'mod session;\n', 'src/session.rs': SESSION });
    const contains = edgeList(file('src/session.rs').edges, 'contains');
    expect(contains).toHaveLength(units.length - 1);
    expect(contains).toEqual(expect.arrayContaining([
      'src/session.rs -> src/session.rs#Session',
      'src/session.rs#Session -> src/session.rs#Session.Provider.name',
      'src/session.rs#store -> src/session.rs#store.inner',
      'src/session.rs#Provider -> src/session.rs#Provider.retry',
    ]));
    expect(findEdge(file('src/session.rs').edges, 'contains', 'src/session.rs#Session', 'src/session.rs#Session.new')?.lines).toEqual([unitOf(units, 'Session.new').startLine]);
  });
});
