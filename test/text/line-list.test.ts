import { describe, expect, it } from 'vitest';
import { linesPhrase } from '../../src/text/line-list.js';

describe('linesPhrase', () => {
  it('says line for one and lines for several', () => {
    expect(linesPhrase([88])).toBe('line 88');
    expect(linesPhrase([88, 90])).toBe('lines 88, 90');
  });
});
