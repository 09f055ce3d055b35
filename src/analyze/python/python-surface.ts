import type { ExtractedFile } from '../front-end.js';
import type { PythonFacts } from './python-facts.js';

/** Positions: other files' edges carry their own lines, and slot lines are taken afresh, so a shift alone changes nothing elsewhere. */
const POSITION_KEYS = new Set(['line', 'lines', 'startLine', 'endLine']);

/**
 * Everything of a file that resolving another file can read, as one string: its imports, module
 * names, classes, functions, variables and units, with positions left out, and the locals those
 * facts reach (a factory's `return y` reaches local y), numbered in the order they are reached, so
 * that a local added elsewhere in the file does not move them. Not its uses: they decide only its
 * own edges. Two versions of a file with the same surface resolve every other file alike.
 */
export function surfaceOf(extracted: ExtractedFile<PythonFacts>): string {
  const facts = extracted.facts;
  const numbered = new Map<number, number>();
  const reached: number[] = [];
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    if (record.kind === 'local' && typeof record.local === 'number') {
      let at = numbered.get(record.local);
      if (at === undefined) {
        at = reached.length;
        numbered.set(record.local, at);
        reached.push(record.local);
      }
      return { kind: 'local', local: at };
    }
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort()) if (!POSITION_KEYS.has(key)) copy[key] = visit(record[key]);
    return copy;
  };
  const head = visit({
    imports: facts.imports,
    names: facts.names,
    starImports: facts.starImports,
    all: facts.all ?? null,
    classes: facts.classes,
    functions: facts.functions,
    variables: facts.variables,
    units: extracted.units.map((unit) => [unit.id, unit.kind, unit.parent ?? '', unit.exported]),
  });
  // Visiting a local may reach more: the list grows while it is read.
  const locals: unknown[] = [];
  for (let at = 0; at < reached.length; at += 1) locals.push(visit(facts.locals[reached[at]!] ?? null));
  return JSON.stringify([head, locals]);
}
