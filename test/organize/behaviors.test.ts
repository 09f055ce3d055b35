import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import type { ProgramGraphData, Unit } from '../../src/graph/model.js';
import { ProgramGraph } from '../../src/graph/program-graph.js';
import { groupBehaviors, MAX_BEHAVIOR_UNITS, MAX_BEHAVIORS } from '../../src/organize/behaviors.js';
import type { OrganizedHandbook } from '../../src/organize/model.js';
import { organizeOffline } from '../../src/organize/organize-handbook.js';
import { SEED_SKELETON } from '../../src/organize/skeleton.js';
import { FIXTURE } from '../helpers/paths.js';

let handbook: OrganizedHandbook;

beforeAll(() => {
  ({ handbook } = organizeOffline(new ProgramGraph(analyzeRepository(FIXTURE).graph), SEED_SKELETON, FIXTURE));
});

/** A synthetic graph: `files` maps a file to its functions; `calls` lists caller → callee pairs of function names. */
function graphOf(files: Record<string, string[]>, calls: Array<[string, string]>): { graph: ProgramGraph; ids: string[] } {
  const units: Unit[] = [];
  const idOf = new Map<string, string>();
  for (const [file, names] of Object.entries(files)) {
    units.push({ id: file, kind: 'file', file, symbol: '', startLine: 1, endLine: names.length * 3 + 1, signature: file, doc: '', exported: false, hash: 'f', literals: '', words: '' });
    names.forEach((name, index) => {
      const id = `${file}#${name}`;
      idOf.set(name, id);
      units.push({ id, kind: 'function', file, symbol: name, startLine: index * 3 + 1, endLine: index * 3 + 3, signature: name, doc: '', exported: true, hash: name, literals: '', words: '', parent: file });
    });
  }
  const data: ProgramGraphData = {
    files: Object.keys(files).map((path) => ({ path, size: 1, hash: 'h', lines: 1, test: false, parseErrors: 0, externalImports: [] })),
    units,
    edges: calls.map(([from, to]) => ({ kind: 'calls' as const, from: idOf.get(from)!, to: idOf.get(to)!, lines: [1] })),
    slots: [],
    unresolved: [],
  };
  return { graph: new ProgramGraph(data), ids: [...idOf.values()] };
}

describe('behaviours inside a stage', () => {
  it('puts every primary member of every stage in exactly one behaviour, within the size limits', () => {
    for (const stage of handbook.stages) {
      const primary = stage.members.filter((member) => member.primary).map((member) => member.unit).sort();
      const grouped = stage.behaviors.flatMap((behavior) => behavior.members).sort();
      expect(grouped).toEqual(primary);
      expect(stage.behaviors.length).toBeLessThanOrEqual(MAX_BEHAVIORS);
      for (const behavior of stage.behaviors) expect(behavior.members.length).toBeLessThanOrEqual(MAX_BEHAVIOR_UNITS);
      expect(new Set(stage.behaviors.map((behavior) => behavior.id)).size).toBe(stage.behaviors.length);
      expect(new Set(stage.behaviors.map((behavior) => behavior.name)).size).toBe(stage.behaviors.length);
    }
  });

  it('groups the secret-masking helpers of the fixture together and names them from their words', () => {
    const security = handbook.stages.find((stage) => stage.id === 'security')!;
    const masking = security.behaviors.find((behavior) => behavior.members.includes('src/security/secrets.ts#maskSecrets'))!;
    expect(masking.members).toEqual(expect.arrayContaining(['src/security/secrets.ts#redactValue', 'src/security/secrets.ts#SECRET_PATTERNS']));
    expect(masking.name).toMatch(/secret/);
    expect(masking.entryPoints).toContain('src/security/secrets.ts#maskSecrets');
    expect(masking.files).toEqual(['src/security/secrets.ts']);
  });

  it('keeps units that call each other together and apart from units they never meet', () => {
    const { graph, ids } = graphOf(
      { 'src/shell/run.ts': ['spawnShell', 'killShell', 'shellTimeout'], 'src/shell/capture.ts': ['captureShellOutput'], 'src/web/fetch.ts': ['fetchPage', 'parsePage', 'pageLinks'] },
      [['spawnShell', 'killShell'], ['spawnShell', 'shellTimeout'], ['spawnShell', 'captureShellOutput'], ['fetchPage', 'parsePage'], ['parsePage', 'pageLinks']],
    );
    const behaviors = groupBehaviors('tools', ids, graph, []);
    const holding = (name: string) => behaviors.find((behavior) => behavior.members.some((id) => id.endsWith(`#${name}`)))!;
    expect(holding('captureShellOutput')).toBe(holding('spawnShell'));
    expect(holding('fetchPage')).not.toBe(holding('spawnShell'));
    expect(holding('spawnShell').name).toMatch(/shell/);
    expect(holding('pageLinks').name).toMatch(/page/);
    // Called from another behaviour counts as an entry point; a unit only its own behaviour calls does not.
    expect(holding('fetchPage').entryPoints).toEqual([]);
  });

  it('cuts a large stage to the limits, and gives the same behaviours for the same graph in any order', () => {
    const files: Record<string, string[]> = {};
    const calls: Array<[string, string]> = [];
    for (let file = 0; file < 40; file += 1) {
      const names = Array.from({ length: 30 }, (_, index) => `f${file}x${index}`);
      files[`src/part${file % 7}/mod${file}.ts`] = names;
      names.slice(1).forEach((name, index) => calls.push([names[index]!, name]));
      if (file > 0) calls.push([`f${file}x0`, `f${file - 1}x0`]);
    }
    const { graph, ids } = graphOf(files, calls);
    const behaviors = groupBehaviors('big', ids, graph, []);
    expect(behaviors.length).toBeLessThanOrEqual(MAX_BEHAVIORS);
    expect(behaviors.every((behavior) => behavior.members.length <= MAX_BEHAVIOR_UNITS)).toBe(true);
    expect(behaviors.flatMap((behavior) => behavior.members).sort()).toEqual([...ids].sort());
    expect(groupBehaviors('big', [...ids].reverse(), graph, [])).toEqual(behaviors);
  });

  it('has no behaviours for a stage without members', () => {
    const { graph } = graphOf({ 'a.ts': ['x'] }, []);
    expect(groupBehaviors('empty', [], graph, [])).toEqual([]);
  });
});
