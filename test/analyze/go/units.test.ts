import { describe, expect, it } from 'vitest';
import { edgeList, extract, findEdge, go, resolveSources, unitOf, unitsOf } from './go-kit.js';

const SERVER = go`
  // Package server serves tool calls.
  package server

  import (
  	"context"
  	"sync"
  )

  // MaxTurns bounds a run.
  const MaxTurns = 40

  // Limits of a request.
  const (
  	minTokens = 1
  	// maxTokens is the provider's ceiling.
  	MaxTokens = 4096
  )

  var low, high = 1, 9
  var _ = context.Background

  // Server answers requests.
  type Server struct {
  	Base
  	*Logger
  	name, id string // who it is
  	// handler runs each request.
  	handler func(ctx context.Context) error
  	mu      sync.Mutex
  	_       struct{}
  }

  // Runner runs.
  type Runner interface {
  	Run(ctx context.Context) error
  }

  type (
  	ID    = string
  	Count int
  )

  // Handle serves one request.
  func (s *Server) Handle(ctx context.Context) error {
  	return s.handler(ctx)
  }

  func (s Server) name() string { return s.id }

  func (l *List[T]) Push(value T) {}

  func NewServer() *Server { return &Server{} }

  func init() {}

  func init() {}
`;

describe('Go units', () => {
  const units = unitsOf('internal/server/server.go', SERVER);

  it('puts the file unit first, as the other front ends build it', () => {
    expect(units[0]).toEqual({
      id: 'internal/server/server.go', kind: 'file', file: 'internal/server/server.go', symbol: '', startLine: 1, endLine: SERVER.split('\n').length,
      signature: 'internal/server/server.go', doc: '', exported: false, hash: expect.any(String), literals: '', words: '',
    });
  });

  it('gives each declaration a symbol and a kind: structs are classes, fields properties, consts and vars variables', () => {
    expect(units.slice(1).map((unit) => `${unit.symbol}:${unit.kind}`)).toEqual([
      'MaxTurns:variable',
      'minTokens:variable',
      'MaxTokens:variable',
      'low:variable',
      'high:variable',
      'Server:class',
      'Server.Base:property',
      'Server.Logger:property',
      'Server.name:property',
      'Server.id:property',
      'Server.handler:property',
      'Server.mu:property',
      'Runner:interface',
      'ID:type',
      'Count:type',
      'Server.Handle:method',
      'Server.name~2:method',
      'List.Push:method',
      'NewServer:function',
      'init:function',
      'init~2:function',
    ]);
  });

  it('names a method by its receiver type, pointer or not, and puts it in that type when the file declares it', () => {
    expect(unitOf(units, 'Server.Handle')).toMatchObject({ id: 'internal/server/server.go#Server.Handle', parent: 'internal/server/server.go#Server' });
    expect(unitOf(units, 'Server.name~2').parent).toBe('internal/server/server.go#Server');
    expect(unitOf(units, 'List.Push').parent).toBe('internal/server/server.go');
    expect(unitOf(units, 'Server.mu').parent).toBe('internal/server/server.go#Server');
  });

  it('exports capitalized names, and members only of exported types', () => {
    expect(units.filter((unit) => unit.exported).map((unit) => unit.symbol)).toEqual([
      'MaxTurns', 'MaxTokens', 'Server', 'Server.Base', 'Server.Logger', 'Runner', 'ID', 'Count', 'Server.Handle', 'List.Push', 'NewServer',
    ]);
  });

  it('spans a lone declaration with its keyword, a grouped spec alone, a method from func to brace', () => {
    const lines = SERVER.split('\n');
    const text = (symbol: string) => lines.slice(unitOf(units, symbol).startLine - 1, unitOf(units, symbol).endLine).join('\n').trim();
    expect(text('MaxTurns')).toBe('const MaxTurns = 40');
    expect(text('MaxTokens')).toBe('MaxTokens = 4096');
    expect(text('Server.Handle')).toBe('func (s *Server) Handle(ctx context.Context) error {\n\treturn s.handler(ctx)\n}');
    expect(unitOf(units, 'low').startLine).toBe(unitOf(units, 'high').startLine);
  });

  it('signs funcs by their head, types by their head without the body, vars by their first characters', () => {
    expect(unitOf(units, 'Server.Handle').signature).toBe('func (s *Server) Handle(ctx context.Context) error');
    expect(unitOf(units, 'Server').signature).toBe('type Server struct');
    expect(unitOf(units, 'Runner').signature).toBe('type Runner interface');
    expect(unitOf(units, 'ID').signature).toBe('type ID = string');
    expect(unitOf(units, 'MaxTokens').signature).toBe('const MaxTokens = 4096');
    expect(unitOf(units, 'low').signature).toBe('var low, high = 1, 9');
    expect(unitOf(units, 'Server.name').signature).toBe('name, id string');
  });

  it('documents a declaration by the comment right above it, a grouped spec by its own or the group’s, a field by its line comment', () => {
    expect(unitOf(units, 'MaxTurns').doc).toBe('MaxTurns bounds a run.');
    expect(unitOf(units, 'MaxTokens').doc).toBe("maxTokens is the provider's ceiling.");
    expect(unitOf(units, 'minTokens').doc).toBe('Limits of a request.');
    expect(unitOf(units, 'Server').doc).toBe('Server answers requests.');
    expect(unitOf(units, 'Server.handler').doc).toBe('handler runs each request.');
    expect(unitOf(units, 'Server.id').doc).toBe('who it is');
    expect(unitOf(units, 'Server.Handle').doc).toBe('Handle serves one request.');
    expect(unitOf(units, 'NewServer').doc).toBe('');
  });

  it('collects words from identifiers and comments, the doc comment first', () => {
    expect(unitOf(units, 'Server.Handle').words.split(' ')).toEqual(expect.arrayContaining(['handle', 'serves', 'request', 'server', 'context', 'error', 'handler']));
    expect(unitOf(units, 'Server').words.split(' ')).not.toContain('mutex');
  });

  it('gives a test file its file unit and imports only, and testdata the same', () => {
    for (const path of ['internal/server/server_test.go', 'internal/server/testdata/input.go']) {
      const extracted = extract(path, SERVER);
      expect(extracted.units.map((unit) => unit.kind)).toEqual(['file']);
      expect(extracted.facts.uses).toEqual([]);
      expect(extracted.facts.imports.map((fact) => fact.path)).toEqual(['context', 'sync']);
    }
  });

  it('digests each declaration by kind and signature, and the package and imports apart', () => {
    const digest = extract('s.go', SERVER).digest;
    expect(Object.keys(digest)).toEqual(expect.arrayContaining(['Server.Handle', 'Server.mu', '*imports']));
    expect(extract('s.go', SERVER.replace('return s.handler(ctx)', 'return nil')).digest).toEqual(digest);
    const headEdited = extract('s.go', SERVER.replace('Handle(ctx context.Context) error', 'Handle(ctx context.Context) (int, error)')).digest;
    expect(headEdited['Server.Handle']).not.toBe(digest['Server.Handle']);
    expect(headEdited['NewServer']).toBe(digest['NewServer']);
    expect(extract('s.go', SERVER.replace('"sync"', '"sync"\n\t"os"')).digest['*imports']).not.toBe(digest['*imports']);
    expect(extract('s.go', SERVER.replace('package server', 'package other')).digest['*imports']).not.toBe(digest['*imports']);
  });

  it('contains each unit in its parent, from the line the unit starts on', () => {
    const { file } = resolveSources({ 'internal/server/server.go': SERVER });
    const contains = edgeList(file('internal/server/server.go').edges, 'contains');
    expect(contains).toHaveLength(units.length - 1);
    expect(findEdge(file('internal/server/server.go').edges, 'contains', 'internal/server/server.go#Server', 'internal/server/server.go#Server.Handle')).toEqual({
      kind: 'contains', from: 'internal/server/server.go#Server', to: 'internal/server/server.go#Server.Handle', lines: [unitOf(units, 'Server.Handle').startLine], resolution: 'scope',
    });
  });
});
