import { firstSentence as firstSentenceOf } from '../text/first-sentence.js';
import path from 'node:path';
import type { ShownPlace } from './page-places.js';

/** A link from a rendered page to a line of the repository, relative so it works on GitHub and on disk. */
export function sourceLink(file: string, line: number, pageDirectory: string, repositoryRoot: string): string {
  const relative = path.relative(pageDirectory, path.join(repositoryRoot, file)).split(path.sep).join('/');
  return `[${file}:${line}](${encodeURI(relative)}#L${line})`;
}

/** "[src/a.ts:8](…#L8)", then the place's note ("(changed)"); the file alone, with its note, when no line says where the code stands. */
export function placeLink(place: ShownPlace, pageDirectory: string, repositoryRoot: string): string {
  const shown = place.line === undefined ? place.file : sourceLink(place.file, place.line, pageDirectory, repositoryRoot);
  return place.note ? `${shown} ${place.note}` : shown;
}

export { shortName } from '../graph/unit-name.js';

/** Table cells must not break the table. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

export function firstSentence(text: string): string {
  return firstSentenceOf(text, 160);
}
