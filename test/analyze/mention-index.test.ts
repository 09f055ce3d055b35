import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filesAffectedBy, MentionIndex, mentionsAny, WordMatcher } from '../../src/analyze/typescript/affected-files.js';

// Pieces that meet at identifier boundaries in every way: ASCII identifier characters, letters
// `mentionsAny` does not count as an identifier's (é, π, a surrogate pair), quotes, comment marks, dots.
const PIECES = ['a', 'b', 'ab', 'A', 'x1', '_', '$', '0', '9', 'é', 'π', 'naïve', '😀', ' ', '.', "'", '"', '`', '//', '/*', '*/', '\n', '-', '(', 'ab$', '_b', 'a.b'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }).map((parts) => parts.join(''));
const word = fc.oneof(fc.array(fc.constantFrom(...PIECES), { maxLength: 3 }).map((parts) => parts.join('')), fc.constantFrom('', 'ab', 'a', '$', '_', 'é', 'a.b', 'naïve'));
const words = fc.array(word, { maxLength: 60 });
const texts = fc.array(text, { minLength: 1, maxLength: 8 }).map((list) => new Map(list.map((body, at) => [`f${at}.ts`, body])));

const mentioning = (all: ReadonlyMap<string, string>, asked: readonly string[]): Set<string> =>
  new Set([...all].filter(([, body]) => mentionsAny(body, asked)).map(([file]) => file));

describe('mention lookups answer as mentionsAny', () => {
  it('on spelled-out cases: whole identifiers only, wherever they stand, and no other word', () => {
    const cases: Array<[string, string, boolean]> = [
      ['const fooBar = 1', 'foo', false],
      ['foo.bar()', 'foo', true],
      ['$foo', 'foo', false],
      ['foo_', 'foo', false],
      ['"foo"', 'foo', true],
      ['// uses foo here', 'foo', true],
      ['éfooé', 'foo', true],
      ['naïve', 'na', true],
      ['naïve', 'naïve', true],
      ['xnaïve', 'naïve', false],
      ['a.b', 'a.b', true],
      ['$', '$', true],
      ['$$', '$', false],
      ['anything', '', false],
    ];
    for (const [body, asked, expected] of cases) {
      expect(mentionsAny(body, [asked]), `${asked} in ${body}`).toBe(expected);
      expect(new WordMatcher([asked]).mentionedIn(body), `${asked} in ${body}`).toBe(expected);
      expect(new WordMatcher([asked]).wordsIn(body).has(asked), `${asked} in ${body}`).toBe(expected);
    }
  });

  it('WordMatcher finds what mentionsAny finds, word by word', () => {
    fc.assert(
      fc.property(text, words, (body, asked) => {
        const matcher = new WordMatcher(asked);
        expect(matcher.mentionedIn(body)).toBe(mentionsAny(body, asked));
        expect(matcher.wordsIn(body)).toEqual(new Set(asked.filter((one) => mentionsAny(body, [one]))));
      }),
      { numRuns: 2000 },
    );
  });

  it('MentionIndex names the files mentionsAny names, for few words and for many, across updates', () => {
    const edits = fc.array(fc.tuple(fc.nat(7), fc.option(text)), { maxLength: 4 });
    fc.assert(
      fc.property(texts, fc.array(fc.tuple(words, edits), { minLength: 1, maxLength: 3 }), (start, rounds) => {
        const index = new MentionIndex();
        const now = new Map(start);
        const askedSoFar: string[] = [];
        for (const [asked, changes] of rounds) {
          askedSoFar.push(...asked);
          expect(index.filesMentioningAny(askedSoFar, now)).toEqual(mentioning(now, askedSoFar));
          for (const [at, body] of changes) {
            const file = `f${at}.ts`;
            if (body === null) now.delete(file);
            else now.set(file, body);
            index.update(file, body ?? undefined);
          }
        }
        expect(index.filesMentioningAny(askedSoFar, now)).toEqual(mentioning(now, askedSoFar));
      }),
      { numRuns: 1000 },
    );
  });

  it('filesAffectedBy picks the files mentionsAny picks, with a remembered index or without', () => {
    fc.assert(
      fc.property(texts, words, (all, names) => {
        const input = { changed: new Set(['f0.ts']), removed: new Set<string>(), names: new Set(names), stems: new Set(['ab']), exportsChanged: new Set<string>(), texts: all, edgesOf: () => [] };
        const expected = new Set([...all].filter(([file, body]) => file !== 'f0.ts' && mentionsAny(body, [...names, 'ab'])).map(([file]) => file));
        expect(filesAffectedBy(input)).toEqual(expected);
        expect(filesAffectedBy({ ...input, mentions: new MentionIndex() })).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
