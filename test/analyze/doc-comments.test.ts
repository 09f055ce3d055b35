import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { collectUnits, createUnitIndex } from '../../src/analyze/typescript/collect-units.js';

function docsOf(source: string): Map<string, string> {
  const sourceFile = ts.createSourceFile('src/a.ts', source, ts.ScriptTarget.ES2022, true);
  const index = createUnitIndex();
  collectUnits(sourceFile, 'src/a.ts', 'hash', index);
  return new Map([...index.units].map(([id, unit]) => [id, unit.doc]));
}

describe("a unit's doc", () => {
  it('is its doc comment alone when one stands above it, not a line comment or an older block above that', () => {
    const docs = docsOf(`
export const first = 1;

// helper spacing
/** Masks every known secret in text. */
export function maskSecrets(text: string): string { return text; }

/** An old note that was left behind. */
/** Truncates long output. */
export function truncate(text: string): string { return text; }
`);
    expect(docs.get('src/a.ts#maskSecrets')).toBe('Masks every known secret in text.');
    expect(docs.get('src/a.ts#truncate')).toBe('Truncates long output.');
  });

  it('keeps line comments where no doc comment stands above the unit, and a line comment written below the doc comment', () => {
    const docs = docsOf(`
// Retries a call after a transient failure,
// doubling the wait each time.
export function retry(): void {}

/** Waits before the next attempt. */
// (jitter added by the caller)
export function wait(): void {}

// Copyright 2026 Someone
// eslint-disable-next-line no-console
export function plain(): void {}
`);
    expect(docs.get('src/a.ts#retry')).toBe('Retries a call after a transient failure, doubling the wait each time.');
    expect(docs.get('src/a.ts#wait')).toBe('Waits before the next attempt. (jitter added by the caller)');
    expect(docs.get('src/a.ts#plain')).toBe('');
  });
});
