import path from 'node:path';

/** A link from a rendered page to a line of the repository, relative so it works on GitHub and on disk. */
export function sourceLink(file: string, line: number, pageDirectory: string, repositoryRoot: string): string {
  const relative = path.relative(pageDirectory, path.join(repositoryRoot, file)).split(path.sep).join('/');
  return `[${file}:${line}](${encodeURI(relative)}#L${line})`;
}

export function shortName(id: string): string {
  const hash = id.indexOf('#');
  return hash < 0 ? id : id.slice(hash + 1);
}

/** Table cells must not break the table. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

export function firstSentence(text: string, limit = 160): string {
  const match = /^(.+?[.!?])(\s|$)/.exec(text);
  const sentence = match ? match[1]! : text;
  return sentence.length > limit ? `${sentence.slice(0, limit - 1)}…` : sentence;
}
