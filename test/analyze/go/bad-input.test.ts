import { describe, expect, it } from 'vitest';
import { extract, go, resolveSources, unitOf } from './go-kit.js';

describe('Go bad input', () => {
  it('reads units from what parsed around a syntax error, and counts the error', () => {
    const source = go`
      package broken

      func good() int {
      	return 1
      }

      func broken( {
      	return 2
      }

      type After struct{ n int }

      func (a *After) Method() int {
      	return good()
      }
    `;
    const extracted = extract('broken.go', source);
    expect(extracted.parseErrors).toBeGreaterThan(0);
    expect(extracted.warning).toEqual({ line: 7, message: expect.stringMatching(/^(invalid syntax|missing .+)$/) });
    expect(extracted.units.map((unit) => unit.symbol)).toEqual(expect.arrayContaining(['good', 'After', 'After.Method']));
    expect(() => resolveSources({ 'broken.go': source })).not.toThrow();
  });

  it('reads a NUL byte and replacement characters (bytes that were not UTF-8) without throwing', () => {
    const source = 'package nul\n\nfunc F() string {\n\treturn "a\u0000b"\n}\n\u0000\nfunc caf\uFFFD() {\n\tx := "\uFFFD\uFFFD"\n\t_ = x\n\tF()\n}\n';
    const extracted = extract('nul.go', source);
    expect(unitOf(extracted.units, 'F').kind).toBe('function');
    expect(() => resolveSources({ 'nul.go': source })).not.toThrow();
  });

  it('reads an empty file, a file of comments, a file without a package clause', () => {
    expect(extract('empty.go', '').units).toEqual([expect.objectContaining({ id: 'empty.go', kind: 'file', endLine: 1 })]);
    expect(extract('comments.go', '// nothing\n// here\n').units).toHaveLength(1);
    const { file } = resolveSources({ 'nopackage.go': 'func F() { G() }\nfunc G() {}\n' });
    expect(file('nopackage.go').unresolved.map((call) => call.reason)).toEqual(['unknown']);
  });

  it('reads expressions nested far deeper than any stack allows', () => {
    const chain = `package deep\n\nvar x = ${Array.from({ length: 20_000 }, (_, index) => `f${index}()`).join(' + ')}\n`;
    const nested = `package deep\n\nvar y = ${'('.repeat(3000)}1${')'.repeat(3000)}\n`;
    for (const source of [chain, nested]) {
      const extracted = extract('deep.go', source);
      expect(extracted.units.map((unit) => unit.symbol)).toEqual(['', source.includes('var x') ? 'x' : 'y']);
      expect(() => resolveSources({ 'deep.go': source })).not.toThrow();
    }
  });

  it('reads a 2 MB generated file in reasonable time', () => {
    let source = 'package generated\n\n';
    for (let index = 0; source.length < 2_000_000; index += 1) {
      source += `// Message${index} is generated.\ntype Message${index} struct {\n\tID    int    \`json:"id"\`\n\tValue string \`json:"value"\`\n}\n\nfunc (m *Message${index}) Reset() {\n\tm.ID = ${index}\n\tm.Value = helper("text ${index}")\n}\n\n`;
    }
    source += 'func helper(text string) string { return text }\n';
    const started = performance.now();
    const extracted = extract('messages.pb.go', source);
    const resolved = resolveSources({ 'messages.pb.go': source });
    const seconds = (performance.now() - started) / 1000;
    expect(extracted.parseErrors).toBe(0);
    expect(extracted.units.length).toBeGreaterThan(30_000);
    expect(resolved.file('messages.pb.go').resolvedCalls).toBeGreaterThan(7000);
    // Generous for a slow, shared machine: parsing alone takes about a second.
    expect(seconds).toBeLessThan(60);
  }, 120_000);

  it('ends on loops: vars defined by each other, structs embedding each other, an interface embedding itself', () => {
    const { file, resolved } = resolveSources({
      'loop.go': go`
        package loop

        var a = b
        var b = a

        type A struct{ B }
        type B struct{ A }

        type I interface {
        	I
        	Run()
        }

        func (x A) Run() {}

        func Use(value A, i I) {
        	a.Go()
        	value.Missing()
        	value.Run()
        	i.Run()
        }
      `,
    });
    expect(file('loop.go').callSites).toBe(4);
    expect(resolved.heritage.length).toBeGreaterThan(0);
  });
});
