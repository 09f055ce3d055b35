import { describe, expect, it } from 'vitest';
import type { Unit } from '../../src/graph/model.js';
import { ProgramGraph } from '../../src/graph/program-graph.js';
import type { OrganizedHandbook } from '../../src/organize/model.js';
import { parseRequest } from '../../src/route/request-terms.js';
import { routeRequest } from '../../src/route/route-request.js';
import { packSearchIndex, UnitSearchIndex } from '../../src/route/search-index.js';

function unit(file: string, symbol: string, words: string): Unit {
  return { id: `${file}#${symbol}`, kind: 'function', file, symbol, startLine: 1, endLine: 2, signature: '', doc: '', exported: true, hash: '0', literals: '', words, parent: file };
}

/** No stages and no edges: what is left to rank by is the units' words and their files'. */
function route(units: Unit[], request: string): string[] {
  const files = [...new Set(units.map((each) => each.file))];
  const graph = new ProgramGraph({
    files: files.map((file) => ({ path: file, hash: '0', lines: 10 })) as never,
    units: [...files.map((file) => ({ ...unit(file, '', ''), id: file, kind: 'file' as const, parent: undefined })), ...units],
    edges: [],
    slots: [],
    unresolved: [],
  });
  const organized = { stager: 'offline', stages: [], unassigned: [], overview: { title: '', summary: '', stages: [] } } as unknown as OrganizedHandbook;
  const code = graph.codeUnits();
  return routeRequest(parseRequest(request), graph, organized, [], new UnitSearchIndex(code, packSearchIndex(code))).locations.map((location) => location.unit.symbol);
}

describe('a location judged by its file and folder too', () => {
  it('ranks a match in the file whose other units are about the request above an equal match in a file about something else', () => {
    const units = [
      unit('src/a-chat.ts', 'hold', 'retry wait'),
      unit('src/a-chat.ts', 'send', 'send stream'),
      unit('src/a-chat.ts', 'render', 'render frame'),
      unit('src/z-pacing.ts', 'pause', 'retry wait'),
      unit('src/z-pacing.ts', 'jitter', 'retry jitter'),
      unit('src/z-pacing.ts', 'ceiling', 'retry ceiling'),
    ];
    // A cross-cutting request learns no words from its best matches, which here would do the same through the file's name.
    const order = route(units, 'retry wait everywhere');
    expect(order.indexOf('pause')).toBeLessThan(order.indexOf('hold'));
    // The same two units alone in their files tie, and the tie goes by id.
    expect(route([units[0]!, units[3]!], 'retry wait everywhere')).toEqual(['hold', 'pause']);
  });

  it('ranks a match in the folder whose other files are about the request above an equal match in a folder about something else', () => {
    const units = [
      unit('a/chat/hold.ts', 'hold', 'retry wait'),
      unit('a/chat/send.ts', 'send', 'send stream'),
      unit('z/pacing/pause.ts', 'pause', 'retry wait'),
      unit('z/pacing/jitter.ts', 'jitter', 'retry jitter'),
    ];
    const order = route(units, 'retry wait everywhere');
    expect(order.indexOf('pause')).toBeLessThan(order.indexOf('hold'));
    expect(route([units[0]!, units[2]!], 'retry wait everywhere')).toEqual(['hold', 'pause']);
  });
});

describe('a cross-cutting request and a family of units named alike', () => {
  const family = (names: string[]) => names.map((name, at) => unit(`src/steps/${name}.ts`, name, at === 0 ? 'inject guidance' : 'push entry'));

  it('brings every member of the family of a unit it matches, named alike in one folder', () => {
    const units = family(['makeAuditStep', 'makeMemoryStep', 'makeCacheStep']);
    const every = route(units, 'every place that injects guidance');
    expect(every).toEqual(expect.arrayContaining(['makeAuditStep', 'makeMemoryStep', 'makeCacheStep']));
    expect(every[0]).toBe('makeAuditStep');
    // Asked for one place, the family stays out.
    expect(route(units, 'where is guidance injected?')).toEqual(['makeAuditStep']);
  });

  it('leaves out a family too large to be one by design, and names in another folder', () => {
    const large = family(Array.from({ length: 14 }, (_, at) => `make${String.fromCharCode(65 + at)}xStep`));
    expect(route(large, 'every place that injects guidance')).toEqual(['makeAxStep']);
    const apart = [...family(['makeAuditStep']), unit('src/other/makeMemoryStep.ts', 'makeMemoryStep', 'push entry')];
    expect(route(apart, 'every place that injects guidance')).toEqual(['makeAuditStep']);
  });
});


describe('a location in a language aside from the main code', () => {
  // Ten TypeScript units and one Python port of the same step: equal words, equal files otherwise.
  const main = Array.from({ length: 9 }, (_, at) => unit(`src/part${at}.ts`, `part${at}`, `stream chunk ${at}`));

  it('ranks a match in a language holding a small share of the repository after an equal one in its main language', () => {
    const units = [...main, unit('a/port.py', 'throttle', 'retry wait'), unit('z/pace.ts', 'pause', 'retry wait')];
    expect(route(units, 'retry wait everywhere').slice(0, 2)).toEqual(['pause', 'throttle']);
  });

  it('treats every language alike where none is a small share', () => {
    const units = [unit('a/port.py', 'throttle', 'retry wait'), unit('z/pace.ts', 'pause', 'retry wait')];
    expect(route(units, 'retry wait everywhere')).toEqual(['throttle', 'pause']);
  });
});
