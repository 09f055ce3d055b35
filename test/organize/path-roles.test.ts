import { describe, expect, it } from 'vitest';
import { INTERFACE_STAGE, pathRole, placeByPath } from '../../src/organize/path-roles.js';
import { SEED_SKELETON } from '../../src/organize/skeleton.js';

describe('what a path says of its code', () => {
  it('puts code kept beside the harness outside: scripts, CI, examples, evaluations, docs, tool config, packaging', () => {
    for (const file of [
      'scripts/build_binary.js',
      '.github/scripts/pr-triage.ts',
      '.gemini/skills/ci/scripts/ci.mjs',
      'examples/backends/store-backend.ts',
      'evals/oolong/load-oolong.ts',
      'internal/eval-harness/src/matchers.ts',
      'benchmark/benchmark.py',
      'docs/site/build.ts',
      'libs/acp/vitest.config.ts',
      'libs/deepagents/src/agent.test-d.ts',
      'setup.py',
      'crates/forge_main/build.rs',
    ]) {
      expect(pathRole(file), file).toBe('outside');
    }
  });

  it('puts code in a UI folder in the interface, and says nothing of the rest', () => {
    expect(pathRole('packages/cli/src/ui/components/AppContainer.tsx')).toBe('interface');
    expect(pathRole('crates/forge_main/src/tui/input.rs')).toBe('interface');
    for (const file of ['packages/core/src/tools/shell.ts', 'aider/coders/base_coder.py', 'src/gemini.tsx', 'packages/core/src/evaluator.ts', 'src/scripting.ts', 'src/uikit.ts']) {
      expect(pathRole(file), file).toBeUndefined();
    }
  });

  it('leaves outside code in no stage and puts interface code in the interface stage first, keeping the others as secondary', () => {
    const assignments = [
      { unit: 'scripts/release.ts#main', stages: [{ stage: 'startup', score: 0.6 }] },
      { unit: 'src/ui/keys.ts#onEscape', stages: [{ stage: 'security', score: 0.5 }, { stage: 'user-interface', score: 0.3 }] },
      { unit: 'src/ui/bare.ts#x', stages: [] },
      { unit: 'src/tools/shell.ts#run', stages: [{ stage: 'tool-execution', score: 0.7 }] },
    ];
    const placed = placeByPath(assignments, SEED_SKELETON);
    expect(placed).toEqual([
      { unit: 'scripts/release.ts#main', stages: [] },
      { unit: 'src/ui/keys.ts#onEscape', stages: [{ stage: INTERFACE_STAGE, score: 0.3 }, { stage: 'security', score: 0.5 }] },
      { unit: 'src/ui/bare.ts#x', stages: [{ stage: INTERFACE_STAGE, score: 0 }] },
      { unit: 'src/tools/shell.ts#run', stages: [{ stage: 'tool-execution', score: 0.7 }] },
    ]);
    expect(placed[3]).toBe(assignments[3]);
  });

  it('applies no interface rule under a skeleton without the interface stage, and hands back the same array when no path says anything', () => {
    const skeleton = SEED_SKELETON.filter((stage) => stage.id !== INTERFACE_STAGE);
    const assignments = [{ unit: 'src/ui/keys.ts#onEscape', stages: [{ stage: 'security', score: 0.5 }] }];
    expect(placeByPath(assignments, skeleton)).toBe(assignments);
  });
});
