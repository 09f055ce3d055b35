import { ApiError } from './api.js';
import { freshnessBadge, neighbourList, section } from './components.js';
import type { View, ViewContext } from './context.js';
import { stageName } from './context.js';
import { h, link } from './dom.js';
import { href } from './router.js';
import type { UnitDetail } from './types.js';

/** The source of a file with line numbers; lines first..last carry the class `highlight`. */
export function sourceListing(text: string, first: number | null, last: number | null): HTMLElement {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const listing = h('div', { class: 'source', role: 'table' });
  lines.forEach((line, index) => {
    const number = index + 1;
    const lit = first !== null && number >= first && number <= (last ?? first);
    listing.appendChild(
      h('div', { class: lit ? 'line highlight' : 'line', id: `L${number}`, 'data-line': number }, h('span', { class: 'ln' }, String(number)), h('code', {}, line || ' ')),
    );
  });
  return listing;
}

function splitId(id: string): { file: string; symbol: string } {
  const at = id.indexOf('#');
  return at < 0 ? { file: id, symbol: '' } : { file: id.slice(0, at), symbol: id.slice(at + 1) };
}

export async function unitView(context: ViewContext, id: string): Promise<View> {
  let detail: UnitDetail | null = null;
  try {
    detail = await context.api.unit(id);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
  }
  return detail ? knownUnit(context, detail) : unknownUnit(context, id);
}

async function knownUnit(context: ViewContext, detail: UnitDetail): Promise<View> {
  const { unit } = detail;
  // A frozen unit was not found on disk: its recorded lines are shown, the badge says why. A moved
  // unit's live lines are in the file it moved to, so that file is the one shown.
  const first = detail.liveLine;
  const last = detail.liveEndLine;
  const file = detail.liveFile;
  let listing: HTMLElement;
  try {
    const source = await context.api.source(file);
    listing = sourceListing(source.text, first, last);
  } catch (error) {
    listing = h('p', { class: 'error' }, `source unavailable: ${error instanceof Error ? error.message : String(error)}`);
  }
  const where = `${file}:${first}–${last}`;
  const element = h(
    'div',
    { class: 'view unit', 'data-unit': unit.id },
    h('h1', {}, unit.symbol, ' ', h('span', { class: 'kind' }, unit.kind), ' ', freshnessBadge(detail.status, detail.reason)),
    h(
      'p',
      { class: 'meta' },
      h('span', { class: 'where' }, where),
      ' · stage ',
      unit.stage ? link(href.stage(unit.stage), stageName(context, unit.stage)) : '(none)',
      file !== unit.file ? ` · recorded at ${unit.file}:${unit.line}` : first !== unit.line ? ` · recorded at line ${unit.line}` : null,
    ),
    detail.reason ? h('p', { class: `notice-inline freshness-${detail.status}` }, detail.reason) : null,
    unit.signature ? h('pre', { class: 'signature' }, unit.signature) : null,
    unit.doc ? h('p', { class: 'doc' }, unit.doc) : null,
    h(
      'div',
      { class: 'unit-body' },
      h('div', { class: 'code-column' }, listing),
      h('aside', { class: 'relations' }, section(`Callers (${detail.callers.length})`, neighbourList(detail.callers)), section(`Callees (${detail.callees.length})`, neighbourList(detail.callees))),
    ),
  );
  return { element, mounted: () => scrollToHighlight(element) };
}

async function unknownUnit(context: ViewContext, id: string): Promise<View> {
  const { file, symbol } = splitId(id);
  const site = context.askSites.get(id);
  const source = await context.api.source(file);
  const element = h(
    'div',
    { class: 'view unit', 'data-unit': id },
    h('h1', {}, symbol || file, ' ', freshnessBadge(site?.status ?? 'unknown', 'not a unit of the handbook')),
    h('p', { class: 'meta' }, h('span', { class: 'where' }, site ? `${file}:${site.line}–${site.endLine}` : file), site?.stage ? [' · stage ', link(href.stage(site.stage), stageName(context, site.stage))] : null),
    h('p', { class: 'muted' }, 'This site is not a unit of the handbook, so it has no callers or callees here.'),
    sourceListing(source.text, site?.line ?? null, site?.endLine ?? null),
  );
  return { element, mounted: () => scrollToHighlight(element) };
}

function scrollToHighlight(element: HTMLElement): void {
  element.querySelector('.highlight')?.scrollIntoView({ block: 'center' });
}
