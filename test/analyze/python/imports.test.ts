import { describe, expect, it } from 'vitest';
import { edgeList, findEdge, py, resolveSources } from './python-kit.js';

describe('Python imports', () => {
  it('imports a module by absolute name, with or without an alias, and keeps outside packages apart', () => {
    const { file } = resolveSources({
      'app/__init__.py': '',
      'app/util.py': 'def helper(): pass\n',
      'app/deep/__init__.py': '',
      'app/deep/core.py': 'X = 1\n',
      'main.py': py`
        import os.path
        import app.util
        import app.deep.core as core
        from openai import OpenAI
        from __future__ import annotations
        import json, app
      `,
    });
    const main = file('main.py');
    expect(edgeList(main.edges, 'imports')).toEqual(['main.py -> app/__init__.py', 'main.py -> app/deep/core.py', 'main.py -> app/util.py']);
    expect(main.externalImports).toEqual(['json', 'openai', 'os']);
    expect(findEdge(main.edges, 'imports', 'main.py', 'app/util.py')).toMatchObject({ lines: [2], resolution: 'scope' });
  });

  it('imports the package of a from-import, and the submodules it names', () => {
    const { file } = resolveSources({
      'pkg/__init__.py': 'VERSION = 1\n',
      'pkg/tools.py': '',
      'pkg/shell.py': '',
      'main.py': 'from pkg import tools, VERSION\nfrom pkg.shell import run\n',
    });
    expect(edgeList(file('main.py').edges, 'imports')).toEqual(['main.py -> pkg/__init__.py', 'main.py -> pkg/shell.py', 'main.py -> pkg/tools.py']);
  });

  it('resolves relative imports against the importing file’s package', () => {
    const { file } = resolveSources({
      'pkg/__init__.py': '',
      'pkg/base.py': '',
      'pkg/agent/__init__.py': 'from .loop import Agent\n',
      'pkg/agent/loop.py': 'from . import prompt\nfrom .. import base\nfrom ..base import Tool\nfrom ...outside import nothing\nclass Agent: pass\n',
      'pkg/agent/prompt.py': '',
    });
    expect(edgeList(file('pkg/agent/loop.py').edges, 'imports')).toEqual([
      'pkg/agent/loop.py -> pkg/__init__.py',
      'pkg/agent/loop.py -> pkg/agent/__init__.py',
      'pkg/agent/loop.py -> pkg/agent/prompt.py',
      'pkg/agent/loop.py -> pkg/base.py',
    ]);
    expect(file('pkg/agent/loop.py').externalImports).toEqual([]);
    expect(edgeList(file('pkg/agent/__init__.py').edges, 'imports')).toEqual(['pkg/agent/__init__.py -> pkg/agent/loop.py']);
  });

  it('finds packages of a src/ layout, and namespace packages without __init__.py', () => {
    const { file } = resolveSources({
      'src/harness/__init__.py': '',
      'src/harness/plugins/git_tools.py': 'def status(): pass\n',
      'src/harness/cli.py': 'from harness.plugins import git_tools\nimport harness.plugins.git_tools as gt\n',
      'tests/test_cli.py': 'import harness.cli\nfrom helpers import make\n',
      'tests/helpers.py': 'def make(): pass\n',
    });
    expect(edgeList(file('src/harness/cli.py').edges, 'imports')).toEqual(['src/harness/cli.py -> src/harness/plugins/git_tools.py']);
    // A test folder that is no package puts its own folder on the path, as pytest does.
    expect(edgeList(file('tests/test_cli.py').edges, 'imports')).toEqual(['tests/test_cli.py -> src/harness/cli.py', 'tests/test_cli.py -> tests/helpers.py']);
  });

  it('takes a name that is only a folder without __init__.py for an installed package unless a file is reached through it', () => {
    const { file } = resolveSources({
      'openai/example.py': '',
      'main.py': 'import openai\nfrom openai import OpenAI\nfrom openai import example\n',
    });
    expect(edgeList(file('main.py').edges, 'imports')).toEqual(['main.py -> openai/example.py']);
    expect(file('main.py').externalImports).toEqual(['openai']);
  });

  it('calls through __init__ re-exports, aliases and star imports to the defining unit', () => {
    const { file } = resolveSources({
      'pkg/__init__.py': 'from .tools import *\n',
      'pkg/tools/__init__.py': 'from .registry import ToolRegistry as Registry, make\n__all__ = ["Registry", "make"]\n',
      'pkg/tools/registry.py': 'class ToolRegistry:\n    def run(self): pass\ndef make(): pass\ndef _hidden(): pass\n',
      'pkg/plain.py': 'def public(): pass\ndef _private(): pass\n',
      'main.py': py`
        import pkg
        from pkg import Registry as R
        from pkg.plain import *
        import pkg.tools as tools

        def go():
            pkg.make()
            R().run()
            tools.Registry.run(None)
            public()
            _private()
      `,
    });
    const main = file('main.py');
    expect(edgeList(main.edges, 'calls')).toEqual([
      'main.py#go -> pkg/plain.py#public',
      'main.py#go -> pkg/tools/registry.py#ToolRegistry.run',
      'main.py#go -> pkg/tools/registry.py#make',
    ]);
    expect(edgeList(main.edges, 'instantiates')).toEqual(['main.py#go -> pkg/tools/registry.py#ToolRegistry']);
    expect(main.unresolved).toEqual([{ from: 'main.py#go', text: '_private', line: 11, reason: 'unknown' }]);
  });

  it('gives a test file its imports only', () => {
    const { file, files } = resolveSources({
      'pkg/__init__.py': '',
      'pkg/agent.py': 'def run(): pass\n',
      'tests/test_agent.py': 'import pytest\nfrom pkg.agent import run\n\ndef test_run():\n    run()\n',
    });
    expect(files.get('tests/test_agent.py')!.units).toHaveLength(1);
    const test = file('tests/test_agent.py');
    expect(test.edges.map((edge) => `${edge.kind} ${edge.from} -> ${edge.to}`)).toEqual(['imports tests/test_agent.py -> pkg/agent.py']);
    expect(test.externalImports).toEqual(['pytest']);
    expect(test.callSites).toBe(0);
  });

  it('imports inside functions are the file’s imports too', () => {
    const { file } = resolveSources({
      'lazy.py': 'def heavy(): pass\n',
      'main.py': 'def go():\n    import lazy\n    lazy.heavy()\n',
    });
    expect(edgeList(file('main.py').edges, 'imports')).toEqual(['main.py -> lazy.py']);
    expect(edgeList(file('main.py').edges, 'calls')).toEqual(['main.py#go -> lazy.py#heavy']);
  });

  it('takes a name a star import of an outside package may bring for that package’s, and a listed submodule for the module', () => {
    const { file } = resolveSources({
      'pkg/__init__.py': '__all__ = ["shell"]\n',
      'pkg/shell.py': 'def run(): pass\n',
      'main.py': 'from os.path import *\nfrom pkg import *\n\ndef go():\n    join("a")\n    shell.run()\n',
    });
    expect(file('main.py').unresolved).toEqual([{ from: 'main.py#go', text: 'join', line: 5, reason: 'external' }]);
    expect(edgeList(file('main.py').edges, 'calls')).toEqual(['main.py#go -> pkg/shell.py#run']);
  });
});
