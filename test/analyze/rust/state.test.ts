import { describe, expect, it } from 'vitest';
import { access, findEdge, resolveSources, rs } from './rust-kit.js';

const SESSION = rs`
  use std::collections::HashMap;
  use std::sync::{Arc, Mutex, RwLock};

  pub struct Counters { pub turns: u32 }

  pub struct Registry { entries: Vec<String> }
  impl Registry {
      pub fn add(&mut self, entry: String) { self.entries.push(entry); }
      pub fn count(&self) -> usize { self.entries.len() }
  }

  pub struct Session {
      pub count: u32,
      items: Vec<String>,
      index: HashMap<String, usize>,
      history: Arc<Mutex<Vec<String>>>,
      counters: Arc<Mutex<Counters>>,
      cache: RwLock<Vec<String>>,
      registry: Registry,
      name: String,
  }

  impl Session {
      pub fn step(&mut self, item: String) {
          self.count += 1;
          self.items.push(item.clone());
          self.index.insert(item, self.count as usize);
          self.items[0] = String::new();
          self.name = String::from("renamed");
      }

      pub fn record(&self, line: String) {
          self.history.lock().unwrap().push(line);
          let mut guard = self.counters.lock().unwrap();
          guard.turns = 1;
          self.cache.write().unwrap().clear();
          let _ = self.cache.read().unwrap().len();
      }

      pub fn handles(&mut self) {
          let items = &mut self.items;
          items.clear();
          *self.counters.lock().unwrap() = Counters { turns: 0 };
          self.index.entry(String::new()).or_insert(0);
      }

      pub fn through_methods(&mut self) -> usize {
          self.registry.add(String::new());
          self.registry.count()
      }

      pub fn reads(&self) -> usize {
          self.items.len() + self.name.len()
      }
  }

  pub fn outside(session: &mut Session) {
      session.count = 0;
  }
`;

describe('Rust state: fields', () => {
  const { file } = resolveSources({ 'src/session.rs': SESSION });
  const session = file('src/session.rs');
  const id = (name: string) => `src/session.rs#${name}`;

  it('writes a field by `self.x = v`, reads and writes it by `+=`, reads it by `self.x`', () => {
    expect(access(session.edges, id('Session.step'), id('Session.name'))).toBe('writes 29');
    expect(access(session.edges, id('Session.step'), id('Session.count'))).toBe('reads 25,27 writes 25');
    expect(access(session.edges, id('Session.reads'), id('Session.items'))).toBe('reads 53');
  });

  it('writes a container field changed in place: push, insert, an item assigned', () => {
    expect(access(session.edges, id('Session.step'), id('Session.items'))).toBe('reads 26,28 writes 26,28');
    expect(access(session.edges, id('Session.step'), id('Session.index'))).toBe('reads 27 writes 27');
  });

  it('writes a field changed through its lock: the chain, a guard held in a local, a write lock; a read lock only reads', () => {
    expect(access(session.edges, id('Session.record'), id('Session.history'))).toBe('reads 33 writes 33');
    expect(access(session.edges, id('Session.record'), id('Session.counters'))).toBe('reads 34 writes 35');
    expect(access(session.edges, id('Session.record'), id('Counters.turns'))).toBe('writes 35');
    expect(access(session.edges, id('Session.record'), id('Session.cache'))).toBe('reads 36,37 writes 36');
  });

  it('writes through `&mut` handles: a reborrow, a deref of a guard, an entry', () => {
    expect(access(session.edges, id('Session.handles'), id('Session.items'))).toBe('reads 41 writes 42');
    expect(access(session.edges, id('Session.handles'), id('Session.counters'))).toBe('reads 43 writes 43');
    expect(access(session.edges, id('Session.handles'), id('Session.index'))).toBe('reads 44 writes 44');
  });

  it('writes a field whose `&mut self` method is called, reads it for a `&self` one', () => {
    expect(access(session.edges, id('Session.through_methods'), id('Session.registry'))).toBe('reads 48,49 writes 48');
    expect(findEdge(session.edges, 'calls', id('Session.through_methods'), id('Registry.add'))).toBeDefined();
  });

  it('reaches a field through a typed parameter', () => {
    expect(access(session.edges, id('outside'), id('Session.count'))).toBe('writes 58');
  });

  it('lines a slot at the field’s declaration, typed as written, owned by its struct', () => {
    expect(session.slots.find((slot) => slot.id === id('Session.history'))).toEqual({
      id: id('Session.history'), kind: 'field', file: 'src/session.rs', owner: id('Session'), name: 'history', line: 16, type: 'Arc<Mutex<Vec<String>>>',
    });
    for (const { owner } of session.slots) expect([id('Session'), id('Counters'), id('Registry')]).toContain(owner);
  });
});

describe('Rust state: statics', () => {
  const { file } = resolveSources({
    'src/lib.rs': 'pub mod state;\npub mod user;\n',
    'src/state.rs': rs`
      use std::sync::atomic::{AtomicUsize, Ordering};
      use std::sync::{Mutex, OnceLock};

      pub static COUNTER: AtomicUsize = AtomicUsize::new(0);
      pub static mut OPENED: u32 = 0;
      pub static NAME: &str = "harness";
      pub const LIMIT: usize = 3;
      static LOG: OnceLock<Mutex<Vec<String>>> = OnceLock::new();

      lazy_static! {
          pub static ref REGISTRY: Mutex<Vec<String>> = Mutex::new(Vec::new());
      }

      pub fn bump() -> usize {
          unsafe { OPENED += 1; }
          LOG.get_or_init(|| Mutex::new(Vec::new())).lock().unwrap().push(NAME.to_string());
          COUNTER.fetch_add(1, Ordering::SeqCst) + LIMIT
      }
    `,
    'src/user.rs': rs`
      use crate::state::{COUNTER, REGISTRY};
      use std::sync::atomic::Ordering;

      pub fn register(name: String) -> usize {
          REGISTRY.lock().unwrap().push(name);
          COUNTER.load(Ordering::SeqCst)
      }
    `,
  });
  const state = file('src/state.rs');
  const user = file('src/user.rs');

  it('makes a slot of a static mut, an atomic, a lock, a lazy_static: the static’s own unit id', () => {
    expect(state.slots.map((slot) => slot.id)).toEqual(['src/state.rs#COUNTER', 'src/state.rs#LOG', 'src/state.rs#OPENED']);
    expect(state.slots.find((slot) => slot.id === 'src/state.rs#COUNTER')).toEqual({
      id: 'src/state.rs#COUNTER', kind: 'module-variable', file: 'src/state.rs', owner: 'src/state.rs', name: 'COUNTER', line: 4, type: 'AtomicUsize',
    });
    expect(user.slots.map((slot) => slot.id)).toEqual(['src/state.rs#COUNTER', 'src/state.rs#REGISTRY']);
  });

  it('reads and writes statics: `+=` in unsafe, a lock pushed to, an atomic added to or loaded', () => {
    expect(access(state.edges, 'src/state.rs#bump', 'src/state.rs#OPENED')).toBe('reads 15 writes 15');
    expect(access(state.edges, 'src/state.rs#bump', 'src/state.rs#LOG')).toBe('reads 16 writes 16');
    expect(access(state.edges, 'src/state.rs#bump', 'src/state.rs#COUNTER')).toBe('reads 17 writes 17');
    expect(access(user.edges, 'src/user.rs#register', 'src/state.rs#REGISTRY')).toBe('reads 5 writes 5');
    expect(access(user.edges, 'src/user.rs#register', 'src/state.rs#COUNTER')).toBe('reads 6');
  });

  it('references consts and statics nothing can change', () => {
    expect(findEdge(state.edges, 'references', 'src/state.rs#bump', 'src/state.rs#NAME')).toBeDefined();
    expect(findEdge(state.edges, 'references', 'src/state.rs#bump', 'src/state.rs#LIMIT')).toBeDefined();
    expect(state.slots.map((slot) => slot.id)).not.toContain('src/state.rs#NAME');
  });
});
