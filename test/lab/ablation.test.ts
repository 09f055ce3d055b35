import { describe, expect, it } from 'vitest';
import { HARNESS_COMPONENTS } from '../../src/harness/harness-loop.js';
import { FULL_HARNESS, InvalidLabPair, runLab, validatePair, without, type LabConfig } from '../../src/lab/ablation.js';
import { LAB_TASKS } from '../../src/lab/lab-tasks.js';

describe('the ablation lab', () => {
  it('accepts a pair that differs in exactly one component, with the control the one without it', () => {
    expect(validatePair(without('journal'), FULL_HARNESS)).toBe('journal');
  });

  it('refuses a pair that differs in more than one component, in none, or the wrong way round', () => {
    const twoOff: LabConfig = { name: 'without journal and compaction', components: { ...FULL_HARNESS.components, journal: false, compaction: false } };
    expect(() => validatePair(twoOff, FULL_HARNESS)).toThrow(InvalidLabPair);
    expect(() => validatePair(twoOff, FULL_HARNESS)).toThrow(/differ in 2 components \(journal, compaction\)/);
    expect(() => validatePair(FULL_HARNESS, FULL_HARNESS)).toThrow(/differ in no component/);
    expect(() => validatePair(FULL_HARNESS, without('journal'))).toThrow(/must be the one without journal/);
  });

  it('has at least 12 tasks, and a task for every component it can switch off', () => {
    expect(LAB_TASKS.length).toBeGreaterThanOrEqual(12);
    const handled = new Set(LAB_TASKS.flatMap((task) => (task.handledBy ? [task.handledBy] : [])));
    expect([...HARNESS_COMPONENTS].filter((component) => !handled.has(component))).toEqual([]);
  });

  it('passes every task with the full harness, and loses a task without any one component', async () => {
    const report = await runLab();
    expect(report.full.outcomes.filter((outcome) => !outcome.pass)).toEqual([]);
    for (const pair of report.pairs) {
      expect({ component: pair.component, positive: pair.delta > 0 }).toEqual({ component: pair.component, positive: true });
      const expected = LAB_TASKS.filter((task) => task.handledBy === pair.component).map((task) => task.id);
      expect(pair.lostWithout).toEqual(expect.arrayContaining(expected));
    }
    expect(report.failures.every((failure) => failure.config !== 'full')).toBe(true);
  }, 300_000);
});
