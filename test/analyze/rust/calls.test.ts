import { describe, expect, it } from 'vitest';
import { edgeList, findEdge, resolveSources, rs } from './rust-kit.js';

describe('Rust calls through paths', () => {
  const { file } = resolveSources({
    'src/lib.rs': 'pub mod util;\npub mod session;\n',
    'src/util.rs': 'pub fn helper() {}\npub fn other() -> u32 { 1 }\n',
    'src/session.rs': rs`
      use crate::util;
      use crate::util::other as renamed;

      pub struct Session { id: u32 }
      pub struct Pair(u8, u8);
      pub struct Marker;
      pub enum Event { Started, Said(String), Moved { x: u8 } }

      impl Session {
          pub fn new() -> Self { Self::with_id(0) }
          fn with_id(id: u32) -> Self { Session { id } }
          pub fn make() -> Session { Self { id: 1 } }
      }

      pub fn top() {
          fn local() {}
          local();
          util::helper();
          crate::util::helper();
          renamed();
          Session::new();
          let _ = Pair(1, 2);
          let _ = Marker;
          let _ = Event::Said(String::new());
          let _ = Event::Moved { x: 1 };
          let _ = Event::Started;
      }
    `,
  });
  const session = file('src/session.rs');

  it('resolves a local fn, a module’s fn, an alias, an associated fn and Self::', () => {
    expect(edgeList(session.edges, 'calls')).toEqual([
      'src/session.rs#Session.new -> src/session.rs#Session.with_id',
      'src/session.rs#top -> src/session.rs#Session.new',
      'src/session.rs#top -> src/session.rs#top.local',
      'src/session.rs#top -> src/util.rs#helper',
      'src/session.rs#top -> src/util.rs#other',
    ]);
    expect(findEdge(session.edges, 'calls', 'src/session.rs#top', 'src/util.rs#helper')).toEqual({ kind: 'calls', from: 'src/session.rs#top', to: 'src/util.rs#helper', lines: [18, 19], resolution: 'scope', via: 'direct' });
  });

  it('instantiates by struct literals (Self included), tuple structs, unit structs and enum variants', () => {
    expect(edgeList(session.edges, 'instantiates')).toEqual([
      'src/session.rs#Session.make -> src/session.rs#Session',
      'src/session.rs#Session.with_id -> src/session.rs#Session',
      'src/session.rs#top -> src/session.rs#Event',
      'src/session.rs#top -> src/session.rs#Marker',
      'src/session.rs#top -> src/session.rs#Pair',
    ]);
    expect(findEdge(session.edges, 'references', 'src/session.rs#top', 'src/session.rs#Event')?.lines).toEqual([26]);
  });

  it('counts calls as call sites, struct literals and std prelude calls not', () => {
    // local, helper ×2, renamed, Session::new, Pair(..), Event::Said(..), and Self::with_id: String::new is std's prelude.
    expect(session.callSites).toBe(8);
    expect(session.resolvedCalls).toBe(8);
    expect(session.unresolved).toEqual([]);
  });
});

const AGENT = rs`
  use std::sync::{Arc, Mutex};

  pub type Result<T> = std::result::Result<T, String>;

  pub trait Provider {
      fn complete(&self) -> Result<String>;
      fn name(&self) -> String { String::from("provider") }
      fn complete_twice(&self) -> Result<String> { self.complete()?; self.complete() }
  }

  pub struct OpenAi;
  pub struct Anthropic;
  impl Provider for OpenAi { fn complete(&self) -> Result<String> { Ok(String::new()) } }
  impl Provider for Anthropic {
      fn complete(&self) -> Result<String> { Ok(String::new()) }
      fn name(&self) -> String { String::from("anthropic") }
  }

  pub struct Session { pub turns: u32 }
  impl Session {
      pub fn new() -> Self { Session { turns: 0 } }
      pub fn load() -> Result<Session> { Ok(Session::new()) }
      pub fn find(&self) -> Option<Session> { None }
      pub fn run(&self) {}
  }

  pub struct Agent {
      provider: Box<dyn Provider>,
      sessions: Vec<Session>,
      current: Arc<Mutex<Session>>,
  }

  impl Agent {
      pub fn step(&self) -> Result<()> {
          self.provider.complete()?;
          self.provider.name();
          self.provider.complete_twice()?;
          self.helper();
          Ok(())
      }

      fn helper(&self) {
          let s = Session::new();
          s.run();
          let loaded = Session::load()?;
          loaded.run();
          if let Some(found) = s.find() { found.run(); }
          for session in &self.sessions { session.run(); }
          self.sessions.iter().for_each(|session| session.run());
          self.current.lock().unwrap().run();
      }
  }

  pub fn with_param(session: &mut Session, provider: &impl Provider, boxed: Box<dyn Provider>) {
      session.run();
      provider.complete().ok();
      boxed.name();
  }

  pub fn generic<P: Provider>(provider: P) { provider.complete().ok(); }
  pub fn bounded<P>(provider: &P) where P: Provider { provider.name(); }
`;

describe('Rust method calls', () => {
  const { file, resolved } = resolveSources({ 'src/lib.rs': AGENT });
  const lib = file('src/lib.rs');
  const calls = (from: string) => edgeList(lib.edges, 'calls').filter((edge) => edge.startsWith(`src/lib.rs#${from} `)).map((edge) => edge.replace(/src\/lib\.rs#/g, ''));

  it('dispatches a call through `dyn Trait` to every impl, and runs the trait’s default directly', () => {
    expect(calls('Agent.step')).toEqual([
      'Agent.step -> Agent.helper',
      'Agent.step -> Anthropic.Provider.complete',
      'Agent.step -> Anthropic.Provider.name',
      'Agent.step -> OpenAi.Provider.complete',
      'Agent.step -> Provider.complete_twice',
      'Agent.step -> Provider.name',
    ]);
    expect(findEdge(lib.edges, 'calls', 'src/lib.rs#Agent.step', 'src/lib.rs#Provider.name')).toMatchObject({ via: 'direct', resolution: 'scope' });
    expect(findEdge(lib.edges, 'calls', 'src/lib.rs#Agent.step', 'src/lib.rs#Anthropic.Provider.name')).toMatchObject({ via: 'dispatch', resolution: 'scope' });
  });

  it('dispatches `self` in a trait’s default method to the impls', () => {
    expect(calls('Provider.complete_twice')).toEqual(['Provider.complete_twice -> Anthropic.Provider.complete', 'Provider.complete_twice -> OpenAi.Provider.complete']);
  });

  it('types receivers by the associated fn that made them, `?` through a Result alias, `if let Some`, a loop, a closure over an iterator and a lock', () => {
    expect(calls('Agent.helper')).toEqual(['Agent.helper -> Session.find', 'Agent.helper -> Session.load', 'Agent.helper -> Session.new', 'Agent.helper -> Session.run']);
    expect(findEdge(lib.edges, 'calls', 'src/lib.rs#Agent.helper', 'src/lib.rs#Session.run')?.lines).toEqual([44, 46, 47, 48, 49, 50]);
    expect(lib.unresolved.filter((call) => call.from === 'src/lib.rs#Agent.helper')).toEqual([]);
  });

  it('types parameters by their types: references, `impl Trait`, `Box<dyn Trait>`, type parameters with bounds', () => {
    expect(calls('with_param')).toEqual(['with_param -> Anthropic.Provider.complete', 'with_param -> Anthropic.Provider.name', 'with_param -> OpenAi.Provider.complete', 'with_param -> Provider.name', 'with_param -> Session.run']);
    expect(calls('generic')).toEqual(['generic -> Anthropic.Provider.complete', 'generic -> OpenAi.Provider.complete']);
    expect(calls('bounded')).toEqual(['bounded -> Anthropic.Provider.name', 'bounded -> Provider.name']);
  });

  it('records that each impl implements its trait', () => {
    expect(edgeList(resolved.heritage, 'implements')).toEqual(['src/lib.rs#Anthropic -> src/lib.rs#Provider', 'src/lib.rs#OpenAi -> src/lib.rs#Provider']);
  });
});

describe('Rust calls on a concrete `self`', () => {
  it('finds a method among the type’s own impls, its trait impls, and its traits’ defaults; a generic field dispatches by its bound', () => {
    const { file } = resolveSources({
      'src/lib.rs': rs`
        pub trait Named { fn name(&self) -> String; fn greet(&self) -> String { self.name() } }
        pub struct Session;
        impl Named for Session { fn name(&self) -> String { String::new() } }
        impl Session {
            fn go(&self) { self.name(); self.greet(); Self::helper(); }
            fn helper() {}
        }
        pub struct Agent<P: Named> { inner: P }
        impl<P: Named> Agent<P> { fn run(&self) { self.inner.name(); } }
      `,
    });
    expect(edgeList(file('src/lib.rs').edges, 'calls').filter((edge) => !edge.startsWith('src/lib.rs#Named.greet'))).toEqual([
      'src/lib.rs#Agent.run -> src/lib.rs#Session.Named.name',
      'src/lib.rs#Session.go -> src/lib.rs#Named.greet',
      'src/lib.rs#Session.go -> src/lib.rs#Session.Named.name',
      'src/lib.rs#Session.go -> src/lib.rs#Session.helper',
    ]);
    expect(findEdge(file('src/lib.rs').edges, 'calls', 'src/lib.rs#Session.go', 'src/lib.rs#Named.greet')).toMatchObject({ via: 'direct', resolution: 'scope' });
    expect(findEdge(file('src/lib.rs').edges, 'calls', 'src/lib.rs#Agent.run', 'src/lib.rs#Session.Named.name')).toMatchObject({ via: 'dispatch', resolution: 'scope' });
  });
});

describe('Rust calls tied by name', () => {
  const { file } = resolveSources({
    'src/lib.rs': rs`
      pub trait Tool { fn invoke(&self) -> String; }
      pub struct Shell;
      pub struct Edit;
      impl Tool for Shell { fn invoke(&self) -> String { String::new() } }
      impl Tool for Edit { fn invoke(&self) -> String { String::new() } }
      pub struct A; pub struct B; pub struct C; pub struct D;
      impl A { pub fn close(&self) {} pub fn get(&self) {} pub fn reset(&self) {} }
      impl B { pub fn close(&self) {} pub fn reset(&self) {} }
      impl C { pub fn reset(&self) {} }
      impl D { pub fn reset(&self) {} }

      pub fn unknown_receiver<T>(tool: T, items: Vec<u8>) {
          make();
          tool.invoke();
          tool.close();
          tool.reset();
          tool.get();
          tool.trim();
          tool.vanish();
          items.len();
      }
    `,
  });
  const lib = file('src/lib.rs');

  it('ties a trait method on an unknown receiver to every impl, by name, as dispatch', () => {
    expect(findEdge(lib.edges, 'calls', 'src/lib.rs#unknown_receiver', 'src/lib.rs#Shell.Tool.invoke')).toMatchObject({ resolution: 'name', via: 'dispatch' });
    expect(findEdge(lib.edges, 'calls', 'src/lib.rs#unknown_receiver', 'src/lib.rs#Edit.Tool.invoke')).toMatchObject({ resolution: 'name', via: 'dispatch' });
  });

  it('ties an inherent method by name when few types declare it, else leaves it unresolved', () => {
    expect(edgeList(lib.edges, 'calls').filter((edge) => edge.includes('close'))).toEqual(['src/lib.rs#unknown_receiver -> src/lib.rs#A.close', 'src/lib.rs#unknown_receiver -> src/lib.rs#B.close']);
    expect(findEdge(lib.edges, 'calls', 'src/lib.rs#unknown_receiver', 'src/lib.rs#A.close')).toEqual({ kind: 'calls', from: 'src/lib.rs#unknown_receiver', to: 'src/lib.rs#A.close', lines: [15], resolution: 'name' });
    expect(lib.unresolved.map((call) => `${call.text}:${call.reason}`)).toEqual(['make:unknown', 'tool.reset:dynamic', 'tool.get:dynamic', 'tool.vanish:external']);
  });

  it('takes a std method on an unknown or std receiver for std’s own: no call site', () => {
    // make, invoke, close, reset, get, vanish: `trim` is std's, and `len` on a Vec.
    expect(lib.callSites).toBe(6);
  });
});

describe('Rust macros', () => {
  const { file } = resolveSources({
    'src/lib.rs': rs`
      #[macro_use]
      mod macros;
      pub mod security;
      pub fn report(out: &str) {
          println!("{}", security::mask(out));
          log_line!("x");
          crate::exported!();
          let lines = vec![security::mask(out), format!("{}", security::count())];
          tracing::info!("{}", out);
          anyhow!("failed: {}", security::mask(out));
      }
    `,
    'src/macros.rs': rs`
      macro_rules! log_line { ($x:expr) => { println!("{}", $x) }; }
      #[macro_export]
      macro_rules! exported { () => {}; }
    `,
    'src/security.rs': 'pub fn mask(text: &str) -> String { text.to_string() }\npub fn count() -> usize { 0 }\n',
  });
  const lib = file('src/lib.rs');

  it('calls a macro the crate defines, by name or through its crate root, and reads calls inside any macro’s arguments', () => {
    expect(edgeList(lib.edges, 'calls')).toEqual([
      'src/lib.rs#report -> src/macros.rs#exported',
      'src/lib.rs#report -> src/macros.rs#log_line',
      'src/lib.rs#report -> src/security.rs#count',
      'src/lib.rs#report -> src/security.rs#mask',
    ]);
    expect(findEdge(lib.edges, 'calls', 'src/lib.rs#report', 'src/security.rs#mask')?.lines).toEqual([5, 8, 10]);
  });

  it('takes std’s macros for no call site, and keeps an outside macro unresolved with its `!`', () => {
    expect(lib.unresolved).toEqual([
      { from: 'src/lib.rs#report', text: 'tracing::info!', line: 9, reason: 'external' },
      { from: 'src/lib.rs#report', text: 'anyhow!', line: 10, reason: 'external' },
    ]);
    expect(lib.callSites).toBe(8);
  });
});

describe('Rust unresolved calls', () => {
  it('says why: an outside crate, no symbol, or a value only known at run time', () => {
    const { file } = resolveSources({
      'src/lib.rs': rs`
        use std::collections::HashMap;
        use reqwest::Client;
        pub mod tools;
        pub fn run(handlers: HashMap<String, fn(u8) -> u8>, client: Client) {
            reqwest::get("x");
            client.post("y").send();
            crate::tools::missing();
            nowhere();
            let callback = |x: u8| x + 1;
            callback(1);
            if let Some(handler) = handlers.get("a") { handler(1); }
            HashMap::<String, u8>::new();
        }
      `,
      'src/tools.rs': 'pub fn exists() {}\n',
    });
    expect(file('src/lib.rs').unresolved.map((call) => `${call.line} ${call.text}: ${call.reason}`)).toEqual([
      '5 reqwest::get: external',
      '6 client.post: external',
      '6 client.post("y").send: external',
      '7 crate::tools::missing: unknown',
      '8 nowhere: unknown',
      '10 callback: dynamic',
      '11 handler: dynamic',
      '12 HashMap::<String, u8>::new: external',
    ]);
    expect(file('src/lib.rs').externalImports).toEqual(['reqwest', 'std']);
  });
});
