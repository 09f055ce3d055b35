import { describe, expect, it } from 'vitest';
import { extract, py, resolveSources, unitOf } from './python-kit.js';

describe('Python bad input', () => {
  it('reads units from what parsed around a syntax error, and counts the error', () => {
    const source = py`
      def good():
          return 1

      def broken(:
          return 2

      class After:
          def method(self):
              return good()
    `;
    const extracted = extract('m.py', source);
    expect(extracted.parseErrors).toBeGreaterThan(0);
    expect(extracted.warning).toEqual({ line: 4, message: expect.stringMatching(/^(invalid syntax|missing .+)$/) });
    expect(extracted.units.map((unit) => unit.symbol)).toEqual(expect.arrayContaining(['good', 'After', 'After.method']));
  });

  it('names a token the parser had to insert', () => {
    const extracted = extract('m.py', 'def f(:\n    pass\nx = (1,\n');
    expect(extracted.parseErrors).toBeGreaterThan(0);
    expect(extracted.warning?.line).toBe(1);
  });

  it('reads Python 2 without throwing', () => {
    const source = py`
      import urllib2

      def main():
          print "fetching"
          try:
              urllib2.urlopen("http://example.com")
          except Exception, error:
              print >>sys.stderr, error
          exec "x = 1"

      class Old(object):
          def run(self):
              print self
    `;
    const extracted = extract('legacy.py', source);
    expect(extracted.units.map((unit) => unit.symbol)).toEqual(expect.arrayContaining(['main', 'Old', 'Old.run']));
    expect(() => resolveSources({ 'legacy.py': source })).not.toThrow();
  });

  it('reads a NUL byte and replacement characters without throwing', () => {
    const source = 'def f():\n    return "a\u0000b"\n\u0000\ndef caf\uFFFD():\n    x = "\uFFFD\uFFFD"\n    return f()\n';
    const extracted = extract('nul.py', source);
    expect(unitOf(extracted.units, 'f').kind).toBe('function');
    expect(extracted.units.length).toBeGreaterThanOrEqual(2);
    expect(() => resolveSources({ 'nul.py': source })).not.toThrow();
  });

  it('reads an empty file and a file of comments', () => {
    expect(extract('empty.py', '').units).toEqual([expect.objectContaining({ id: 'empty.py', kind: 'file', endLine: 1 })]);
    expect(extract('comments.py', '# nothing\n# here\n').units).toHaveLength(1);
  });

  it('reads expressions nested far deeper than any stack allows', () => {
    const chain = `x = ${Array.from({ length: 20_000 }, (_, index) => `f${index}()`).join(' + ')}\n`;
    const nested = `y = ${'('.repeat(3000)}1${')'.repeat(3000)}\n`;
    for (const source of [chain, nested]) {
      const extracted = extract('deep.py', source);
      // Read, not given up on: the walk stops at a depth instead of exhausting the stack.
      expect(extracted.warning).toBeUndefined();
      expect(extracted.units.map((unit) => unit.symbol)).toEqual(['', source.startsWith('x') ? 'x' : 'y']);
      expect(() => resolveSources({ 'deep.py': source })).not.toThrow();
    }
  });

  it('reads a 2 MB generated file in reasonable time', () => {
    let source = '';
    for (let index = 0; source.length < 2_000_000; index += 1) {
      source += `class Generated${index}(Base):\n    """Generated ${index}."""\n    FIELDS = {"a": ${index}}\n\n    def method_${index}(self, value=None):\n        self.value = helper(value, "text ${index}")\n        return self.value\n\n`;
    }
    const started = performance.now();
    const extracted = extract('generated_pb2.py', source);
    const resolved = resolveSources({ 'generated_pb2.py': source });
    const seconds = (performance.now() - started) / 1000;
    expect(extracted.parseErrors).toBe(0);
    expect(extracted.units.length).toBeGreaterThan(30_000);
    expect(resolved.file('generated_pb2.py').callSites).toBeGreaterThan(0);
    // Generous for a slow, shared machine: parsing alone takes about a second.
    expect(seconds).toBeLessThan(60);
  }, 120_000);

  it('ends on loops: circular bases, star imports and re-exports of each other, names assigned from each other', () => {
    const { file, resolved } = resolveSources({
      'pkg/__init__.py': 'from .a import *\n',
      'pkg/a.py': 'from .b import *\nfrom .b import Thing as Alias\nclass A(B):\n    def run(self):\n        self.go()\n        missing()\n',
      'pkg/b.py': 'from .a import *\nfrom .a import Alias as Thing\nfrom .a import A\nclass B(A):\n    def go(self):\n        self.run()\n        Thing()\nx = y\ny = x\ndef f():\n    return x.attr()\n',
    });
    expect(resolved.heritage.map((edge) => `${edge.from} -> ${edge.to}`).sort()).toEqual(['pkg/a.py#A -> pkg/b.py#B', 'pkg/b.py#B -> pkg/a.py#A']);
    expect(file('pkg/a.py').unresolved.map((call) => call.text)).toContain('missing');
    expect(file('pkg/b.py').callSites).toBeGreaterThan(0);
  });
});
