import { liveBadge, liveSiteList, section } from './components.js';
import type { View, ViewContext } from './context.js';
import { h, link, plural } from './dom.js';
import { href } from './router.js';
import type { StageMember } from './types.js';

export async function stageView(context: ViewContext, id: string): Promise<View> {
  const stage = await context.api.stage(id);
  // Members stand under the file that holds their code now; one gone from disk stays under the file it was built from.
  const byFile = new Map<string, StageMember[]>();
  for (const member of stage.members) {
    const file = member.liveFile ?? member.file;
    const list = byFile.get(file) ?? [];
    list.push(member);
    byFile.set(file, list);
  }
  const files = [...byFile.keys()].sort();
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
    section(
      `Members (${plural(stage.members.length, 'unit')} in ${plural(files.length, 'file')})`,
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
    ),
  );
  return { element };
}

/** A member's lines in the file that holds its code now (the build's while it is in place), or gone. */
function memberLines(member: StageMember): string {
  if (member.status === 'frozen') return 'gone';
  const first = member.liveLine ?? member.line;
  const last = member.liveEndLine ?? member.endLine;
  return last > first ? `lines ${first}–${last}` : `line ${first}`;
}
