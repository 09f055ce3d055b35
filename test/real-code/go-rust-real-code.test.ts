import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository, type AnalysisResult } from '../../src/analyze/analyze-repository.js';
import type { Edge, EdgeKind } from '../../src/graph/model.js';
import { DEBIAN_REAL_CODE, debianRealCodeDirectory, type DebianRealCodeName } from '../helpers/debian-real-code.js';

/** The real code base of one language, analyzed once, with a lookup of its edges; undefined when the setup could not fetch it. */
function realCode(name: DebianRealCodeName): { available: boolean; result: () => AnalysisResult; edge: (kind: EdgeKind, from: string, to: string) => Edge | undefined } {
  const directory = debianRealCodeDirectory(name);
  const entry = DEBIAN_REAL_CODE[name];
  const available = existsSync(directory);
  if (!available) process.stderr.write(`skipping ${name} real-code tests: ${entry.debianPackage} ${entry.version} is not in ${directory}\n`);
  let result: AnalysisResult | undefined;
  if (available) beforeAll(() => {
    result = analyzeRepository(directory);
  }, 120_000);
  return {
    available,
    result: () => result!,
    edge: (kind, from, to) => result!.graph.edges.find((each) => each.kind === kind && each.from === from && each.to === to),
  };
}

const unitCount = (result: AnalysisResult, kind: string): number => {
  const tests = new Set(result.graph.files.filter((file) => file.test).map((file) => file.path));
  return result.graph.units.filter((unit) => unit.kind === kind && !tests.has(unit.file)).length;
};

/**
 * Real Go from Debian's archive: logrus, a module whose interfaces are implemented in its own
 * packages. Every fact was checked by hand on this version: each call and its line in the source,
 * the method sets behind each `implements`, and the counts with grep over the files that are not
 * tests (`^func (` for methods, `^func ` without a receiver for functions, `interface {`).
 */
describe.skipIf(!existsSync(debianRealCodeDirectory('go')))(`real Go: logrus from Debian's ${DEBIAN_REAL_CODE.go.debianPackage} ${DEBIAN_REAL_CODE.go.version}`, () => {
  const go = realCode('go');

  it('reads every file, tests apart, with the functions, methods and interfaces grep counts', () => {
    const result = go.result();
    expect(result.statistics.files).toBe(46);
    expect(result.graph.files.filter((file) => !file.test)).toHaveLength(26);
    expect(result.statistics.parseWarnings).toEqual([]);
    expect(unitCount(result, 'function')).toBe(86);
    expect(unitCount(result, 'method')).toBe(136);
    expect(unitCount(result, 'interface')).toBe(6);
    expect(result.statistics.languages).toEqual([expect.objectContaining({ language: 'go', files: 46 })]);
  });

  it('finds implementations by method set, in the same package and through the module path in another', () => {
    expect(go.edge('implements', 'json_formatter.go#JSONFormatter', 'formatter.go#Formatter')).toMatchObject({ resolution: 'name' });
    expect(go.edge('implements', 'text_formatter.go#TextFormatter', 'formatter.go#Formatter')).toBeDefined();
    expect(go.edge('implements', 'hooks/syslog/syslog.go#SyslogHook', 'hooks.go#Hook')).toBeDefined();
    expect(go.edge('implements', 'logger.go#Logger', 'logrus.go#FieldLogger')).toBeDefined();
  });

  it('resolves calls through a package variable, a deferred call, a goroutine and a chained call', () => {
    // func Info(args ...interface{}) { std.Info(args...) }, with var std = New()
    expect(go.edge('calls', 'exported.go#Info', 'logger.go#Logger.Info')?.lines).toEqual([109]);
    expect(go.edge('calls', 'logger.go#Logger.SetFormatter', 'logger.go#MutexWrap.Lock')?.lines).toEqual([385]);
    expect(go.edge('calls', 'logger.go#Logger.SetFormatter', 'logger.go#MutexWrap.Unlock')?.lines).toEqual([386]);
    expect(go.edge('calls', 'writer.go#Entry.WriterLevel', 'writer.go#Entry.writerScanner')?.lines).toEqual([51]);
    expect(go.edge('calls', 'writer.go#Logger.WriterLevel', 'entry.go#NewEntry')?.lines).toEqual([20]);
    expect(go.edge('calls', 'writer.go#Logger.WriterLevel', 'writer.go#Entry.WriterLevel')?.lines).toEqual([20]);
  });

  it('keeps method values as references and field writes through the receiver', () => {
    // printFunc = entry.Fatal, in a switch over the level
    expect(go.edge('references', 'writer.go#Entry.WriterLevel', 'entry.go#Entry.Fatal')?.lines).toEqual([44]);
    expect(go.edge('writes', 'logger.go#Logger.SetFormatter', 'logger.go#Logger.Formatter')?.lines).toEqual([387]);
  });

  it('resolves at least the measured share of calls that can reach repository code', () => {
    const result = go.result();
    const external = result.graph.unresolved.filter((call) => call.reason === 'external').length;
    // Measured 0.952 on this version.
    expect(result.statistics.resolvedCalls / (result.statistics.callSites - external)).toBeGreaterThan(0.9);
  });
});

/**
 * Real Rust from Debian's archive: serde_json, one crate. Every fact was checked by hand on this
 * version: each `impl Trait for Type` and call line in the source; the counts of files and
 * `macro_rules!` with grep.
 */
describe.skipIf(!existsSync(debianRealCodeDirectory('rust')))(`real Rust: serde_json from Debian's ${DEBIAN_REAL_CODE.rust.debianPackage} ${DEBIAN_REAL_CODE.rust.version}`, () => {
  const rust = realCode('rust');

  it('reads every file, tests apart, and says which one is not Rust at all', () => {
    const result = rust.result();
    expect(result.statistics.files).toBe(68);
    // src/ (39 files) and build.rs; tests/ holds the rest.
    expect(result.graph.files.filter((file) => !file.test)).toHaveLength(40);
    // src/features_check/error.rs is a bare string literal, compiled only to fail a build without std or alloc.
    expect(result.statistics.parseWarnings.map((warning) => warning.file)).toContain('src/features_check/error.rs');
  });

  it('turns each macro_rules! into a unit and each impl Trait for Type into an implements edge', () => {
    const result = rust.result();
    // A unit starts at its attributes: `#[macro_export(local_inner_macros)]` on 52, `macro_rules! json {` on 53.
    expect(result.graph.units.find((unit) => unit.id === 'src/macros.rs#json')).toMatchObject({ kind: 'function', startLine: 52 });
    expect(result.graph.units.find((unit) => unit.id === 'src/lib.rs#tri')?.startLine).toBe(388);
    expect(rust.edge('implements', 'src/read.rs#StrRead', 'src/read.rs#Read')?.lines).toEqual([630]);
    expect(rust.edge('implements', 'src/read.rs#SliceRead', 'src/read.rs#Read')?.lines).toEqual([487]);
    expect(rust.edge('implements', 'src/ser.rs#CompactFormatter', 'src/ser.rs#Formatter')?.lines).toEqual([1859]);
    expect(rust.edge('implements', 'src/ser.rs#PrettyFormatter', 'src/ser.rs#Formatter')?.lines).toEqual([1891]);
  });

  it('resolves calls through a module path, an associated function and a macro', () => {
    // from_trait(read::StrRead::new(s))
    expect(rust.edge('calls', 'src/de.rs#from_str', 'src/de.rs#from_trait')?.lines).toEqual([2602]);
    expect(rust.edge('calls', 'src/de.rs#from_str', 'src/read.rs#StrRead.new')?.lines).toEqual([2602]);
    // let vec = tri!(to_vec(value));
    expect(rust.edge('calls', 'src/ser.rs#to_string', 'src/ser.rs#to_vec')?.lines).toEqual([2143]);
    expect(rust.edge('calls', 'src/ser.rs#to_string', 'src/lib.rs#tri')?.lines).toEqual([2143]);
  });

  it('follows the crate root\'s mod and pub use lines to the module files', () => {
    expect(rust.edge('imports', 'src/lib.rs', 'src/de.rs')?.lines).toContain(373);
    expect(rust.edge('imports', 'src/lib.rs', 'src/value/mod.rs')).toBeDefined();
    expect(rust.edge('imports', 'src/lib.rs', 'src/io/mod.rs')).toBeDefined();
  });

  it('resolves at least the measured share of calls that can reach repository code', () => {
    const result = rust.result();
    const external = result.graph.unresolved.filter((call) => call.reason === 'external').length;
    // Measured 0.888 on this version.
    expect(result.statistics.resolvedCalls / (result.statistics.callSites - external)).toBeGreaterThan(0.85);
  });
});
