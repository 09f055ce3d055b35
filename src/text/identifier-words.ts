/**
 * Splits identifiers and prose into lowercase words: `getHTTPResponse2` → get, http, response;
 * `max_retry_count` → max, retry, count. The same split serves code and requests, so that a
 * request's words meet the code's words.
 */
export function splitWords(text: string): string[] {
  // Identifiers repeat across a repository thousands of times; split each text once.
  if (text.length <= 64) {
    const known = splitCache.get(text);
    if (known) return known;
    const split = splitUncached(text);
    if (splitCache.size > 200_000) splitCache.clear();
    splitCache.set(text, split);
    return split;
  }
  return splitUncached(text);
}

const splitCache = new Map<string, string[]>();

// Letters of any script are letters (`größe`, `Café`); ASCII text, nearly all code, keeps the cheaper patterns.
const NON_ASCII = /[^\x00-\x7f]/;

function splitUncached(text: string): string[] {
  const words: string[] = [];
  const spaced = NON_ASCII.test(text)
    ? text
        .normalize('NFC')
        .replace(/([\p{Ll}\p{Lo}0-9])(\p{Lu})/gu, '$1 $2')
        .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
        .replace(/[^\p{L}\p{M}]+/gu, ' ')
    : text
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .replace(/[^A-Za-z]+/g, ' ');
  for (const raw of spaced.split(' ')) {
    if (raw.length < 2) continue;
    words.push(raw.toLowerCase());
  }
  return words;
}

/** Words that say nothing of what code does: English function words and keywords common to the languages analyzed. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a an and are as at be been but by can could did do does done each else for from had has have how if in into is it its ' +
    'itself just may might more most must no not of on or our out over should so some such than that the their them then ' +
    'there these they this those to too up upon us was we were what when where which while who why will with would ' +
    'you your get set new any all every both one two via per let const var function return true false null undefined void ' +
    'async await type string number boolean object export import default class interface extends implements this self').split(' '),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** A light stemmer: enough to meet "retries" with "retry" and "masking" with "mask", never a dictionary. */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  if (word.endsWith('ies') && word.length > 5) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 6) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 5) return undouble(word.slice(0, -2));
  if (word.endsWith('es') && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

function undouble(word: string): string {
  return /([bdgmnprt])\1$/.test(word) ? word.slice(0, -1) : word;
}

const stemCache = new Map<string, string>();

/** Words of a text, split, stop words removed, stemmed. */
export function terms(text: string): string[] {
  return splitWords(text).filter((word) => !isStopWord(word)).map(cachedStem);
}

function cachedStem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = stem(word);
    if (stemCache.size > 100_000) stemCache.clear();
    stemCache.set(word, stemmed);
  }
  return stemmed;
}
