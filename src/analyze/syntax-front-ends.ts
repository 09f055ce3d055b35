import type { SyntaxFrontEnd } from './front-end.js';
import type { Language } from './languages.js';
import { goFrontEnd } from './go/go-front-end.js';
import { pythonFrontEnd } from './python/python-front-end.js';
import { rustFrontEnd } from './rust/rust-front-end.js';

/** The languages read through a syntax front end (every language but TypeScript/JavaScript, which the type checker reads). */
export const SYNTAX_FRONT_ENDS: ReadonlyMap<Exclude<Language, 'typescript'>, SyntaxFrontEnd> = new Map([
  ['python', pythonFrontEnd as SyntaxFrontEnd],
  ['go', goFrontEnd as SyntaxFrontEnd],
  ['rust', rustFrontEnd as SyntaxFrontEnd],
]);
