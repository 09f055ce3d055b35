import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../../src/analyze/analyze-repository.js';
import { decodeSource } from '../../../src/analyze/source-text.js';
import { repositoryFrom } from '../../helpers/repository-from.js';

const repository = (files: Record<string, string | Buffer>): string => repositoryFrom(files, 'handbook-py-input-');

describe('Python repositories as they come', () => {
  it('reads a file in the encoding its PEP 263 line declares, as Python does', () => {
    const latin1 = Buffer.concat([
      Buffer.from('# -*- coding: latin-1 -*-\ndef greet():\n    """Dit bonjour au caf', 'latin1'),
      Buffer.from([0xe9]),
      Buffer.from('."""\n    return "caf\u00e9"\n', 'latin1'),
    ]);
    const root = repository({ 'app/greet.py': latin1, 'app/main.py': 'from app.greet import greet\n\ndef main():\n    return greet()\n' });
    const result = analyzeRepository(root);
    expect(result.graph.units.find((unit) => unit.id === 'app/greet.py#greet')?.doc).toBe('Dit bonjour au café.');
    expect(result.graph.edges).toContainEqual(expect.objectContaining({ kind: 'calls', from: 'app/main.py#main', to: 'app/greet.py#greet' }));
    expect(result.statistics.parseWarnings).toEqual([]);
  });

  it('takes the declaration on the second line after a shebang, and none after code or for UTF-8', () => {
    const e9 = (head: string) => Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from([0xe9, 0x0a])]);
    expect(decodeSource(e9('#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\nx = "'), 'a.py')).toBe('#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\nx = "é\n');
    expect(decodeSource(e9('import os\n# coding: latin-1\nx = "'), 'a.py')).toContain('\ufffd');
    expect(decodeSource(e9('# coding: utf-8\nx = "'), 'a.py')).toContain('\ufffd');
    expect(decodeSource(e9('# coding: no-such-codec\nx = "'), 'a.py')).toContain('\ufffd');
    // Another language's file is UTF-8 whatever its first lines say.
    expect(decodeSource(e9('# coding: latin-1\nx = "'), 'a.rs')).toContain('\ufffd');
  });

  it('resolves imports of a namespace package (no __init__.py) beside setup.py and pyproject.toml', () => {
    const root = repository({
      'setup.py': 'from setuptools import setup\n\nsetup(name="tool")\n',
      'pyproject.toml': '[project]\nname = "tool"\n',
      'tool/plugins/shell.py': 'def run():\n    return 1\n',
      'tool/cli.py': 'from tool.plugins import shell\n\ndef main():\n    return shell.run()\n',
    });
    const result = analyzeRepository(root);
    expect(result.graph.edges).toContainEqual(expect.objectContaining({ kind: 'imports', from: 'tool/cli.py', to: 'tool/plugins/shell.py' }));
    expect(result.graph.edges).toContainEqual(expect.objectContaining({ kind: 'calls', from: 'tool/cli.py#main', to: 'tool/plugins/shell.py#run' }));
    // setup.py is code like any other: its call to setuptools is external.
    expect(result.graph.files.map((file) => file.path)).toEqual(expect.arrayContaining(['setup.py', 'tool/cli.py']));
  });

  it('ends on a symbolic link that loops back to a folder above it, and says it skipped it', () => {
    const root = repository({ 'pkg/__init__.py': '', 'pkg/core.py': 'def f():\n    return 1\n' });
    symlinkSync('..', path.join(root, 'pkg', 'again'));
    const result = analyzeRepository(root);
    expect(result.graph.files.map((file) => file.path)).toEqual(['pkg/__init__.py', 'pkg/core.py']);
    expect(result.statistics.skippedDirectories).toMatchObject({ 'symlink-loop': 1 });
  });
});
