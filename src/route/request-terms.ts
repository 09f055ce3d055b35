import { conceptsOf, expandTerm } from '../text/harness-thesaurus.js';
import { isStopWord, splitWords, stem } from '../text/identifier-words.js';

/** Words that say how a request is asked, not what it is about. */
export const REQUEST_WORDS: readonly string[] = (
  'where which place places code part parts handle handled handling done happen happens decide decides decided logic ' +
    'implement implemented implementation behavior behaviour find show look located location locate live lives responsible ' +
    'thing things way ways something anything whatever actually currently also still before after during between within ' +
    'make sure ensure want need like happen take takes kept keep going goes come comes point points notice tell tells ' +
    'know knows figure figures itself themselves whether'
).split(' ');
const REQUEST_TERMS = new Set(REQUEST_WORDS.map(stem));

/**
 * How a request names the harness itself ("when does the agent save its notes?"): the whole
 * system, so no place in particular. "An agent it spawns", "subagents" and "multi-agent" name
 * parts of it and stay; so would "the agent loop", which loses "agent" here and keeps "loop".
 */
export const SYSTEM_NAMES: readonly string[] = ['agent', 'harness'];
const THE_SYSTEM = new RegExp(`\\bthe (${SYSTEM_NAMES.join('|')})('s)?\\b(?!-)`, 'gi');

export const CROSS_CUTTING_WORDS: readonly string[] = ['every', 'all', 'each', 'both', 'everywhere', 'wherever', 'whichever', 'any', 'across'];
const CROSS_CUTTING = new RegExp(`\\b(${CROSS_CUTTING_WORDS.join('|')})\\b`, 'i');

export interface ParsedRequest {
  text: string;
  /** Stemmed terms with their weight: the request's own words 1, thesaurus synonyms less. */
  terms: Map<string, number>;
  /** The request's own words alone, in order, each once: what the file and folder evidence and the planner's word count weigh. */
  own: string[];
  /** The request word each term stands for: a word and its synonyms count once, by their best match. */
  groups: Map<string, string>;
  /** The request asks for every place ("in every capture path", "all providers"), not the first. */
  crossCutting: boolean;
}

const SYNONYM_WEIGHT = 0.4;
/** A word in several concepts ("limit": rate limit, token limit) widens less. */
const AMBIGUOUS_SYNONYM_WEIGHT = 0.2;

export function parseRequest(text: string): ParsedRequest {
  const terms = new Map<string, number>();
  const groups = new Map<string, string>();
  const own = splitWords(text.replace(THE_SYSTEM, ' ')).filter((word) => !isStopWord(word)).map(stem).filter((term) => !REQUEST_TERMS.has(term) && term.length > 1);
  for (const term of own) {
    terms.set(term, 1);
    groups.set(term, term);
  }
  for (const term of own) {
    const weight = conceptsOf(term).length > 1 ? AMBIGUOUS_SYNONYM_WEIGHT : SYNONYM_WEIGHT;
    for (const synonym of expandTerm(term).slice(1)) {
      if (terms.has(synonym)) continue;
      terms.set(synonym, weight);
      groups.set(synonym, term);
    }
  }
  return { text, terms, groups, own: [...new Set(own)], crossCutting: CROSS_CUTTING.test(text) };
}
