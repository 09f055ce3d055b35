import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository, type AnalysisResult } from '../../src/analyze/analyze-repository.js';
import type { Edge, EdgeKind } from '../../src/graph/model.js';
import { DEBIAN_REAL_CODE, debianRealCodeDirectory } from '../helpers/debian-real-code.js';

const PYTHON_REAL_CODE = { ...DEBIAN_REAL_CODE.python, pythonPackage: DEBIAN_REAL_CODE.python.keep };

const directory = debianRealCodeDirectory('python');
const available = existsSync(directory);
if (!available) process.stderr.write(`skipping Python real-code tests: ${PYTHON_REAL_CODE.debianPackage} ${PYTHON_REAL_CODE.version} is not in ${directory}\n`);

/**
 * Real Python from Debian's archive, end to end. Every fact below was checked by hand on this
 * version with Python's own `ast` module (the import statement, the enclosing def of the call,
 * the definition's line and bases); the counts too.
 */
describe.skipIf(!available)(`real Python: ${PYTHON_REAL_CODE.pythonPackage} from Debian's ${PYTHON_REAL_CODE.debianPackage} ${PYTHON_REAL_CODE.version}`, () => {
  let result: AnalysisResult;
  const edge = (kind: EdgeKind, from: string, to: string): Edge | undefined => result.graph.edges.find((each) => each.kind === kind && each.from === from && each.to === to);
  const P = 'prompt_toolkit';

  beforeAll(() => {
    result = analyzeRepository(directory);
  }, 120_000);

  it('reads every file, with the classes, functions and methods ast counts, and no syntax error', () => {
    expect(result.statistics.files).toBe(146);
    expect(result.statistics.parseWarnings).toEqual([]);
    const count = (kind: string): number => result.graph.units.filter((unit) => unit.kind === kind).length;
    // ast: 327 classes (3 inside functions); 266 top-level functions and 478 nested ones.
    expect(count('class')).toBe(327);
    expect(count('function')).toBe(266 + 478);
    expect(result.statistics.languages).toEqual([expect.objectContaining({ language: 'python', files: 146 })]);
  });

  it('follows a re-export through two __init__ files to the class', () => {
    expect(edge('imports', `${P}/__init__.py`, `${P}/shortcuts/__init__.py`)).toBeDefined();
    expect(result.graph.units.find((unit) => unit.id === `${P}/shortcuts/prompt.py#PromptSession`)?.startLine).toBe(233);
  });

  it('resolves calls through relative imports, a package __init__ and a star import with __all__', () => {
    expect(edge('calls', `${P}/buffer.py#Buffer.__init__`, `${P}/filters/utils.py#to_filter`)?.lines).toEqual([258, 259, 260, 261, 262]);
    expect(edge('calls', `${P}/shortcuts/prompt.py#PromptSession._create_prompt_bindings`, `${P}/filters/app.py#has_focus`)?.lines).toContain(796);
    expect(edge('instantiates', `${P}/key_binding/bindings/basic.py#load_basic_bindings`, `${P}/key_binding/key_bindings.py#KeyBindings`)?.lines).toContain(31);
    expect(edge('calls', `${P}/key_binding/bindings/basic.py#load_basic_bindings`, `${P}/key_binding/bindings/named_commands.py#get_by_name`)?.lines).toContain(137);
  });

  it('resolves inside a closure, through the captured self, and an import inside a function', () => {
    expect(edge('calls', `${P}/buffer.py#Buffer.open_in_editor.run`, `${P}/application/run_in_terminal.py#run_in_terminal`)?.lines).toContain(1611);
    expect(edge('calls', `${P}/buffer.py#Buffer.open_in_editor.run`, `${P}/buffer.py#Buffer.validate_and_handle`)?.lines).toContain(1629);
    expect(edge('calls', `${P}/key_binding/bindings/named_commands.py#print_last_kbd_macro`, `${P}/application/run_in_terminal.py#run_in_terminal`)?.lines).toContain(586);
  });

  it('resolves base classes across files, and super() through the MRO', () => {
    expect(edge('extends', `${P}/completion/fuzzy_completer.py#FuzzyCompleter`, `${P}/completion/base.py#Completer`)).toBeDefined();
    expect(edge('extends', `${P}/shortcuts/prompt.py#_RPrompt`, `${P}/layout/containers.py#Window`)).toBeDefined();
    expect(edge('calls', `${P}/shortcuts/prompt.py#_RPrompt.__init__`, `${P}/layout/containers.py#Window.__init__`)?.lines).toContain(201);
    expect(edge('extends', `${P}/input/posix_pipe.py#PosixPipeInput`, `${P}/input/vt100.py#Vt100Input`)).toBeDefined();
    expect(edge('extends', `${P}/input/posix_pipe.py#PosixPipeInput`, `${P}/input/base.py#PipeInput`)).toBeDefined();
    expect(edge('calls', `${P}/widgets/base.py#Checkbox.__init__`, `${P}/widgets/base.py#_DialogList.__init__`)?.lines).toContain(897);
  });

  it('lets an imported name hide the builtin it shadows', () => {
    expect(edge('calls', `${P}/contrib/completers/system.py#SystemCompleter.__init__`, `${P}/contrib/regular_languages/compiler.py#compile`)?.lines).toContain(17);
  });

  it('resolves at least the measured share of calls that can reach repository code', () => {
    const external = result.graph.unresolved.filter((call) => call.reason === 'external').length;
    // Measured 0.948 on this version; 123 call sites of get_app in 20 files among them.
    expect(result.statistics.resolvedCalls / (result.statistics.callSites - external)).toBeGreaterThan(0.9);
    const getApp = result.graph.edges.filter((each) => each.kind === 'calls' && each.to === `${P}/application/current.py#get_app`);
    expect(getApp.reduce((sum, each) => sum + each.lines.length, 0)).toBeGreaterThanOrEqual(120);
    expect(result.graph.edges.every((each) => each.resolution === 'scope' || each.resolution === 'name')).toBe(true);
  });
});
