import { describe, expect, it } from 'vitest';
import { ReadLedger } from '../../src/harness/read-ledger.js';

const text = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

describe('ReadLedger', () => {
  it('allows an edit only of lines read from this very text', () => {
    const ledger = new ReadLedger();
    expect(ledger.refusal('a.ts', text, 2, 3)).toMatch(/has not been read/);
    ledger.recordRead('a.ts', text, 1, 4);
    expect(ledger.refusal('a.ts', text, 2, 4)).toBeUndefined();
    expect(ledger.refusal('a.ts', text, 4, 5)).toMatch(/line 5 was not/);
    expect(ledger.refusal('a.ts', `${text}more\n`, 2, 3)).toMatch(/changed since it was last read/);
  });

  it('merges reads of the same text and starts over when the text changed', () => {
    const ledger = new ReadLedger();
    ledger.recordRead('a.ts', text, 1, 3);
    ledger.recordRead('a.ts', text, 4, 6);
    expect(ledger.refusal('a.ts', text, 1, 6)).toBeUndefined();
    const changed = text.replace('line 9', 'line nine');
    ledger.recordRead('a.ts', changed, 8, 10);
    expect(ledger.refusal('a.ts', changed, 2, 2)).toMatch(/line 2 was not/);
    expect(ledger.refusal('a.ts', changed, 8, 10)).toBeUndefined();
  });

  it('shifts what was read below an edit by the change in length, and counts the written lines as read', () => {
    const ledger = new ReadLedger();
    ledger.recordRead('a.ts', text, 1, 2);
    ledger.recordRead('a.ts', text, 6, 10);
    // Lines 6-7 become four lines: everything below moves down by two.
    const lines = text.split('\n');
    const edited = [...lines.slice(0, 5), 'a', 'b', 'c', 'd', ...lines.slice(7)].join('\n');
    ledger.recordEdit('a.ts', edited, 6, 7, 9);
    expect(ledger.refusal('a.ts', edited, 6, 12)).toBeUndefined();
    expect(ledger.refusal('a.ts', edited, 1, 2)).toBeUndefined();
    expect(ledger.refusal('a.ts', edited, 3, 3)).toMatch(/line 3 was not/);
    expect(ledger.refusal('a.ts', edited, 12, 13)).toMatch(/line 13 was not/);
  });

  it('treats a created file as read and a deleted one as unknown', () => {
    const ledger = new ReadLedger();
    ledger.recordCreate('b.ts', 'x\ny\n');
    expect(ledger.refusal('b.ts', 'x\ny\n', 1, 2)).toBeUndefined();
    ledger.forget('b.ts');
    expect(ledger.refusal('b.ts', 'x\ny\n', 1, 1)).toMatch(/has not been read/);
  });
});
