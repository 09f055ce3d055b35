import { describe, expect, it } from 'vitest';
import { edgeList, extract, findEdge, py, resolveSources, unitOf, unitsOf } from './python-kit.js';

const AGENT = py`
  """Module docstring: goes nowhere."""
  import os

  __all__ = ["Agent", "run_all", "_private_but_listed"]
  MAX_TURNS = 40
  low, high = 1, 9
  _ = os.environ

  if os.name == "nt":
      SEPARATOR = "\\\\"
  else:
      SEPARATOR = "/"

  try:
      import ujson as json
  except ImportError:
      FALLBACK: bool = True


  class Agent(Base, Mixin):
      """Runs a task."""

      max_retries = 3
      label: str

      class Config:
          depth = 2

      def __init__(self, client):
          self.client = client

      @property
      def turns(self) -> int:
          return self._turns

      @turns.setter
      def turns(self, value):
          self._turns = value

      @staticmethod
      def make():
          return Agent(None)

      @classmethod
      @other_decorator
      def build(cls):
          return cls(None)

      def run(self, task: str) -> str:
          def helper(x):
              def deeper():
                  return x
              return deeper()
          return helper(task)


  def run_all(agents):
      for agent in agents:
          agent.run("go")


  def _private_but_listed():
      pass


  def public_but_unlisted():
      pass


  def twice():
      return 1


  def twice():
      return 2
`;

describe('Python units', () => {
  const units = unitsOf('pkg/agent.py', AGENT);

  it('puts the file unit first, as the TypeScript front end builds it', () => {
    const lines = AGENT.split('\n').length;
    expect(units[0]).toEqual({ id: 'pkg/agent.py', kind: 'file', file: 'pkg/agent.py', symbol: '', startLine: 1, endLine: lines, signature: 'pkg/agent.py', doc: '', exported: false, hash: expect.any(String), literals: '', words: '' });
  });

  it('gives each declaration a dotted symbol and a kind', () => {
    expect(units.slice(1).map((unit) => `${unit.symbol}:${unit.kind}`)).toEqual([
      'MAX_TURNS:variable',
      'low:variable',
      'high:variable',
      'SEPARATOR:variable',
      'FALLBACK:variable',
      'Agent:class',
      'Agent.max_retries:property',
      'Agent.label:property',
      'Agent.Config:class',
      'Agent.Config.depth:property',
      'Agent.__init__:constructor',
      'Agent.turns:accessor',
      'Agent.make:method',
      'Agent.build:method',
      'Agent.run:method',
      'Agent.run.helper:function',
      'Agent.run.helper.deeper:function',
      'run_all:function',
      '_private_but_listed:function',
      'public_but_unlisted:function',
      'twice:function',
      'twice~2:function',
    ]);
  });

  it('keeps __all__ and _ out, and only the first assignment of a name', () => {
    expect(units.some((unit) => unit.symbol === '__all__' || unit.symbol === '_')).toBe(false);
    expect(units.filter((unit) => unit.symbol === 'SEPARATOR')).toHaveLength(1);
    expect(unitOf(units, 'SEPARATOR').startLine).toBe(10);
  });

  it('ids a unit by file and symbol, and points each at its parent', () => {
    expect(unitOf(units, 'Agent.run.helper.deeper').id).toBe('pkg/agent.py#Agent.run.helper.deeper');
    expect(unitOf(units, 'Agent.run.helper.deeper').parent).toBe('pkg/agent.py#Agent.run.helper');
    expect(unitOf(units, 'Agent.Config.depth').parent).toBe('pkg/agent.py#Agent.Config');
    expect(unitOf(units, 'Agent').parent).toBe('pkg/agent.py');
    expect(unitOf(units, 'MAX_TURNS').parent).toBe('pkg/agent.py');
  });

  it('starts a decorated definition at its first decorator and ends it with its body', () => {
    const build = unitOf(units, 'Agent.build');
    const lines = AGENT.split('\n');
    expect(lines[build.startLine - 1]!.trim()).toBe('@classmethod');
    expect(lines[build.endLine - 1]!.trim()).toBe('return cls(None)');
  });

  it('makes one accessor of a property and its setter: the first definition', () => {
    const turns = unitOf(units, 'Agent.turns');
    const lines = AGENT.split('\n');
    expect(lines[turns.startLine - 1]!.trim()).toBe('@property');
    expect(lines[turns.endLine - 1]!.trim()).toBe('return self._turns');
    expect(units.filter((unit) => unit.symbol.startsWith('Agent.turns'))).toHaveLength(1);
  });

  it('spans a tuple assignment for each of its names', () => {
    expect(unitOf(units, 'low').startLine).toBe(unitOf(units, 'high').startLine);
    expect(unitOf(units, 'low').signature).toBe('low, high = 1, 9');
  });

  it('exports what __all__ lists, and the public members of exported classes', () => {
    const exported = units.filter((unit) => unit.exported).map((unit) => unit.symbol);
    expect(exported).toEqual(['Agent', 'Agent.max_retries', 'Agent.label', 'Agent.Config', 'Agent.Config.depth', 'Agent.turns', 'Agent.make', 'Agent.build', 'Agent.run', 'run_all', '_private_but_listed']);
  });

  it('exports public names when the module has no __all__', () => {
    const plain = unitsOf('m.py', py`
      VALUE = 1
      _hidden = 2
      class Shown:
          def run(self): pass
          def _skip(self): pass
      class _Hidden:
          def run(self): pass
    `);
    expect(plain.filter((unit) => unit.exported).map((unit) => unit.symbol)).toEqual(['VALUE', 'Shown', 'Shown.run']);
  });

  it('gives a test file its file unit only', () => {
    const extracted = extract('tests/test_agent.py', AGENT);
    expect(extracted.units.map((unit) => unit.kind)).toEqual(['file']);
    expect(extracted.facts.uses).toEqual([]);
    expect(extracted.facts.imports.map((fact) => fact.name)).toEqual(['os', 'ujson']);
  });

  it('digests each declaration by kind and signature, and the imports apart', () => {
    const digest = extract('pkg/agent.py', AGENT).digest;
    expect(Object.keys(digest)).toContain('Agent.run');
    expect(Object.keys(digest)).toContain('*imports');
    const edited = extract('pkg/agent.py', AGENT.replace('return helper(task)', 'return helper(task.strip())')).digest;
    expect(edited).toEqual(digest);
    const headEdited = extract('pkg/agent.py', AGENT.replace('def run(self, task: str)', 'def run(self, task: bytes)')).digest;
    expect(headEdited['Agent.run']).not.toBe(digest['Agent.run']);
    expect(headEdited['Agent.make']).toBe(digest['Agent.make']);
    const importEdited = extract('pkg/agent.py', AGENT.replace('import os', 'import os, sys')).digest;
    expect(importEdited['*imports']).not.toBe(digest['*imports']);
  });

  it('contains each unit in its parent, from the line the unit starts on', () => {
    const { file } = resolveSources({ 'pkg/agent.py': AGENT });
    const contains = edgeList(file('pkg/agent.py').edges, 'contains');
    expect(contains).toHaveLength(units.length - 1);
    expect(contains).toEqual(expect.arrayContaining([
      'pkg/agent.py -> pkg/agent.py#Agent',
      'pkg/agent.py -> pkg/agent.py#MAX_TURNS',
      'pkg/agent.py#Agent -> pkg/agent.py#Agent.Config',
      'pkg/agent.py#Agent.Config -> pkg/agent.py#Agent.Config.depth',
      'pkg/agent.py#Agent.run -> pkg/agent.py#Agent.run.helper',
    ]));
    expect(findEdge(file('pkg/agent.py').edges, 'contains', 'pkg/agent.py#Agent', 'pkg/agent.py#Agent.build')).toEqual({
      kind: 'contains', from: 'pkg/agent.py#Agent', to: 'pkg/agent.py#Agent.build', lines: [unitOf(units, 'Agent.build').startLine], resolution: 'scope',
    });
  });
});
