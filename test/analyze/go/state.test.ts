import { describe, expect, it } from 'vitest';
import { access, findEdge, go, resolveSources } from './go-kit.js';

describe('Go state: struct fields', () => {
  const { file } = resolveSources({
    'agent/agent.go': go`
      package agent

      import "sync"

      type counters struct {
      	total int
      }

      type Agent struct {
      	counters
      	mu      sync.Mutex
      	count   int
      	items   []string
      	cache   map[string]int
      	onEvent func(string)
      }

      func (a *Agent) Step(key string) int {
      	a.mu.Lock()
      	defer a.mu.Unlock()
      	a.count++
      	a.items = append(a.items, key)
      	a.cache[key] = 1
      	delete(a.cache, "old")
      	a.total += 1
      	return a.count
      }

      func Reset(a *Agent) {
      	a.count = 0
      }
    `,
  });
  const agent = file('agent/agent.go');
  const slot = (id: string) => agent.slots.find((candidate) => candidate.id === id);

  it('reads and writes a field by ++, reads it by a plain read', () => {
    expect(access(agent.edges, 'agent/agent.go#Agent.Step', 'agent/agent.go#Agent.count')).toBe('reads 21,26 writes 21');
  });

  it('writes a field assigned what append gives, reading it for append', () => {
    expect(access(agent.edges, 'agent/agent.go#Agent.Step', 'agent/agent.go#Agent.items')).toBe('reads 22 writes 22');
  });

  it('reads and writes a map field whose element is set or deleted', () => {
    expect(access(agent.edges, 'agent/agent.go#Agent.Step', 'agent/agent.go#Agent.cache')).toBe('reads 23,24 writes 23,24');
  });

  it('reads a field a method is called on', () => {
    expect(access(agent.edges, 'agent/agent.go#Agent.Step', 'agent/agent.go#Agent.mu')).toBe('reads 19,20');
    expect(agent.unresolved.map((call) => `${call.text} ${call.reason}`)).toEqual(['a.mu.Lock external', 'a.mu.Unlock external']);
  });

  it('reaches a promoted field on the struct that declares it', () => {
    expect(access(agent.edges, 'agent/agent.go#Agent.Step', 'agent/agent.go#counters.total')).toBe('reads 25 writes 25');
  });

  it('writes through a typed parameter as through a receiver', () => {
    expect(access(agent.edges, 'agent/agent.go#Reset', 'agent/agent.go#Agent.count')).toBe('writes 30');
  });

  it('records each slot at its field’s line, owned by its struct, typed as written', () => {
    expect(slot('agent/agent.go#Agent.cache')).toEqual({ id: 'agent/agent.go#Agent.cache', kind: 'field', file: 'agent/agent.go', owner: 'agent/agent.go#Agent', name: 'cache', line: 14, type: 'map[string]int' });
    expect(slot('agent/agent.go#counters.total')).toMatchObject({ owner: 'agent/agent.go#counters', line: 6 });
  });
});

describe('Go state: package-level variables', () => {
  const { file } = resolveSources({
    'registry/registry.go': go`
      package registry

      type Handler func() string

      var handlers = map[string]Handler{"bash": runBash}
      var calls int
      var names []string
      var prefix = "tool:"

      const Limit = 10

      func runBash() string { return "" }

      func Register(name string, handler Handler) {
      	handlers[name] = handler
      	names = append(names, name)
      }

      func Dispatch(name string) string {
      	calls++
      	if calls > Limit {
      		return prefix
      	}
      	return handlers[name]()
      }
    `,
    'plugin/plugin.go': go`
      package plugin

      import "example.com/app/registry"

      func Init() {
      	registry.Register("git", nil)
      	_ = registry.Limit
      }
    `,
  });
  const registry = file('registry/registry.go');

  it('makes a slot of a var some function writes or mutates, owned by its file', () => {
    expect(registry.slots.map((slot) => slot.id)).toEqual(['registry/registry.go#calls', 'registry/registry.go#handlers', 'registry/registry.go#names']);
    expect(registry.slots.find((slot) => slot.id === 'registry/registry.go#handlers')).toEqual({ id: 'registry/registry.go#handlers', kind: 'module-variable', file: 'registry/registry.go', owner: 'registry/registry.go', name: 'handlers', line: 5, type: '' });
  });

  it('reads and writes it from functions', () => {
    expect(access(registry.edges, 'registry/registry.go#Register', 'registry/registry.go#handlers')).toBe('reads 15 writes 15');
    expect(access(registry.edges, 'registry/registry.go#Register', 'registry/registry.go#names')).toBe('reads 16 writes 16');
    expect(access(registry.edges, 'registry/registry.go#Dispatch', 'registry/registry.go#calls')).toBe('reads 20,21 writes 20');
    expect(access(registry.edges, 'registry/registry.go#Dispatch', 'registry/registry.go#handlers')).toBe('reads 24');
  });

  it('references a var no code writes, and every const', () => {
    expect(findEdge(registry.edges, 'references', 'registry/registry.go#Dispatch', 'registry/registry.go#prefix')).toBeDefined();
    expect(findEdge(registry.edges, 'references', 'registry/registry.go#Dispatch', 'registry/registry.go#Limit')).toBeDefined();
    expect(findEdge(file('plugin/plugin.go').edges, 'references', 'plugin/plugin.go#Init', 'registry/registry.go#Limit')).toBeDefined();
  });

  it('references the funcs a registry map holds, from the variable', () => {
    expect(findEdge(registry.edges, 'references', 'registry/registry.go#handlers', 'registry/registry.go#runBash')?.lines).toEqual([5]);
  });

  it('calls what a map of funcs holds: dynamic', () => {
    expect(registry.unresolved.map((call) => `${call.line} ${call.text} ${call.reason}`)).toEqual(['24 handlers[name] dynamic']);
  });
});
