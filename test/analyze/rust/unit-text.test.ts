import { describe, expect, it } from 'vitest';
import { rs, unitOf, unitsOf } from './rust-kit.js';

const METHOD = `/// Runs the task.
pub fn run(&mut self, task: &str) -> String {
    if !task.is_empty() {
        self.count += 1; // one more
        return "done".to_string();
    }
    String::new()
}
`;

function indent(text: string, prefix: string): string {
  return text.split('\n').map((line) => (line.trim() === '' ? line : prefix + line)).join('\n');
}

function hashOf(source: string, symbol: string): string {
  return unitOf(unitsOf('src/m.rs', source), symbol).hash;
}

describe('Rust unit hashes', () => {
  const inFirst = `impl First {\n${indent(METHOD, '    ')}}\n`;

  it('keeps a method hash when the method moves to another impl at another depth', () => {
    const moved = `mod outer {\n    impl Second {\n        fn other() {}\n\n${indent(METHOD, '        ')}    }\n}\n`;
    expect(hashOf(moved, 'outer.Second.run')).toBe(hashOf(inFirst, 'First.run'));
  });

  it('keeps it through layout: blank lines, reflowed parameters and expressions', () => {
    const reflowed = inFirst
      .replace('pub fn run(&mut self, task: &str) -> String {', 'pub fn run(\n        &mut self,\n        task: &str\n    ) -> String\n    {')
      .replace('self.count += 1;', 'self.count\n            += 1;')
      .replace('return "done"', '\n\n        return "done"');
    expect(hashOf(reflowed, 'First.run')).toBe(hashOf(inFirst, 'First.run'));
  });

  it('keeps it when only the line endings change, inside a string literal too', () => {
    const multiline = inFirst.replace('"done"', '"done\nreally"');
    expect(hashOf(multiline.replace(/\n/g, '\r\n'), 'First.run')).toBe(hashOf(multiline, 'First.run'));
  });

  it('changes it for a changed literal, even only its spacing', () => {
    expect(hashOf(inFirst.replace('"done"', '"done "'), 'First.run')).not.toBe(hashOf(inFirst, 'First.run'));
  });

  it('changes it for a changed comment, not for its spacing', () => {
    expect(hashOf(inFirst.replace('// one more', '// one  more thing'), 'First.run')).not.toBe(hashOf(inFirst, 'First.run'));
    expect(hashOf(inFirst.replace('// one more', '//   one   more'), 'First.run')).toBe(hashOf(inFirst, 'First.run'));
  });

  it('changes it when a statement leaves its block, with the same tokens', () => {
    const moved = `impl First {\n${indent(METHOD.replace('        return "done".to_string();\n    }', '    }\n    return "done".to_string();'), '    ')}}\n`;
    expect(moved).not.toBe(inFirst);
    expect(hashOf(moved, 'First.run')).not.toBe(hashOf(inFirst, 'First.run'));
  });

  it('leaves the doc comment out of the hash: the doc is a field of its own', () => {
    const redocumented = inFirst.replace('/// Runs the task.', '/// Runs the task, twice.');
    expect(hashOf(redocumented, 'First.run')).toBe(hashOf(inFirst, 'First.run'));
    expect(unitOf(unitsOf('src/m.rs', redocumented), 'First.run').doc).toBe('Runs the task, twice.');
  });

  it('changes a struct hash with its fields and attributes, not with its impls', () => {
    const source = rs`
      #[derive(Debug)]
      pub struct Agent { pub steps: u32 }
      impl Agent { fn go(&self) -> u32 { 1 } }
    `;
    expect(hashOf(source.replace('-> u32 { 1 }', '-> u32 { 2 }'), 'Agent')).toBe(hashOf(source, 'Agent'));
    expect(hashOf(source.replace('pub steps: u32', 'pub steps: u64'), 'Agent')).not.toBe(hashOf(source, 'Agent'));
    expect(hashOf(source.replace('#[derive(Debug)]', '#[derive(Debug, Clone)]'), 'Agent')).not.toBe(hashOf(source, 'Agent'));
  });
});

describe('Rust unit vocabulary', () => {
  const units = unitsOf('src/m.rs', rs`
    pub struct ToolRegistry {
        /// Handlers by name.
        handlers: HashMap<String, Handler>,
    }

    impl ToolRegistry {
        /// Runs a tool.
        pub fn dispatch(&self, name: &str) -> Result<String, String> {
            // look the handler up
            let handler = self.handlers.get(name).ok_or("no such tool")?;
            fn nested_helper(shell_command: &str) -> String { format!("running {}", shell_command) }
            Ok(handler(name))
        }
    }
  `);

  it('takes words from identifiers and comments of the unit’s own code, not nested units’', () => {
    const dispatch = unitOf(units, 'ToolRegistry.dispatch');
    expect(dispatch.words.split(' ')).toEqual(expect.arrayContaining(['dispatch', 'name', 'handler', 'handlers', 'look', 'result']));
    expect(dispatch.words.split(' ')).not.toContain('shell');
    expect(unitOf(units, 'ToolRegistry.dispatch.nested_helper').words.split(' ')).toEqual(expect.arrayContaining(['nested', 'helper', 'shell', 'command']));
    expect(unitOf(units, 'ToolRegistry').words.split(' ')).not.toContain('handlers');
    expect(unitOf(units, 'ToolRegistry.handlers').words.split(' ')).toEqual(expect.arrayContaining(['handlers', 'hash', 'map']));
  });

  it('takes literals from the unit’s own string literals', () => {
    expect(unitOf(units, 'ToolRegistry.dispatch').literals).toBe('such tool');
    expect(unitOf(units, 'ToolRegistry.dispatch.nested_helper').literals).toBe('running');
  });
});
