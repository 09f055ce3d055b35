import { describe, expect, it } from 'vitest';
import { edgeList, findEdge, py, resolveSources } from './python-kit.js';

describe('Python calls', () => {
  it('resolves a name in scope: a local def, a module def, an imported function, a module attribute', () => {
    const { file } = resolveSources({
      'pkg/__init__.py': '',
      'pkg/util.py': 'def helper(): pass\ndef other(): pass\n',
      'main.py': py`
        import pkg.util
        import pkg.util as u
        from pkg.util import helper as h

        def top(): pass

        def go():
            def local(): pass
            local()
            top()
            h()
            pkg.util.helper()
            u.other()
            u.other(); u.other()
      `,
    });
    const main = file('main.py');
    expect(edgeList(main.edges, 'calls')).toEqual([
      'main.py#go -> main.py#go.local',
      'main.py#go -> main.py#top',
      'main.py#go -> pkg/util.py#helper',
      'main.py#go -> pkg/util.py#other',
    ]);
    expect(findEdge(main.edges, 'calls', 'main.py#go', 'pkg/util.py#helper')).toEqual({ kind: 'calls', from: 'main.py#go', to: 'pkg/util.py#helper', lines: [11, 12], resolution: 'scope', via: 'direct' });
    expect(findEdge(main.edges, 'calls', 'main.py#go', 'pkg/util.py#other')?.lines).toEqual([13, 14]);
    expect(main.callSites).toBe(7);
    expect(main.resolvedCalls).toBe(7);
    expect(main.resolvedCallLines).toEqual([9, 10, 11, 12, 13, 14, 14]);
  });

  it('instantiates a class it calls, as `new` does in TypeScript, and no call edge to __init__', () => {
    const { file } = resolveSources({
      'main.py': py`
        class Agent:
            def __init__(self): pass

        def make():
            return Agent()
      `,
    });
    expect(edgeList(file('main.py').edges, 'instantiates')).toEqual(['main.py#make -> main.py#Agent']);
    expect(edgeList(file('main.py').edges, 'calls')).toEqual([]);
    expect(file('main.py').resolvedCalls).toBe(1);
  });

  it('resolves self, cls and super() through the class and its bases in C3 order', () => {
    const { file, resolved } = resolveSources({
      'main.py': py`
        class Base:
            def step(self): pass
            def hook(self): pass

        class Left(Base):
            def hook(self):
                super().hook()

        class Right(Base):
            def hook(self):
                super().hook()

        class Both(Left, Right):
            def hook(self):
                super().hook()
                self.step()

            @classmethod
            def build(cls):
                cls.make()
                return cls()

            @staticmethod
            def make(): pass
      `,
    });
    const calls = edgeList(file('main.py').edges, 'calls');
    // C3: Both, Left, Right, Base — Left's super() is Right for a Both, but statically Left's MRO gives Base.
    expect(calls).toEqual(expect.arrayContaining([
      'main.py#Both.hook -> main.py#Left.hook',
      'main.py#Left.hook -> main.py#Base.hook',
      'main.py#Right.hook -> main.py#Base.hook',
      'main.py#Both.hook -> main.py#Base.step',
      'main.py#Both.build -> main.py#Both.make',
    ]));
    expect(edgeList(file('main.py').edges, 'instantiates')).toEqual(['main.py#Both.build -> main.py#Both']);
    expect(edgeList(resolved.heritage, 'extends')).toEqual([
      'main.py#Both -> main.py#Left',
      'main.py#Both -> main.py#Right',
      'main.py#Left -> main.py#Base',
      'main.py#Right -> main.py#Base',
    ]);
  });

  it('follows C3 where a depth-first walk would not: a diamond base after both of its subclasses', () => {
    const { file } = resolveSources({
      'main.py': py`
        class Base:
            def run(self): pass
        class Left(Base): pass
        class Right(Base):
            def run(self): pass
        class Both(Left, Right):
            def go(self):
                self.run()
      `,
    });
    expect(findEdge(file('main.py').edges, 'calls', 'main.py#Both.go', 'main.py#Right.run')?.via).toBe('direct');
    expect(findEdge(file('main.py').edges, 'calls', 'main.py#Both.go', 'main.py#Base.run')).toBeUndefined();
  });

  it('reaches overrides in subclasses of the receiver’s class as dispatch', () => {
    const { file } = resolveSources({
      'main.py': py`
        class Client:
            def complete(self): pass
            def run(self):
                self.complete()
                self.send()

        class OpenAIClient(Client):
            def complete(self): pass
            def send(self): pass

        class Unrelated:
            def complete(self): pass
      `,
    });
    const edges = file('main.py').edges;
    expect(findEdge(edges, 'calls', 'main.py#Client.run', 'main.py#Client.complete')?.via).toBe('direct');
    expect(findEdge(edges, 'calls', 'main.py#Client.run', 'main.py#OpenAIClient.complete')?.via).toBe('dispatch');
    // A method the class leaves to its subclasses (a template method) is reached in them.
    expect(findEdge(edges, 'calls', 'main.py#Client.run', 'main.py#OpenAIClient.send')).toMatchObject({ via: 'dispatch', resolution: 'scope' });
    expect(findEdge(edges, 'calls', 'main.py#Client.run', 'main.py#Unrelated.complete')).toBeUndefined();
  });

  it('types a local by its annotation, its assigned class, or what the function called returns', () => {
    const { file } = resolveSources({
      'tools.py': py`
        class Registry:
            def get(self, name): pass
            def names(self): pass
        class Tool:
            def spec(self): pass
        def make() -> "Registry":
            return Registry()
        def all_tools() -> list[Tool]:
            return []
      `,
      'main.py': py`
        from typing import Optional
        from tools import Registry, make, all_tools

        def go(registry: Registry, maybe: Optional[Registry], other: "Registry | None"):
            registry.get("a")
            maybe.names()
            other.names()
            built = Registry()
            built.names()
            make().names()
            for tool in all_tools():
                tool.spec()
      `,
    });
    expect(edgeList(file('main.py').edges, 'calls')).toEqual([
      'main.py#go -> tools.py#Registry.get',
      'main.py#go -> tools.py#Registry.names',
      'main.py#go -> tools.py#Tool.spec',
      'main.py#go -> tools.py#all_tools',
      'main.py#go -> tools.py#make',
    ]);
    expect(findEdge(file('main.py').edges, 'calls', 'main.py#go', 'tools.py#Registry.names')?.lines).toEqual([6, 7, 9, 10]);
    expect(file('main.py').unresolved).toEqual([]);
  });

  it('types self.attr by what the class assigns it or annotates it with', () => {
    const { file } = resolveSources({
      'main.py': py`
        class Store:
            def save(self): pass
        class Client:
            def send(self): pass
        class Policy:
            def allows(self): pass

        class Agent:
            policy: Policy

            def __init__(self, client: Client, store=None):
                self.client = client
                self.store = store or Store()

            def run(self):
                self.client.send()
                self.store.save()
                self.policy.allows()
      `,
    });
    expect(edgeList(file('main.py').edges, 'calls')).toEqual(['main.py#Agent.run -> main.py#Client.send', 'main.py#Agent.run -> main.py#Policy.allows', 'main.py#Agent.run -> main.py#Store.save']);
  });

  it('calls from a decorator, an await, a lambda and a comprehension count for the enclosing unit', () => {
    const { file } = resolveSources({
      'main.py': py`
        def register(name):
            def wrap(fn):
                return fn
            return wrap

        def retry(fn):
            return fn

        async def fetch(): pass
        def score(x): pass

        @register("go")
        @retry
        async def go(items):
            await fetch()
            key = lambda item: score(item)
            return [score(item) for item in items]
      `,
    });
    const edges = file('main.py').edges;
    expect(edgeList(edges, 'calls')).toEqual(['main.py#go -> main.py#fetch', 'main.py#go -> main.py#register', 'main.py#go -> main.py#score']);
    expect(edgeList(edges, 'references')).toEqual(['main.py#go -> main.py#retry', 'main.py#register -> main.py#register.wrap']);
    expect(findEdge(edges, 'calls', 'main.py#go', 'main.py#register')?.lines).toEqual([12]);
    expect(findEdge(edges, 'calls', 'main.py#go', 'main.py#score')?.lines).toEqual([16, 17]);
  });

  it('ties a call on a value of unknown type to a method by its name alone, when few classes have one that fits', () => {
    const { file } = resolveSources({
      'main.py': py`
        class Tool:
            def spec(self, verbose=False): pass
            def run(self, a, b): pass

        class Shell:
            def run(self, a): pass

        def go(entries, handler):
            for entry in entries:
                entry.spec()
                entry.run(1)
                entry.get("x")
                entry.unheard_of()
            handler(entries)
      `,
    });
    const main = file('main.py');
    expect(findEdge(main.edges, 'calls', 'main.py#go', 'main.py#Tool.spec')).toEqual({ kind: 'calls', from: 'main.py#go', to: 'main.py#Tool.spec', lines: [10], resolution: 'name' });
    // Only Shell.run takes one argument.
    expect(findEdge(main.edges, 'calls', 'main.py#go', 'main.py#Shell.run')?.resolution).toBe('name');
    expect(findEdge(main.edges, 'calls', 'main.py#go', 'main.py#Tool.run')).toBeUndefined();
    expect(main.unresolved.map((call) => `${call.reason} ${call.text}`)).toEqual(['external entry.get', 'external entry.unheard_of', 'dynamic handler']);
    expect(main.resolvedCalls).toBe(2);
    expect(main.callSites).toBe(5);
  });

  it('keeps unresolved calls with their text and a reason, and builtins out of the count', () => {
    const { file } = resolveSources({
      'main.py': py`
        import os
        import subprocess as sp
        from json import dumps
        from openai import OpenAI

        class Client:
            def __init__(self):
                self.sdk = OpenAI()

            def send(self, handler):
                self.sdk.chat.completions.create(model="x")
                os.path.join("a", "b")
                sp.run(["ls"])
                dumps({})
                handler(1)
                undefined_function()
                len([1, 2])
                print("x")
                isinstance(self, Client)
                "".join([])
                str(1).strip()
                ValueError("bad")
      `,
    });
    const main = file('main.py');
    expect(main.unresolved).toEqual([
      { from: 'main.py#Client.__init__', text: 'OpenAI', line: 8, reason: 'external' },
      { from: 'main.py#Client.send', text: 'self.sdk.chat.completions.create', line: 11, reason: 'external' },
      { from: 'main.py#Client.send', text: 'os.path.join', line: 12, reason: 'external' },
      { from: 'main.py#Client.send', text: 'sp.run', line: 13, reason: 'external' },
      { from: 'main.py#Client.send', text: 'dumps', line: 14, reason: 'external' },
      { from: 'main.py#Client.send', text: 'handler', line: 15, reason: 'dynamic' },
      { from: 'main.py#Client.send', text: 'undefined_function', line: 16, reason: 'unknown' },
    ]);
    expect(main.callSites).toBe(7);
    expect(main.resolvedCalls).toBe(0);
    expect(edgeList(main.edges, 'references')).toEqual(['main.py#Client.send -> main.py#Client']);
  });

  it('clips a long callee text at 120 characters', () => {
    const { file } = resolveSources({ 'main.py': `import os\nos.${'a'.repeat(200)}()\n` });
    const text = file('main.py').unresolved[0]!.text;
    expect(text).toHaveLength(120);
    expect(text.endsWith('…')).toBe(true);
  });

  it('calls what a variable or field holds when that is a function or class of the repository', () => {
    const { file } = resolveSources({
      'main.py': py`
        def run_bash(): pass

        class Tool:
            def __init__(self, handler=run_bash):
                self.handler = handler

            def __call__(self):
                return self.handler()

        DEFAULT = Tool

        def go():
            fn = run_bash
            fn()
            DEFAULT()
            Tool()()
      `,
    });
    const edges = file('main.py').edges;
    expect(findEdge(edges, 'calls', 'main.py#go', 'main.py#run_bash')?.lines).toEqual([14]);
    expect(findEdge(edges, 'calls', 'main.py#go', 'main.py#Tool.__call__')?.lines).toEqual([16]);
    expect(findEdge(edges, 'instantiates', 'main.py#go', 'main.py#Tool')?.lines).toEqual([15, 16]);
    expect(findEdge(edges, 'calls', 'main.py#Tool.__call__', 'main.py#run_bash')?.lines).toEqual([8]);
  });

  it('leaves a call unresolved when more classes than the limit have a method of its name', () => {
    const classes = ['A', 'B', 'C', 'D'].map((name) => `class ${name}:\n    def close(self): pass\n`).join('');
    const { file } = resolveSources({ 'main.py': `${classes}\ndef shut(resource):\n    resource.close()\n` });
    expect(edgeList(file('main.py').edges, 'calls')).toEqual([]);
    expect(file('main.py').unresolved.map((call) => call.reason)).toEqual(['dynamic']);
  });

  it('types what a factory returns by its return statements where no annotation says, and typing’s containers as Python’s own', () => {
    const { file } = resolveSources({
      'main.py': py`
        from typing import Any, Callable, Dict, List

        class Client:
            def send(self): pass

        def make_client():
            return Client()

        def make_hook() -> Callable[..., Any]:
            def hook(): pass
            return hook

        def go(clients: List[Client], index: Dict[str, Client], *args: Any, **kw: Any):
            make_client().send()
            make_hook()()
            for client in clients:
                client.send()
            clients.append(None)
            index.get("a")
            kw.items()
      `,
    });
    const main = file('main.py');
    expect(edgeList(main.edges, 'calls')).toEqual(['main.py#go -> main.py#Client.send', 'main.py#go -> main.py#make_client', 'main.py#go -> main.py#make_hook', 'main.py#go -> main.py#make_hook.hook']);
    expect(findEdge(main.edges, 'calls', 'main.py#go', 'main.py#Client.send')?.lines).toEqual([14, 17]);
    // `clients.append`, `index.get` and `kw.items` are Python's own: no call sites.
    expect(main.unresolved).toEqual([]);
    expect(main.callSites).toBe(6);
  });
});
