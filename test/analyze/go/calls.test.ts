import { describe, expect, it } from 'vitest';
import { edgeList, findEdge, go, resolveSources } from './go-kit.js';

const SERVER = go`
  package server

  type Base struct{ started bool }

  func (b *Base) Start() {}

  type Server struct {
  	Base
  	name    string
  	handler func() error
  }

  func NewServer(name string) *Server {
  	return &Server{name: name}
  }

  func (s *Server) Handle() error { return nil }
`;

describe('Go calls', () => {
  it('resolves through package qualifiers, package scope across files, and recursion', () => {
    const { file } = resolveSources({
      'internal/util/strings.go': 'package util\n\nfunc Join() string { return "" }\n',
      'internal/agent/helpers.go': 'package agent\n\nfunc helper() {}\n',
      'internal/agent/agent.go': go`
        package agent

        import "example.com/app/internal/util"

        func Run(depth int) {
        	util.Join()
        	helper()
        	Run(depth - 1)
        }
      `,
    });
    const agent = file('internal/agent/agent.go');
    expect(edgeList(agent.edges, 'calls')).toEqual([
      'internal/agent/agent.go#Run -> internal/agent/agent.go#Run',
      'internal/agent/agent.go#Run -> internal/agent/helpers.go#helper',
      'internal/agent/agent.go#Run -> internal/util/strings.go#Join',
    ]);
    expect(findEdge(agent.edges, 'calls', 'internal/agent/agent.go#Run', 'internal/util/strings.go#Join')).toEqual({
      kind: 'calls', from: 'internal/agent/agent.go#Run', to: 'internal/util/strings.go#Join', lines: [6], resolution: 'scope', via: 'direct',
    });
    expect([agent.callSites, agent.resolvedCalls]).toEqual([3, 3]);
  });

  it('resolves a method through its receiver, a typed variable, a composite literal, a constructor’s result, a promoted method', () => {
    const { file } = resolveSources({
      'server/server.go': SERVER,
      'server/use.go': go`
        package server

        func (s *Server) Serve() {
        	s.Handle()
        	s.Start()
        	s.Base.Start()
        }

        func Use() {
        	var typed Server
        	typed.Handle()
        	literal := &Server{}
        	literal.Handle()
        	built := NewServer("a")
        	built.Handle()
        	NewServer("b").Start()
        }
      `,
    });
    const use = file('server/use.go');
    expect(edgeList(use.edges, 'calls')).toEqual([
      'server/use.go#Server.Serve -> server/server.go#Base.Start',
      'server/use.go#Server.Serve -> server/server.go#Server.Handle',
      'server/use.go#Use -> server/server.go#Base.Start',
      'server/use.go#Use -> server/server.go#NewServer',
      'server/use.go#Use -> server/server.go#Server.Handle',
    ]);
    expect(findEdge(use.edges, 'calls', 'server/use.go#Use', 'server/server.go#Server.Handle')?.lines).toEqual([11, 13, 15]);
    expect(use.unresolved).toEqual([]);
  });

  it('instantiates a struct from a composite literal, and a constructor is a call like any other', () => {
    const { file } = resolveSources({
      'server/server.go': SERVER,
      'server/make.go': go`
        package server

        func Make() []Server {
        	a := Server{name: "a"}
        	b := &Server{}
        	_ = NewServer("c")
        	return []Server{a, *b, {name: "d"}}
        }
      `,
    });
    const make = file('server/make.go');
    expect(findEdge(make.edges, 'instantiates', 'server/make.go#Make', 'server/server.go#Server')?.lines).toEqual([4, 5, 7]);
    expect(edgeList(make.edges, 'calls')).toEqual(['server/make.go#Make -> server/server.go#NewServer']);
    expect(edgeList(file('server/server.go').edges, 'instantiates')).toEqual(['server/server.go#NewServer -> server/server.go#Server']);
    // A composite literal is no call site.
    expect(make.callSites).toBe(1);
  });

  it('references a method value and a func passed as a value, and a method expression', () => {
    const { file } = resolveSources({
      'server/server.go': SERVER,
      'server/wire.go': go`
        package server

        func register(f func() error) {}

        func probe() error { return nil }

        func Wire(s *Server) {
        	register(s.Handle)
        	register(probe)
        	handle := (*Server).Handle
        	_ = handle
        }
      `,
    });
    const wire = file('server/wire.go');
    expect(edgeList(wire.edges, 'references')).toEqual(['server/wire.go#Wire -> server/server.go#Server', 'server/wire.go#Wire -> server/server.go#Server.Handle', 'server/wire.go#Wire -> server/wire.go#probe']);
    expect(edgeList(wire.edges, 'calls')).toEqual(['server/wire.go#Wire -> server/wire.go#register']);
  });

  it('dispatches a call through an interface to every type whose method set covers it', () => {
    const { file, resolved } = resolveSources({
      'model/provider.go': go`
        package model

        type Provider interface {
        	Complete(prompt string) (string, error)
        	Name() string
        }

        type Anthropic struct{}

        func (a *Anthropic) Complete(prompt string) (string, error) { return "", nil }
        func (a *Anthropic) Name() string                          { return "anthropic" }

        type OpenAI struct{ base }

        type base struct{}

        func (base) Name() string { return "base" }

        func (o OpenAI) Complete(prompt string) (string, error) { return "", nil }

        type Wrong struct{}

        func (Wrong) Complete(prompt string, retries int) (string, error) { return "", nil }
        func (Wrong) Name() string                                        { return "" }
      `,
      'agent/agent.go': go`
        package agent

        import "example.com/app/model"

        type Agent struct{ provider model.Provider }

        func (a *Agent) Step() {
        	a.provider.Complete("hi")
        	var p model.Provider = &model.Anthropic{}
        	p.Name()
        }
      `,
    });
    const agent = file('agent/agent.go');
    expect(edgeList(agent.edges, 'calls')).toEqual([
      'agent/agent.go#Agent.Step -> model/provider.go#Anthropic.Complete',
      'agent/agent.go#Agent.Step -> model/provider.go#Anthropic.Name',
      'agent/agent.go#Agent.Step -> model/provider.go#OpenAI.Complete',
      'agent/agent.go#Agent.Step -> model/provider.go#base.Name',
    ]);
    expect(findEdge(agent.edges, 'calls', 'agent/agent.go#Agent.Step', 'model/provider.go#OpenAI.Complete')).toMatchObject({ resolution: 'name', via: 'dispatch', lines: [8] });
    expect(edgeList(resolved.heritage, 'implements')).toEqual(['model/provider.go#Anthropic -> model/provider.go#Provider', 'model/provider.go#OpenAI -> model/provider.go#Provider']);
  });

  it('types what an interface method returns by its declaration', () => {
    const { file } = resolveSources({
      'store.go': go`
        package store

        type Record struct{ ID string }

        func (r *Record) Key() string { return r.ID }

        type Finder interface {
        	Find(id string) (*Record, error)
        }

        func Lookup(finder Finder) string {
        	record, err := finder.Find("a")
        	if err != nil {
        		return err.Error()
        	}
        	return record.Key()
        }
      `,
    });
    expect(findEdge(file('store.go').edges, 'calls', 'store.go#Lookup', 'store.go#Record.Key')?.lines).toEqual([16]);
    // No type implements Finder: the call through it reaches nothing, and says so.
    expect(file('store.go').unresolved.map((call) => `${call.text} ${call.reason}`)).toEqual(['finder.Find dynamic']);
  });

  it('calls what go and defer run, and reads a func literal’s body as the enclosing unit’s code', () => {
    const { file } = resolveSources({
      'worker.go': go`
        package worker

        func work(n int) {}
        func cleanup()   {}
        func notify()    {}

        func Start() {
        	go work(1)
        	defer cleanup()
        	go func() {
        		notify()
        	}()
        }
      `,
    });
    expect(edgeList(file('worker.go').edges, 'calls')).toEqual(['worker.go#Start -> worker.go#cleanup', 'worker.go#Start -> worker.go#notify', 'worker.go#Start -> worker.go#work']);
    expect(file('worker.go').unresolved).toEqual([]);
  });

  it('counts no predeclared func and no conversion as a call site', () => {
    const { file } = resolveSources({
      'conv.go': go`
        package conv

        type Celsius float64

        func Convert(items []int, raw []byte) Celsius {
        	out := make([]int, 0, len(items))
        	out = append(out, cap(items))
        	p := new(int)
        	_ = string(raw)
        	if len(out) > *p {
        		panic("no")
        	}
        	return Celsius(3)
        }
      `,
    });
    const conv = file('conv.go');
    expect(conv.callSites).toBe(0);
    expect(edgeList(conv.edges, 'references')).toEqual(['conv.go#Convert -> conv.go#Celsius']);
  });

  it('types locals by declared results, range elements, type switches and assertions', () => {
    const { file } = resolveSources({
      'server/server.go': SERVER,
      'server/locals.go': go`
        package server

        func pair() (*Server, error) { return nil, nil }

        func Locals(all []*Server, byName map[string]Server, anything interface{}) {
        	s, err := pair()
        	s.Handle()
        	_ = err
        	for _, each := range all {
        		each.Handle()
        	}
        	for name, value := range byName {
        		_ = name
        		value.Handle()
        	}
        	switch v := anything.(type) {
        	case *Server:
        		v.Handle()
        	}
        	anything.(*Server).Start()
        }
      `,
    });
    const locals = file('server/locals.go');
    expect(findEdge(locals.edges, 'calls', 'server/locals.go#Locals', 'server/server.go#Server.Handle')?.lines).toEqual([7, 10, 14, 18]);
    expect(findEdge(locals.edges, 'calls', 'server/locals.go#Locals', 'server/server.go#Base.Start')?.lines).toEqual([20]);
    expect(locals.unresolved).toEqual([]);
  });

  it('calls a generic func with its type arguments', () => {
    const { file } = resolveSources({
      'list.go': go`
        package list

        func Map[T any, U any](items []T, f func(T) U) []U { return nil }

        func Use() {
        	Map[int, string](nil, nil)
        	Map(nil, nil)
        }
      `,
    });
    expect(findEdge(file('list.go').edges, 'calls', 'list.go#Use', 'list.go#Map')?.lines).toEqual([6, 7]);
  });

  it('keeps unresolved calls with their reason: external, dynamic, unknown', () => {
    const { file } = resolveSources({
      'server/server.go': SERVER,
      'server/calls.go': go`
        package server

        import (
        	"fmt"
        	"strings"
        )

        func Calls(s *Server, run func(), table map[string]func()) {
        	fmt.Println("x")
        	var b strings.Builder
        	b.WriteString("x")
        	run()
        	s.handler()
        	table["a"]()
        	missing()
        }
      `,
    });
    const calls = file('server/calls.go');
    expect(calls.unresolved.map((call) => `${call.line} ${call.text} ${call.reason}`)).toEqual([
      '9 fmt.Println external',
      '11 b.WriteString external',
      '12 run dynamic',
      '13 s.handler dynamic',
      '14 table["a"] dynamic',
      '15 missing unknown',
    ]);
    expect(findEdge(calls.edges, 'reads', 'server/calls.go#Calls', 'server/server.go#Server.handler')?.lines).toEqual([13]);
    expect([calls.callSites, calls.resolvedCalls]).toEqual([6, 0]);
  });

  it('ties a call on a value of unknown type to methods of its name and arity, three at most', () => {
    const { file } = resolveSources({
      'store.go': go`
        package store

        type Disk struct{}

        func (Disk) Flush() error { return nil }

        type Memory struct{}

        func (Memory) Flush() error      { return nil }
        func (Memory) Close(force bool) {}

        func Save[T any](store T) {
        	store.Flush()
        	store.Close(true)
        	store.Close()
        	store.Unheard()
        }
      `,
    });
    const store = file('store.go');
    expect(edgeList(store.edges, 'calls')).toEqual(['store.go#Save -> store.go#Disk.Flush', 'store.go#Save -> store.go#Memory.Close', 'store.go#Save -> store.go#Memory.Flush']);
    expect(findEdge(store.edges, 'calls', 'store.go#Save', 'store.go#Disk.Flush')).toEqual({ kind: 'calls', from: 'store.go#Save', to: 'store.go#Disk.Flush', lines: [13], resolution: 'name' });
    expect(store.unresolved.map((call) => `${call.text} ${call.reason}`)).toEqual(['store.Close dynamic', 'store.Unheard external']);
  });
});
