import { liveBadge, liveSiteList, section } from './components.js';
import type { View, ViewContext } from './context.js';
import { h, link, plural } from './dom.js';
import { href } from './router.js';
import type { StageDetail, StageMember } from './types.js';

type StageBehavior = StageDetail['behaviors'][number];

export async function stageView(context: ViewContext, id: string): Promise<View> {
  const stage = await context.api.stage(id);
  const memberOf = new Map(stage.members.map((member) => [member.unit, member]));
  // Primary members stand in their behaviour; units placed here too but belonging to another stage come last, by file.
  const shared = stage.members.filter((member) => !member.primary);
  const stages = context.overview ? [...context.overview.stages].sort((a, b) => a.position - b.position) : [];
  const index = stages.findIndex((entry) => entry.id === stage.id);
  const previous = index > 0 ? stages[index - 1] : undefined;
  const next = index >= 0 && index < stages.length - 1 ? stages[index + 1] : undefined;
  const element = h(
    'div',
    { class: 'view stage' },
    h(
      'nav',
      { class: 'pager' },
      previous ? link(href.stage(previous.id), `← ${previous.name}`) : h('span', {}),
      link(href.overview(), 'all stages'),
      next ? link(href.stage(next.id), `${next.name} →`) : h('span', {}),
    ),
    h('h1', {}, stage.name, ' ', h('span', { class: 'count' }, stages.length > 0 ? `stage ${stage.position + 1} of ${stages.length}` : `stage ${stage.position + 1}`)),
    h('p', { class: 'lead' }, stage.summary),
    section('Entry points', liveSiteList(stage.entryPoints, 'No entry points.')),
    stage.behaviors.length > 0 ? section(`Behaviours (${stage.behaviors.length})`, behaviorTable(stage.behaviors)) : null,
    ...stage.behaviors.map((behavior) => behaviorSection(behavior, memberOf)),
    // A handbook stored before behaviours were found lists its primary members by file until its next sync.
    stage.behaviors.length === 0 ? memberSection('Members', stage.members.filter((member) => member.primary)) : null,
    shared.length > 0 ? memberSection('Also placed here (their own stage is another)', shared) : null,
  );
  return { element };
}

function behaviorAnchor(id: string): string {
  return `behavior-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** One row a behaviour: its name (a link to its section below), its size and what it says of itself. */
function behaviorTable(behaviors: StageBehavior[]): HTMLElement {
  return h(
    'table',
    { class: 'behaviors' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Behaviour'), h('th', {}, 'Units'), h('th', {}, 'Files'), h('th', {}, 'Summary'))),
    h(
      'tbody',
      {},
      behaviors.map((behavior) =>
        h(
          'tr',
          { 'data-behavior': behavior.id },
          // A link within the page would be read as a route by the hash router: the row scrolls its section into view.
          h('td', {}, h('button', { type: 'button', class: 'linklike', onclick: () => document.getElementById(behaviorAnchor(behavior.id))?.scrollIntoView() }, behavior.name)),
          h('td', { class: 'number' }, String(behavior.members.length)),
          h('td', { class: 'number' }, String(behavior.files.length)),
          h('td', {}, behavior.summary),
        ),
      ),
    ),
  );
}

function behaviorSection(behavior: StageBehavior, memberOf: ReadonlyMap<string, StageMember>): HTMLElement {
  const members = behavior.members.flatMap((unit) => {
    const member = memberOf.get(unit);
    return member ? [member] : [];
  });
  const element = memberSection(`${behavior.name} (${plural(members.length, 'unit')})`, members, behavior.summary);
  element.classList.add('behavior');
  element.id = behaviorAnchor(behavior.id);
  element.setAttribute('data-behavior', behavior.id);
  return element;
}

/** Members grouped by the file that holds their code now; one gone from disk stays under the file it was built from. */
function memberSection(title: string, members: StageMember[], lead?: string): HTMLElement {
  const byFile = new Map<string, StageMember[]>();
  for (const member of members) {
    const file = member.liveFile ?? member.file;
    const list = byFile.get(file) ?? [];
    list.push(member);
    byFile.set(file, list);
  }
  const files = [...byFile.keys()].sort();
  return section(
    `${title}${lead === undefined ? ` (${plural(members.length, 'unit')} in ${plural(files.length, 'file')})` : ''}`,
    lead === undefined ? null : h('p', { class: 'muted' }, lead),
    ...files.map((file) =>
      h(
        'div',
        { class: 'file-group' },
        h('h3', { class: 'file' }, file),
        h(
          'ul',
          { class: 'units' },
          (byFile.get(file) ?? [])
            .sort((a, b) => (a.liveLine ?? a.line) - (b.liveLine ?? b.line))
            .map((member) =>
              h(
                'li',
                { class: member.primary ? 'primary' : 'secondary' },
                link(href.unit(member.unit), member.symbol, 'unit'),
                ' ',
                h('span', { class: 'kind' }, member.kind),
                ' ',
                h('span', { class: 'where' }, memberLines(member)),
                member.primary ? null : h('span', { class: 'tag', title: 'placed in another stage too' }, 'shared'),
                liveBadge(member),
              ),
            ),
        ),
      ),
    ),
  );
}

/** A member's lines in the file that holds its code now (the build's while it is in place), or gone. */
function memberLines(member: StageMember): string {
  if (member.status === 'frozen') return 'gone';
  const first = member.liveLine ?? member.line;
  const last = member.liveEndLine ?? member.endLine;
  return last > first ? `lines ${first}–${last}` : `line ${first}`;
}
