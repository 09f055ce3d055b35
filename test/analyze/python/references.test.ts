import { describe, expect, it } from 'vitest';
import { edgeList, findEdge, py, resolveSources } from './python-kit.js';

describe('Python references', () => {
  const { file } = resolveSources({
    'handlers.py': py`
      def run_bash(): pass
      def read_file(): pass
    `,
    'main.py': py`
      import threading
      import handlers
      from handlers import run_bash

      HANDLERS = {"bash": run_bash, "read": handlers.read_file}
      ORDER = [run_bash, handlers.read_file]
      LIMIT = 10

      def on_event(name): pass
      def score(item): pass
      def worker(): pass
      def subscribe(callback): pass

      class Plugin:
          def handle(self): pass

          def install(self):
              subscribe(self.handle)

      def go(items):
          subscribe(on_event)
          sorted(items, key=score)
          threading.Thread(target=worker)
          callback = on_event
          if isinstance(items, Plugin):
              return LIMIT
    `,
  });
  const edges = file('main.py').edges;

  it('references a function passed as an argument, a keyword argument or assigned', () => {
    expect(edgeList(edges, 'references').filter((edge) => edge.startsWith('main.py#go '))).toEqual([
      'main.py#go -> main.py#LIMIT',
      'main.py#go -> main.py#Plugin',
      'main.py#go -> main.py#on_event',
      'main.py#go -> main.py#score',
      'main.py#go -> main.py#worker',
    ]);
    expect(findEdge(edges, 'references', 'main.py#go', 'main.py#on_event')).toEqual({ kind: 'references', from: 'main.py#go', to: 'main.py#on_event', lines: [21, 24], resolution: 'scope' });
  });

  it('references a method passed as a bound callback', () => {
    expect(findEdge(edges, 'references', 'main.py#Plugin.install', 'main.py#Plugin.handle')?.lines).toEqual([18]);
  });

  it('makes the variable holding a registry reference what the registry holds', () => {
    expect(edgeList(edges, 'references').filter((edge) => edge.startsWith('main.py#HANDLERS ') || edge.startsWith('main.py#ORDER '))).toEqual([
      'main.py#HANDLERS -> handlers.py#read_file',
      'main.py#HANDLERS -> handlers.py#run_bash',
      'main.py#ORDER -> handlers.py#read_file',
      'main.py#ORDER -> handlers.py#run_bash',
    ]);
  });

  it('references a constant by name: it is no state', () => {
    expect(file('main.py').slots.map((slot) => slot.id)).not.toContain('main.py#LIMIT');
  });
});
