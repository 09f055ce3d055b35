import { describe, expect, it } from 'vitest';
import { edgeList, findEdge, resolveSources, rs } from './rust-kit.js';

describe('Rust modules and `use`', () => {
  const { file } = resolveSources({
    'src/lib.rs': rs`
      pub mod agent;
      pub mod tools;
      mod util;
      #[path = "platform/unix.rs"]
      mod platform;

      pub use agent::Agent;
      pub use tools::*;
    `,
    'src/agent.rs': rs`
      mod memory;
      use crate::tools::{self, shell::run_shell as shell};
      use super::util::helper;
      use self::memory::Memory;
      use std::collections::HashMap;
      use serde::Serialize;

      pub struct Agent;

      pub fn go() {
          shell();
          helper();
          tools::registry::dispatch();
          Memory::load();
          tokio::spawn();
      }
    `,
    'src/agent/memory.rs': rs`
      pub struct Memory;
      impl Memory { pub fn load() {} }
      pub fn parent() { super::go(); crate::util::helper(); }
    `,
    'src/tools/mod.rs': rs`
      pub mod shell;
      pub mod registry;
      pub use registry::dispatch;
    `,
    'src/tools/shell.rs': 'pub fn run_shell() {}\n',
    'src/tools/registry.rs': 'pub fn dispatch() {}\n',
    'src/util.rs': 'pub fn helper() {}\n',
    'src/platform/unix.rs': 'pub fn open() {}\n',
    'src/orphan.rs': 'pub fn lonely() { crate::agent::go(); }\n',
  });

  it('imports each `mod x;` file, beside a crate root or a mod.rs, under a non-mod.rs file’s own folder, or at its #[path]', () => {
    expect(edgeList(file('src/lib.rs').edges, 'imports')).toEqual([
      'src/lib.rs -> src/agent.rs',
      'src/lib.rs -> src/platform/unix.rs',
      'src/lib.rs -> src/tools/mod.rs',
      'src/lib.rs -> src/util.rs',
    ]);
    expect(findEdge(file('src/agent.rs').edges, 'imports', 'src/agent.rs', 'src/agent/memory.rs')?.lines).toEqual([1, 4]);
    expect(edgeList(file('src/tools/mod.rs').edges, 'imports')).toEqual(['src/tools/mod.rs -> src/tools/registry.rs', 'src/tools/mod.rs -> src/tools/shell.rs']);
  });

  it('imports the module a `use` path names, through crate::, super::, self:: and lists with self', () => {
    expect(edgeList(file('src/agent.rs').edges, 'imports')).toEqual([
      'src/agent.rs -> src/agent/memory.rs',
      'src/agent.rs -> src/tools/mod.rs',
      'src/agent.rs -> src/tools/shell.rs',
      'src/agent.rs -> src/util.rs',
    ]);
  });

  it('resolves calls through aliases, modules, re-exports and super:: from a nested file', () => {
    expect(edgeList(file('src/agent.rs').edges, 'calls')).toEqual([
      'src/agent.rs#go -> src/agent/memory.rs#Memory.load',
      'src/agent.rs#go -> src/tools/registry.rs#dispatch',
      'src/agent.rs#go -> src/tools/shell.rs#run_shell',
      'src/agent.rs#go -> src/util.rs#helper',
    ]);
    expect(edgeList(file('src/agent/memory.rs').edges, 'calls')).toEqual(['src/agent/memory.rs#parent -> src/agent.rs#go', 'src/agent/memory.rs#parent -> src/util.rs#helper']);
  });

  it('reaches a file no `mod` declares from the module its path spells', () => {
    expect(edgeList(file('src/orphan.rs').edges, 'calls')).toEqual(['src/orphan.rs#lonely -> src/agent.rs#go']);
  });

  it('lets a binary use its package’s library by the package folder’s name, re-exports and globs followed', () => {
    const { file: binary } = resolveSources({
      'demo/src/lib.rs': 'pub mod agent;\npub mod tools;\npub use agent::Agent;\npub use tools::*;\n',
      'demo/src/agent.rs': 'pub struct Agent;\npub fn go() {}\n',
      'demo/src/tools.rs': 'pub fn dispatch() {}\n',
      'demo/src/bin/tool.rs': 'use demo::{Agent, dispatch};\nfn main() { dispatch(); demo::agent::go(); }\n',
    });
    expect(edgeList(binary('demo/src/bin/tool.rs').edges, 'calls')).toEqual(['demo/src/bin/tool.rs#main -> demo/src/agent.rs#go', 'demo/src/bin/tool.rs#main -> demo/src/tools.rs#dispatch']);
    expect(edgeList(binary('demo/src/bin/tool.rs').edges, 'imports')).toEqual(['demo/src/bin/tool.rs -> demo/src/lib.rs']);
  });

  it('lists outside crates and std by their first segment, from `use` and from paths in code', () => {
    expect(file('src/agent.rs').externalImports).toEqual(['serde', 'std', 'tokio']);
    expect(file('src/agent.rs').unresolved).toEqual([{ from: 'src/agent.rs#go', text: 'tokio::spawn', line: 15, reason: 'external' }]);
  });
});

describe('Rust workspaces', () => {
  const sources = {
    'crates/harness-core/src/lib.rs': 'pub mod agent;\npub use agent::run;\n',
    'crates/harness-core/src/agent.rs': 'pub fn run() {}\n',
    'crates/harness-core/tests/smoke.rs': 'use harness_core::agent;\nmod common;\n#[test]\nfn t() { agent::run(); }\n',
    'crates/harness-core/tests/common/mod.rs': 'pub fn setup() {}\n',
    'crates/cli/src/main.rs': 'use harness_core::run;\nfn main() { run(); harness_core::agent::run(); }\n',
    'crates/tools/src/lib.rs': 'pub fn tool() {}\n',
    'crates/app/src/main.rs': 'fn main() { demo_tools::tool(); demo_core::x(); serde_json::to_string(); }\n',
    'crates/core/src/lib.rs': 'pub fn x() {}\n',
  };
  const { file } = resolveSources(sources);

  it('reaches another crate of the workspace by its folder’s name, `-` read as `_`', () => {
    expect(edgeList(file('crates/cli/src/main.rs').edges, 'calls')).toEqual(['crates/cli/src/main.rs#main -> crates/harness-core/src/agent.rs#run']);
    expect(findEdge(file('crates/cli/src/main.rs').edges, 'calls', 'crates/cli/src/main.rs#main', 'crates/harness-core/src/agent.rs#run')?.lines).toEqual([2]);
    expect(edgeList(file('crates/cli/src/main.rs').edges, 'imports')).toEqual(['crates/cli/src/main.rs -> crates/harness-core/src/lib.rs']);
    expect(file('crates/cli/src/main.rs').externalImports).toEqual([]);
  });

  it('reaches a crate named `<prefix>_<folder>` when the path goes on into it, and takes any other name for an outside crate', () => {
    expect(edgeList(file('crates/app/src/main.rs').edges, 'calls')).toEqual(['crates/app/src/main.rs#main -> crates/core/src/lib.rs#x', 'crates/app/src/main.rs#main -> crates/tools/src/lib.rs#tool']);
    expect(file('crates/app/src/main.rs').externalImports).toEqual(['serde_json']);
  });

  it('gives a test file its imports of the crate under test and of its own modules', () => {
    expect(edgeList(file('crates/harness-core/tests/smoke.rs').edges, 'imports')).toEqual([
      'crates/harness-core/tests/smoke.rs -> crates/harness-core/src/agent.rs',
      'crates/harness-core/tests/smoke.rs -> crates/harness-core/src/lib.rs',
      'crates/harness-core/tests/smoke.rs -> crates/harness-core/tests/common/mod.rs',
    ]);
    expect(file('crates/harness-core/tests/smoke.rs').callSites).toBe(0);
  });
});

describe('Rust inline modules and globs', () => {
  it('resolves paths into inline modules, a `use` inside one, and an enum’s variants through a glob', () => {
    const { file } = resolveSources({
      'src/lib.rs': rs`
        pub mod net {
            pub mod http {
                pub fn get() { super::dns::lookup(); }
            }
            pub mod dns {
                pub fn lookup() {}
            }
            pub fn fetch() { use self::http::get; get(); }
        }
        pub enum Kind { Fast, Slow(u8) }
        mod uses {
            use super::Kind::*;
            use super::net::http;
            pub fn pick() -> super::Kind { http::get(); Slow(1) }
        }
      `,
    });
    expect(edgeList(file('src/lib.rs').edges, 'calls')).toEqual([
      'src/lib.rs#net.fetch -> src/lib.rs#net.http.get',
      'src/lib.rs#net.http.get -> src/lib.rs#net.dns.lookup',
      'src/lib.rs#uses.pick -> src/lib.rs#net.http.get',
    ]);
    expect(edgeList(file('src/lib.rs').edges, 'instantiates')).toEqual(['src/lib.rs#uses.pick -> src/lib.rs#Kind']);
  });

  it('ends on loops: globs of each other, modules that re-export each other', () => {
    const { file } = resolveSources({
      'src/lib.rs': 'mod a;\nmod b;\npub use a::*;\n',
      'src/a.rs': 'pub use crate::b::*;\npub use crate::b::Thing as Alias;\npub fn f() { missing(); Alias::new(); }\n',
      'src/b.rs': 'pub use crate::a::*;\npub use crate::a::Alias as Thing;\npub fn g() { f(); }\n',
    });
    expect(edgeList(file('src/b.rs').edges, 'calls')).toEqual(['src/b.rs#g -> src/a.rs#f']);
    expect(file('src/a.rs').unresolved.map((call) => `${call.text}:${call.reason}`)).toEqual(['missing:unknown', 'Alias::new:unknown']);
  });
});
