import { describe, expect, it } from 'vitest';
import { py, unitOf, unitsOf } from './python-kit.js';

const METHOD = `def run(self, task):
    """Runs the task.

    Twice if needed.
    """
    if task:
        self.count += 1  # one more
        return "done"
    return None
`;

function indent(text: string, prefix: string): string {
  return text.split('\n').map((line) => (line.trim() === '' ? line : prefix + line)).join('\n');
}

function hashOfRun(source: string, symbol: string): string {
  return unitOf(unitsOf('m.py', source), symbol).hash;
}

describe('Python unit hashes', () => {
  const inFirst = `class First:\n${indent(METHOD, '    ')}`;

  it('keeps a method hash when the method moves to another class at another depth', () => {
    const moved = `class Outer:\n    class Second:\n        x = 1\n\n${indent(METHOD, '        ')}`;
    expect(hashOfRun(moved, 'Outer.Second.run')).toBe(hashOfRun(inFirst, 'First.run'));
  });

  it('keeps it through layout: blank lines, line continuations, reflowed arguments', () => {
    const reflowed = inFirst
      .replace('def run(self, task):', 'def run(\n        self,\n        task\n    ):')
      .replace('self.count += 1', 'self.count \\\n            += 1')
      .replace('return "done"', `\n\n${' '.repeat(12)}return "done"`);
    expect(hashOfRun(reflowed, 'First.run')).toBe(hashOfRun(inFirst, 'First.run'));
  });

  it('keeps it when only the line endings change', () => {
    expect(hashOfRun(inFirst.replace(/\n/g, '\r\n'), 'First.run')).toBe(hashOfRun(inFirst, 'First.run'));
  });

  it('changes it for a changed literal, even only its spacing', () => {
    expect(hashOfRun(inFirst.replace('"done"', '"done "'), 'First.run')).not.toBe(hashOfRun(inFirst, 'First.run'));
  });

  it('changes it for a changed comment', () => {
    expect(hashOfRun(inFirst.replace('# one more', '# one  more thing'), 'First.run')).not.toBe(hashOfRun(inFirst, 'First.run'));
    expect(hashOfRun(inFirst.replace('# one more', '#   one   more'), 'First.run')).toBe(hashOfRun(inFirst, 'First.run'));
  });

  it('changes it when a statement leaves its block, with the same tokens', () => {
    const dedented = inFirst.replace('        return "done"', '    return "done"');
    expect(hashOfRun(dedented, 'First.run')).not.toBe(hashOfRun(inFirst, 'First.run'));
  });

  it('changes a class hash with any of its methods, not its neighbours', () => {
    const source = `${inFirst}\n\nclass Other:\n    def go(self):\n        return 1\n`;
    const edited = source.replace('return 1', 'return 2');
    expect(hashOfRun(edited, 'First')).toBe(hashOfRun(source, 'First'));
    expect(hashOfRun(edited, 'Other')).not.toBe(hashOfRun(source, 'Other'));
  });

  it('hashes a decorated definition with its decorators', () => {
    const decorated = py`
      @retry(times=3)
      def go():
          return 1
    `;
    expect(hashOfRun(decorated.replace('times=3', 'times=4'), 'go')).not.toBe(hashOfRun(decorated, 'go'));
  });
});

describe('Python unit text', () => {
  const source = py`
    # Tools the agent may call, by name.
    # Filled by plugins.
    HANDLERS: dict[str, Handler] = {"bash": run_bash, "read": read_file, "write": write_file_with_a_long_name}

    TIMEOUT = 30  # seconds


    class ToolRegistry(Base, metaclass=Meta):
        """The set of tools
        one agent can use."""

        def dispatch(self, call: ToolCall, *, strict: bool = False) -> ToolResult:
            """Runs a tool call; failures come back as error results."""
            # Look the handler up before anything else.
            entry = self.lookup_entry(call.name)
            message = f"unknown tool {call.name!r}; available: {entry}"
            return ToolResult(message, "tool-error")
  `;
  const units = unitsOf('tools/registry.py', source);

  it('signs a def and a class by their head, without the colon', () => {
    expect(unitOf(units, 'ToolRegistry').signature).toBe('class ToolRegistry(Base, metaclass=Meta)');
    expect(unitOf(units, 'ToolRegistry.dispatch').signature).toBe('def dispatch(self, call: ToolCall, *, strict: bool = False) -> ToolResult');
  });

  it('signs an assignment by its first 60 characters', () => {
    expect(unitOf(units, 'HANDLERS').signature).toBe('HANDLERS: dict[str, Handler] = {"bash": run_bash, "read": re');
    expect(unitOf(units, 'TIMEOUT').signature).toBe('TIMEOUT = 30');
  });

  it('documents a def or class by its docstring, whitespace collapsed', () => {
    expect(unitOf(units, 'ToolRegistry').doc).toBe('The set of tools one agent can use.');
    expect(unitOf(units, 'ToolRegistry.dispatch').doc).toBe('Runs a tool call; failures come back as error results.');
  });

  it('documents a variable by the comment lines right above it', () => {
    expect(unitOf(units, 'HANDLERS').doc).toBe('Tools the agent may call, by name. Filled by plugins.');
    expect(unitOf(units, 'TIMEOUT').doc).toBe('');
  });

  it('collects the words of identifiers and comments, not of nested units', () => {
    const dispatch = unitOf(units, 'ToolRegistry.dispatch').words.split(' ');
    expect(dispatch).toEqual(expect.arrayContaining(['dispatch', 'call', 'tool', 'strict', 'result', 'look', 'handler', 'before', 'entry', 'lookup', 'name', 'message']));
    expect(dispatch).not.toContain('self');
    expect(unitOf(units, 'ToolRegistry').words.split(' ')).not.toContain('lookup');
  });

  it('collects the words of string literals, docstrings included', () => {
    expect(unitOf(units, 'ToolRegistry.dispatch').literals).toBe('runs tool call failures come back error results unknown available');
    expect(unitOf(units, 'HANDLERS').literals).toBe('bash read write');
  });

  it('clips a long docstring at 600 characters', () => {
    const long = unitsOf('m.py', `def f():\n    """${'word '.repeat(300)}"""\n`);
    const doc = unitOf(long, 'f').doc;
    expect(doc).toHaveLength(600);
    expect(doc.endsWith('…')).toBe(true);
  });
});
