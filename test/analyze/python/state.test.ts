import { describe, expect, it } from 'vitest';
import type { Edge } from '../../../src/graph/model.js';
import { findEdge, py, resolveSources } from './python-kit.js';

function access(edges: readonly Edge[], from: string, to: string): string {
  const reads = findEdge(edges, 'reads', from, to);
  const writes = findEdge(edges, 'writes', from, to);
  return [reads ? `reads ${reads.lines.join(',')}` : '', writes ? `writes ${writes.lines.join(',')}` : ''].filter(Boolean).join(' ');
}

describe('Python state: fields', () => {
  const { file } = resolveSources({
    'agent.py': py`
      class Base:
          max_retries = 3
          history: list

          def __init__(self):
              self.history = []

      class Agent(Base):
          label: str = "agent"

          def __init__(self, name):
              super().__init__()
              self.turns = 0
              self.name: str = name

          def step(self, key):
              self.turns += 1
              self.history.append(key)
              self.history[key] = 1
              del self.history[key]
              self.cache = {}
              return self.name, self.max_retries, type(self).max_retries

          @classmethod
          def reset(cls):
              cls.max_retries = 5

          def describe(self):
              return self.label

      def outside(agent: Agent):
          agent.turns = 1
          return agent.history
    `,
  });
  const agent = file('agent.py');
  const slot = (id: string) => agent.slots.find((candidate) => candidate.id === id);

  it('writes a field by `self.x = v` and reads it by `self.x`', () => {
    expect(access(agent.edges, 'agent.py#Agent.__init__', 'agent.py#Agent.turns')).toBe('writes 13');
    expect(access(agent.edges, 'agent.py#Agent.step', 'agent.py#Agent.name')).toBe('reads 22');
  });

  it('reads and writes it by augmented assignment', () => {
    expect(access(agent.edges, 'agent.py#Agent.step', 'agent.py#Agent.turns')).toBe('reads 17 writes 17');
  });

  it('reads and writes a field mutated in place: a mutating method, an item set or deleted', () => {
    expect(access(agent.edges, 'agent.py#Agent.step', 'agent.py#Base.history')).toBe('reads 18,19,20 writes 18,19,20');
  });

  it('finds an inherited field on the base that declares it', () => {
    expect(slot('agent.py#Base.history')).toEqual({ id: 'agent.py#Base.history', kind: 'field', file: 'agent.py', owner: 'agent.py#Base', name: 'history', line: 3, type: 'list' });
    expect(slot('agent.py#Agent.history')).toBeUndefined();
    expect(access(agent.edges, 'agent.py#Agent.step', 'agent.py#Base.max_retries')).toBe('reads 22');
  });

  it('writes a class attribute through cls', () => {
    expect(access(agent.edges, 'agent.py#Agent.reset', 'agent.py#Base.max_retries')).toBe('writes 26');
  });

  it('lines a slot at the class body’s declaration, else the first `self.x =`, typed by its annotation', () => {
    expect(slot('agent.py#Agent.turns')).toMatchObject({ line: 13, type: '' });
    expect(slot('agent.py#Agent.name')).toMatchObject({ line: 14, type: 'str' });
    expect(slot('agent.py#Agent.label')).toMatchObject({ line: 9, type: 'str' });
    expect(access(agent.edges, 'agent.py#Agent.describe', 'agent.py#Agent.label')).toBe('reads 29');
  });

  it('reaches a field through a typed parameter', () => {
    expect(access(agent.edges, 'agent.py#outside', 'agent.py#Agent.turns')).toBe('writes 32');
    expect(access(agent.edges, 'agent.py#outside', 'agent.py#Base.history')).toBe('reads 33');
  });

  it('declares every slot on a unit that holds it', () => {
    for (const { owner } of agent.slots) expect(['agent.py#Base', 'agent.py#Agent']).toContain(owner);
  });
});

describe('Python state: module variables', () => {
  const { file } = resolveSources({
    'registry.py': py`
      REGISTRY = {}
      COUNT = 0
      NAME = "registry"
      LOG = make_logger()
      PATTERN = frozenset({"a"})
      history = []

      def register(name, fn):
          REGISTRY[name] = fn

      def bump():
          global COUNT
          COUNT += 1
          return NAME

      def shadow():
          COUNT = 5
          return COUNT

      def tally():
          return len(history), PATTERN

      NAME = "renamed"
    `,
    'plugin.py': py`
      from registry import REGISTRY, history
      import registry

      def load():
          history.append("x")
          return REGISTRY.get("x"), registry.COUNT
    `,
  });
  const registry = file('registry.py');

  it('makes a slot of a variable written through global, and of a container', () => {
    expect(registry.slots.map((slot) => slot.id)).toEqual(['registry.py#COUNT', 'registry.py#NAME', 'registry.py#REGISTRY', 'registry.py#history']);
    expect(registry.slots.find((slot) => slot.id === 'registry.py#COUNT')).toEqual({ id: 'registry.py#COUNT', kind: 'module-variable', file: 'registry.py', owner: 'registry.py', name: 'COUNT', line: 2, type: '' });
  });

  it('reads and writes it from functions, and from module-level code', () => {
    expect(access(registry.edges, 'registry.py#register', 'registry.py#REGISTRY')).toBe('reads 9 writes 9');
    expect(access(registry.edges, 'registry.py#bump', 'registry.py#COUNT')).toBe('reads 13 writes 13');
    expect(access(registry.edges, 'registry.py', 'registry.py#NAME')).toBe('writes 23');
    expect(access(registry.edges, 'registry.py#bump', 'registry.py#NAME')).toBe('reads 14');
  });

  it('leaves a local of the same name alone', () => {
    expect(access(registry.edges, 'registry.py#shadow', 'registry.py#COUNT')).toBe('');
  });

  it('reads and mutates it through an import', () => {
    const plugin = file('plugin.py');
    expect(access(plugin.edges, 'plugin.py#load', 'registry.py#history')).toBe('reads 5 writes 5');
    expect(access(plugin.edges, 'plugin.py#load', 'registry.py#REGISTRY')).toBe('reads 6');
    expect(access(plugin.edges, 'plugin.py#load', 'registry.py#COUNT')).toBe('reads 6');
    expect(plugin.slots.map((slot) => slot.id)).toEqual(['registry.py#COUNT', 'registry.py#REGISTRY', 'registry.py#history']);
  });

  it('references constants and immutable values instead', () => {
    expect(findEdge(registry.edges, 'references', 'registry.py#tally', 'registry.py#PATTERN')).toBeDefined();
    expect(registry.slots.map((slot) => slot.id)).not.toContain('registry.py#PATTERN');
    expect(registry.slots.map((slot) => slot.id)).not.toContain('registry.py#LOG');
  });
});

describe('Python state: accessors', () => {
  it('runs a property on a read and its setter on a write: a call of the accessor, no slot', () => {
    const { file } = resolveSources({
      'agent.py': py`
        class Agent:
            def __init__(self):
                self._turns = 0

            @property
            def turns(self):
                return self._turns

            @turns.setter
            def turns(self, value):
                self._turns = value

            def step(self):
                self.turns = self.turns + 1
      `,
    });
    const agent = file('agent.py');
    expect(findEdge(agent.edges, 'calls', 'agent.py#Agent.step', 'agent.py#Agent.turns')).toEqual({ kind: 'calls', from: 'agent.py#Agent.step', to: 'agent.py#Agent.turns', lines: [14], resolution: 'scope', via: 'direct' });
    expect(access(agent.edges, 'agent.py#Agent.turns', 'agent.py#Agent._turns')).toBe('reads 7 writes 11');
    expect(agent.slots.map((slot) => slot.id)).toEqual(['agent.py#Agent._turns']);
    // Reading a property is no call site: only calls written as calls are.
    expect(agent.callSites).toBe(0);
  });
});
