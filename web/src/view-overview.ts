import { liveSiteList, section } from './components.js';
import type { View, ViewContext } from './context.js';
import { stageName } from './context.js';
import { h, link, plural } from './dom.js';
import { href } from './router.js';

export async function overviewView(context: ViewContext): Promise<View> {
  // Kept until the next sync drops it.
  const overview = context.overview ?? (await context.api.overview());
  context.overview = overview;
  const stages = [...overview.stages].sort((a, b) => a.position - b.position);
  const element = h(
    'div',
    { class: 'view overview' },
    h('h1', {}, overview.name),
    overview.description ? h('p', { class: 'lead' }, overview.description) : null,
    h('p', { class: 'meta' }, `generation ${overview.generation} · ${plural(stages.length, 'stage')} by the ${overview.stager} stager`),
    section(
      'Stages, in order',
      h(
        'ol',
        { class: 'stages' },
        stages.map((stage) =>
          h(
            'li',
            { class: 'stage-card', 'data-stage': stage.id },
            h('h3', {}, h('span', { class: 'position' }, `${stage.position + 1}.`), ' ', link(href.stage(stage.id), stage.name), ' ', h('span', { class: 'count' }, plural(stage.unitCount, 'unit'))),
            h('p', { class: 'summary' }, stage.summary),
            stage.entryPoints.length > 0 ? h('div', { class: 'entry-points' }, h('h4', {}, 'Entry points'), liveSiteList(stage.entryPoints)) : null,
          ),
        ),
      ),
    ),
    section(
      'State that couples stages',
      overview.coupling.length === 0
        ? h('p', { class: 'muted' }, 'No shared state crosses stages.')
        : h(
            'table',
            { class: 'coupling' },
            h('thead', {}, h('tr', {}, h('th', {}, 'Slot'), h('th', {}, 'Stages'))),
            h(
              'tbody',
              {},
              overview.coupling.map((row) =>
                h(
                  'tr',
                  {},
                  h('td', {}, link(href.register(row.slot), row.slot, 'slot')),
                  h('td', {}, row.stages.flatMap((id, index) => [index > 0 ? ', ' : '', link(href.stage(id), stageName(context, id))])),
                ),
              ),
            ),
          ),
    ),
  );
  return { element };
}
