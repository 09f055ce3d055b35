import { describe, expect, it } from 'vitest';
import { edgeList, findEdge, go, resolveSources } from './go-kit.js';

describe('Go heritage', () => {
  const { resolved } = resolveSources({
    'shapes/shapes.go': go`
      package shapes

      import "io"

      type Namer interface {
      	Name() string
      }

      type Shape interface {
      	Namer
      	Area() float64
      }

      type ReadNamer interface {
      	io.Reader
      	Namer
      }

      type Any interface{}

      type base struct{ id int }

      func (b *base) Name() string { return "" }

      type Square struct {
      	base
      	side float64
      }

      func (s Square) Area() float64 { return s.side * s.side }

      type Circle struct{ radius float64 }

      func (c *Circle) Area() float64 { return 0 }
      func (c *Circle) Name() string  { return "circle" }

      type Line struct{}

      func (Line) Area(precision int) float64 { return 0 }
      func (Line) Name() string                { return "line" }

      type Label string

      func (l Label) Name() string { return string(l) }
    `,
  });

  it('implements an interface when the method set covers its methods and their arities, value and pointer receivers alike', () => {
    expect(edgeList(resolved.heritage, 'implements')).toEqual([
      'shapes/shapes.go#Circle -> shapes/shapes.go#Namer',
      'shapes/shapes.go#Circle -> shapes/shapes.go#Shape',
      'shapes/shapes.go#Label -> shapes/shapes.go#Namer',
      'shapes/shapes.go#Line -> shapes/shapes.go#Namer',
      'shapes/shapes.go#Square -> shapes/shapes.go#Namer',
      'shapes/shapes.go#Square -> shapes/shapes.go#Shape',
      'shapes/shapes.go#base -> shapes/shapes.go#Namer',
    ]);
    expect(findEdge(resolved.heritage, 'implements', 'shapes/shapes.go#Circle', 'shapes/shapes.go#Shape')).toEqual({
      kind: 'implements', from: 'shapes/shapes.go#Circle', to: 'shapes/shapes.go#Shape', lines: [32], resolution: 'name',
    });
  });

  it('says no type implements an empty interface, or one embedding an interface from outside', () => {
    expect(edgeList(resolved.heritage, 'implements').filter((edge) => edge.endsWith('#Any') || edge.endsWith('#ReadNamer'))).toEqual([]);
  });

  it('extends a struct by embedding a struct, an interface by embedding an interface', () => {
    expect(edgeList(resolved.heritage, 'extends')).toEqual(['shapes/shapes.go#Shape -> shapes/shapes.go#Namer', 'shapes/shapes.go#Square -> shapes/shapes.go#base', 'shapes/shapes.go#ReadNamer -> shapes/shapes.go#Namer'].sort());
    expect(findEdge(resolved.heritage, 'extends', 'shapes/shapes.go#Square', 'shapes/shapes.go#base')).toEqual({ kind: 'extends', from: 'shapes/shapes.go#Square', to: 'shapes/shapes.go#base', lines: [26], resolution: 'scope' });
  });

  it('finds heritage across packages, an embedded struct from another package included', () => {
    const across = resolveSources({
      'model/client.go': 'package model\n\ntype Client struct{}\n\nfunc (c *Client) Complete() string { return "" }\n',
      'model/completer.go': 'package model\n\ntype Completer interface{ Complete() string }\n',
      'agent/agent.go': 'package agent\n\nimport "example.com/app/model"\n\ntype Traced struct {\n\t*model.Client\n}\n\nfunc (t *Traced) Run() { t.Complete() }\n',
    });
    expect(edgeList(across.resolved.heritage, 'extends')).toEqual(['agent/agent.go#Traced -> model/client.go#Client']);
    expect(edgeList(across.resolved.heritage, 'implements')).toEqual(['agent/agent.go#Traced -> model/completer.go#Completer', 'model/client.go#Client -> model/completer.go#Completer']);
    expect(findEdge(across.edges, 'calls', 'agent/agent.go#Traced.Run', 'model/client.go#Client.Complete')?.via).toBe('direct');
  });
});
