import { PLAIN_WORDS } from '../organize/behaviors.js';
import { INTERFACE_FOLDERS, OUTSIDE_FOLDERS } from '../organize/path-roles.js';
import { SEED_SKELETON } from '../organize/skeleton.js';
import { THESAURUS } from '../text/harness-thesaurus.js';
import { STOP_WORDS } from '../text/identifier-words.js';
import { REQUEST_WORDS } from './request-terms.js';

/**
 * A list of words the ranking or the organizing reads as knowledge of the domain. Such a list
 * must describe harnesses, not the ones it was measured on: each of its words is found in the
 * code of at least three different harnesses (bench/vocabulary/word-sources.json, rebuilt by
 * `npm run word-sources`), and none names one product.
 */
export interface WordList {
  name: string;
  /** Where the list is declared. */
  source: string;
  /** `word`: met in code as a word (or a form with the same stem); `folder`: met as a folder name in a path. */
  kind: 'word' | 'folder';
  words: readonly string[];
}

/** Every such list, whole: a test holds each word to the rule, so a list missing here escapes it. */
export const WORD_LISTS: readonly WordList[] = [
  { name: 'stop words', source: 'src/text/identifier-words.ts', kind: 'word', words: [...STOP_WORDS] },
  { name: 'thesaurus', source: 'src/text/harness-thesaurus.ts', kind: 'word', words: Object.values(THESAURUS).flatMap((group) => group.split(' ')) },
  { name: 'request words', source: 'src/route/request-terms.ts', kind: 'word', words: REQUEST_WORDS },
  { name: 'stage hints', source: 'src/organize/skeleton.ts', kind: 'word', words: SEED_SKELETON.flatMap((stage) => stage.hints) },
  { name: 'behaviour-name plain words', source: 'src/organize/behaviors.ts', kind: 'word', words: [...PLAIN_WORDS] },
  { name: 'outside folders', source: 'src/organize/path-roles.ts', kind: 'folder', words: [...OUTSIDE_FOLDERS] },
  { name: 'interface folders', source: 'src/organize/path-roles.ts', kind: 'folder', words: [...INTERFACE_FOLDERS] },
];
