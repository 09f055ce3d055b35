import { createHash } from 'node:crypto';

interface KnownFile {
  /** The text the model last saw or wrote; any other text means the file changed behind its back. */
  digest: string;
  /** Line ranges, 1-based and inclusive, sorted and merged. */
  ranges: Array<[number, number]>;
}

/**
 * What the model has seen of each file in this task, so an edit to a region it never read is
 * refused instead of trusted: models that edit from memory invent the code they replace.
 */
export class ReadLedger {
  private readonly files = new Map<string, KnownFile>();

  recordRead(file: string, text: string, startLine: number, endLine: number): void {
    const digest = digestOf(text);
    const known = this.files.get(file);
    const ranges = known && known.digest === digest ? known.ranges : [];
    this.files.set(file, { digest, ranges: merge([...ranges, [startLine, endLine]]) });
  }

  /**
   * Why an edit of lines start..end of this text may not go ahead, or undefined when the
   * model has read every one of those lines of this very text.
   */
  refusal(file: string, text: string, startLine: number, endLine: number): string | undefined {
    const known = this.files.get(file);
    if (!known) return `${file} has not been read in this task: read_file it before editing`;
    if (known.digest !== digestOf(text)) return `${file} changed since it was last read: read_file it again before editing`;
    for (let line = startLine; line <= endLine; line++) {
      if (!known.ranges.some(([from, to]) => from <= line && line <= to)) {
        return `lines ${startLine}-${endLine} of ${file} have not all been read (line ${line} was not): read_file that region before editing`;
      }
    }
    return undefined;
  }

  /**
   * After the harness writes an edit: lines below it shift by the change in length, and the
   * lines the model wrote count as read.
   */
  recordEdit(file: string, newText: string, startLine: number, oldEndLine: number, newEndLine: number): void {
    const known = this.files.get(file);
    const shift = newEndLine - oldEndLine;
    const shifted = (known?.ranges ?? []).flatMap(([from, to]): Array<[number, number]> => {
      if (to < startLine) return [[from, to]];
      if (from > oldEndLine) return [[from + shift, to + shift]];
      // A range overlapping the edit keeps its parts outside it; the edit itself is added below.
      const parts: Array<[number, number]> = [];
      if (from < startLine) parts.push([from, startLine - 1]);
      if (to > oldEndLine) parts.push([oldEndLine + 1 + shift, to + shift]);
      return parts;
    });
    this.files.set(file, { digest: digestOf(newText), ranges: merge([...shifted, [startLine, newEndLine]]) });
  }

  /** A file the model created: it wrote every line of it. */
  recordCreate(file: string, text: string): void {
    this.files.set(file, { digest: digestOf(text), ranges: [[1, Math.max(1, lineCount(text))]] });
  }

  forget(file: string): void {
    this.files.delete(file);
  }
}

export function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function merge(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = ranges.filter(([from, to]) => from <= to).sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [from, to] of sorted) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}
