import { PLAIN_WORDS } from '../organize/behaviors.js';
import { INTERFACE_FOLDERS, OUTSIDE_FOLDERS } from '../organize/path-roles.js';
import { SEED_SKELETON } from '../organize/skeleton.js';
import { ENTRY_FILE_NAMES } from '../organize/stage-order.js';
import { HEAVY_TEST_FOLDERS, HEAVY_TEST_KINDS } from '../plan/offline-planner.js';
import { CROSS_CUTTING_WORDS, REQUEST_WORDS, SYSTEM_NAMES } from '../route/request-terms.js';
import { PERIPHERAL_FOLDERS } from '../route/route-request.js';
import { THESAURUS } from '../text/harness-thesaurus.js';
import { STOP_WORDS } from '../text/identifier-words.js';

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
  /** `word`: met in code as a word (or a form with the same stem); `folder`: as a folder's name; `file`: as a file's name without its extension. */
  kind: 'word' | 'folder' | 'file';
  words: readonly string[];
}

/** Every such list, whole: a test holds each word to the rule, so a list missing here escapes it. */
export const WORD_LISTS: readonly WordList[] = [
  { name: 'stop words', source: 'src/text/identifier-words.ts', kind: 'word', words: [...STOP_WORDS] },
  { name: 'thesaurus', source: 'src/text/harness-thesaurus.ts', kind: 'word', words: Object.values(THESAURUS).flatMap((group) => group.split(' ')) },
  { name: 'request words', source: 'src/route/request-terms.ts', kind: 'word', words: REQUEST_WORDS },
  { name: 'cross-cutting words', source: 'src/route/request-terms.ts', kind: 'word', words: CROSS_CUTTING_WORDS },
  { name: 'names of the system', source: 'src/route/request-terms.ts', kind: 'word', words: SYSTEM_NAMES },
  { name: 'peripheral folders', source: 'src/route/route-request.ts', kind: 'folder', words: PERIPHERAL_FOLDERS },
  { name: 'stage hints', source: 'src/organize/skeleton.ts', kind: 'word', words: SEED_SKELETON.flatMap((stage) => stage.hints) },
  { name: 'behaviour-name plain words', source: 'src/organize/behaviors.ts', kind: 'word', words: [...PLAIN_WORDS] },
  { name: 'outside folders', source: 'src/organize/path-roles.ts', kind: 'folder', words: [...OUTSIDE_FOLDERS] },
  { name: 'interface folders', source: 'src/organize/path-roles.ts', kind: 'folder', words: [...INTERFACE_FOLDERS] },
  { name: 'entry files', source: 'src/organize/stage-order.ts', kind: 'file', words: ENTRY_FILE_NAMES },
  { name: 'heavy test folders', source: 'src/plan/offline-planner.ts', kind: 'folder', words: HEAVY_TEST_FOLDERS },
  { name: 'heavy test kinds', source: 'src/plan/offline-planner.ts', kind: 'word', words: HEAVY_TEST_KINDS },
];
