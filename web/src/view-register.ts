import { accessList } from './components.js';
import type { View, ViewContext } from './context.js';
import { stageName } from './context.js';
import { h, link, plural } from './dom.js';
import { href } from './router.js';

export async function registerView(context: ViewContext, focus?: string): Promise<View> {
  const register = await context.api.register();
  const filter = h('input', { type: 'search', class: 'filter', placeholder: 'filter slots…', 'aria-label': 'filter slots' });
  const rows = register.slots.map((slot) => {
    const row = h(
      'details',
      { class: 'slot', id: `slot-${slot.slot}`, 'data-slot': slot.slot, open: focus === slot.slot || focus === slot.name },
      h(
        'summary',
        {},
        h('code', {}, slot.name || slot.slot),
        ' ',
        slot.type ? h('span', { class: 'kind' }, slot.type) : null,
        ' ',
        h('span', { class: 'count' }, `${plural(slot.writers.length, 'writer')} · ${plural(slot.readers.length, 'reader')}`),
        ' ',
        h('span', { class: 'stages' }, slot.stages.flatMap((id, index) => [index > 0 ? ', ' : '', link(href.stage(id), stageName(context, id))])),
      ),
      h('div', { class: 'columns' }, h('div', {}, h('h4', {}, 'Writers'), accessList(slot.writers)), h('div', {}, h('h4', {}, 'Readers'), accessList(slot.readers))),
    );
    return row;
  });
  filter.addEventListener('input', () => {
    const needle = filter.value.trim().toLowerCase();
    for (const row of rows) row.hidden = needle !== '' && !(row.dataset.slot ?? '').toLowerCase().includes(needle) && !row.textContent?.toLowerCase().includes(needle);
  });
  const element = h(
    'div',
    { class: 'view register' },
    h('h1', {}, 'State register'),
    h('p', { class: 'lead' }, `${plural(register.slots.length, 'slot')} of shared state, with the units that write and read each one.`),
    filter,
    h('div', { class: 'slots' }, rows),
  );
  return {
    element,
    mounted() {
      const open = rows.find((row) => row.open);
      open?.scrollIntoView({ block: 'start' });
    },
  };
}
