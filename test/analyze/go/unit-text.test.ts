import { describe, expect, it } from 'vitest';
import { go, unitOf, unitsOf } from './go-kit.js';

const METHOD = `func (a *Agent) Run(task string) string {
	if task != "" {
		a.count++ // one more
		return "done"
	}
	return ""
}
`;

function hashOf(source: string, symbol: string): string {
  return unitOf(unitsOf('agent.go', source), symbol).hash;
}

function indent(text: string, prefix: string): string {
  return text.split('\n').map((line) => (line.trim() === '' ? line : prefix + line)).join('\n');
}

describe('Go unit hashes', () => {
  const first = `package agent\n\ntype Agent struct{ count int }\n\n${METHOD}`;

  it('keeps a method hash when it moves down the file or to another file', () => {
    const moved = `package agent\n\nimport "fmt"\n\nvar x = fmt.Sprint()\n\n// Run runs.\n${METHOD}\ntype Agent struct{ count int }\n`;
    expect(hashOf(moved, 'Agent.Run')).toBe(hashOf(first, 'Agent.Run'));
  });

  it('keeps it through layout: re-indenting, reflowed arguments with their trailing comma, semicolons', () => {
    const reflowed = first
      .replace('func (a *Agent) Run(task string) string {', 'func (a *Agent) Run(\n\ttask string,\n) string {')
      .replace('a.count++ // one more', 'a.count++; // one more')
      .replace('return "done"', '\n\n\t\treturn "done"');
    expect(hashOf(reflowed, 'Agent.Run')).toBe(hashOf(first, 'Agent.Run'));
    const reindented = `package agent\n\ntype Agent struct{ count int }\n\n${indent(METHOD, '    ')}`;
    expect(hashOf(reindented, 'Agent.Run')).toBe(hashOf(first, 'Agent.Run'));
  });

  it('keeps it when only the line endings change, raw strings included', () => {
    const raw = `${first}\nfunc Usage() string {\n\treturn \`line one\nline two\`\n}\n`;
    expect(hashOf(raw.replace(/\n/g, '\r\n'), 'Agent.Run')).toBe(hashOf(raw, 'Agent.Run'));
    expect(hashOf(raw.replace(/\n/g, '\r\n'), 'Usage')).toBe(hashOf(raw, 'Usage'));
  });

  it('changes it for a changed literal, even only its spacing, and for a changed comment', () => {
    expect(hashOf(first.replace('"done"', '"done "'), 'Agent.Run')).not.toBe(hashOf(first, 'Agent.Run'));
    expect(hashOf(first.replace('// one more', '// one more thing'), 'Agent.Run')).not.toBe(hashOf(first, 'Agent.Run'));
    expect(hashOf(first.replace('// one more', '//   one   more'), 'Agent.Run')).toBe(hashOf(first, 'Agent.Run'));
  });

  it('changes it when a statement leaves its block, with the same tokens', () => {
    const moved = first.replace('\t\treturn "done"\n\t}', '\t}\n\treturn "done"');
    expect(hashOf(moved, 'Agent.Run')).not.toBe(hashOf(first, 'Agent.Run'));
  });

  it('changes a struct hash with its fields, not with its methods', () => {
    expect(hashOf(first.replace('count int', 'count int64'), 'Agent')).not.toBe(hashOf(first, 'Agent'));
    expect(hashOf(first.replace('return "done"', 'return "ok"'), 'Agent')).toBe(hashOf(first, 'Agent'));
  });
});

describe('Go unit text', () => {
  const source = go`
    package tools

    // handlers are the tools the agent may call, by name.
    var handlers = map[string]HandlerFunc{"bash": runBash, "read_file": readFile}

    // Dispatch runs a tool call; an unknown tool is an error result.
    func (r *Registry) Dispatch(name string, args map[string]string) (string, error) {
    	// Look the handler up before anything else.
    	handler, ok := r.lookupEntry(name)
    	if !ok {
    		return fmt.Sprintf("unknown tool %q; available: %v", name, r.names), nil
    	}
    	return handler(args)
    }
  `;
  const units = unitsOf('internal/tools/registry.go', source);

  it('collects the words of identifiers and comments, the doc comment’s first', () => {
    expect(unitOf(units, 'Registry.Dispatch').words.split(' ')).toEqual(expect.arrayContaining(['dispatch', 'runs', 'tool', 'call', 'registry', 'look', 'handler', 'lookup', 'entry', 'names', 'sprintf']));
  });

  it('collects the words of string literals', () => {
    expect(unitOf(units, 'Registry.Dispatch').literals).toBe('unknown tool available');
    expect(unitOf(units, 'handlers').literals).toBe('bash read file');
  });

  it('clips a long doc comment at 600 characters', () => {
    const long = unitsOf('m.go', `package m\n\n// ${'word '.repeat(300)}\nfunc F() {}\n`);
    const doc = unitOf(long, 'F').doc;
    expect(doc).toHaveLength(600);
    expect(doc.endsWith('…')).toBe(true);
  });

  it('leaves tool directives out of a doc comment', () => {
    const directed = unitsOf('m.go', 'package m\n\n// Generate the table.\n//go:generate stringer -type=Kind\nfunc F() {}\n');
    expect(unitOf(directed, 'F').doc).toBe('Generate the table.');
  });
});
