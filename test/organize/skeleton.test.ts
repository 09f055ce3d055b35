import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import { HandbookError } from '../../src/errors.js';
import { ProgramGraph } from '../../src/graph/program-graph.js';
import { loadSkeleton, SEED_SKELETON } from '../../src/organize/skeleton.js';
import { organizeOffline } from '../../src/organize/organize-handbook.js';
import { FIXTURE, scratchDirectory } from '../helpers/paths.js';

function skeletonFile(content: unknown): string {
  const file = path.join(scratchDirectory(), 'stages.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function messageOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (HandbookError.isInstance(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
}

describe('user skeletons', () => {
  it('uses the seed skeleton when none is given', () => {
    expect(loadSkeleton(undefined).map((stage) => stage.id)).toEqual(SEED_SKELETON.map((stage) => stage.id));
  });

  it('extends the seed: a known id replaces that stage in place, a new id is added', () => {
    const stages = loadSkeleton(skeletonFile({ stages: [
      { id: 'security', name: 'Secrets', description: 'Secret handling', hints: ['secret', 'mask'] },
      { id: 'mcp', name: 'External tool servers', description: 'MCP', hints: ['mcp', 'server'] },
    ] }));
    expect(stages.map((stage) => stage.id)).toEqual([...SEED_SKELETON.map((stage) => stage.id), 'mcp']);
    expect(stages.find((stage) => stage.id === 'security')!.name).toBe('Secrets');
  });

  it('replaces the seed entirely, and every unit lands in one of the user stages or is unassigned', () => {
    const stages = loadSkeleton(skeletonFile({ mode: 'replace', stages: [
      { id: 'providers', name: 'Providers', description: 'Model providers', hints: ['provider', 'anthropic', 'openai'] },
      { id: 'tools', name: 'Tools', description: 'Tools', hints: ['tool', 'shell', 'file'] },
    ] }));
    const { handbook } = organizeOffline(new ProgramGraph(analyzeRepository(FIXTURE).graph), stages, FIXTURE);
    expect(handbook.stages.map((stage) => stage.id).sort()).toEqual(['providers', 'tools']);
    const placed = handbook.stages.flatMap((stage) => stage.members.filter((member) => member.primary).map((member) => member.unit));
    expect(placed.length + handbook.unassigned.length).toBe(165);
    expect(handbook.unassigned.length).toBeGreaterThan(0);
  });

  it.each([
    ['not JSON', '{ stages: [', /the skeleton file .* cannot be read/],
    ['no stages', { stages: [] }, /not valid at stages/],
    ['an unknown hint field', { stages: [{ id: 'x', name: 'X', description: '', hints: ['a'], keywords: ['b'] }] }, /not valid at stages\.0: Unrecognized key.*keywords/],
    ['hints missing', { stages: [{ id: 'x', name: 'X', description: '' }] }, /not valid at stages\.0\.hints/],
    ['a bad id', { stages: [{ id: 'Has Spaces', name: 'X', description: '', hints: ['a'] }] }, /lowercase words joined by hyphens/],
    ['a duplicate id', { stages: [{ id: 'x', name: 'X', hints: ['a'] }, { id: 'x', name: 'Y', hints: ['b'] }] }, /defines stage "x" twice/],
    ['an unknown mode', { mode: 'merge', stages: [{ id: 'x', name: 'X', hints: ['a'] }] }, /not valid at mode/],
  ])('rejects a skeleton with %s in one clear line', (_case, content, pattern) => {
    const message = messageOf(() => loadSkeleton(skeletonFile(content)));
    expect(message).toMatch(/^INVALID_INPUT: /);
    expect(message).toMatch(pattern);
    expect(message).not.toContain('\n');
  });

  it('rejects a skeleton file that does not exist', () => {
    expect(messageOf(() => loadSkeleton("/no/such/stages.json"))).toMatch(/INVALID_INPUT: the skeleton file \/no\/such\/stages\.json does not exist/);
  });
});
