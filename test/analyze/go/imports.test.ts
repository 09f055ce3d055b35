import { describe, expect, it } from 'vitest';
import { edgeList, findEdge, go, resolveSources } from './go-kit.js';

const MODEL = 'package model\n\nfunc Complete() string { return "" }\n';
const MODEL_TYPES = 'package model\n\ntype Message struct{ Text string }\n';

describe('Go imports', () => {
  const { file } = resolveSources({
    'cmd/app/main.go': go`
      package main

      import (
      	"fmt"
      	"net/http"
      	"github.com/spf13/cobra"
      	"gopkg.in/yaml.v3"
      	"example.com/app/internal/model"
      	util "example.com/app/pkg/util"
      	"example.com/app/internal/nothere"
      	"C"
      )

      func main() {
      	fmt.Println(model.Complete(), util.Join())
      	http.Get("x")
      	cobra.Command()
      	yaml.Marshal(nil)
      	C.free(nil)
      }
    `,
    'internal/model/complete.go': MODEL,
    'internal/model/message.go': MODEL_TYPES,
    'internal/model/model_test.go': 'package model\n\nimport "testing"\n\nfunc TestX(t *testing.T) {}\n',
    'pkg/util/join.go': 'package util\n\nimport "example.com/app/internal/model"\n\nfunc Join() string { return model.Complete() }\n',
    'pkg/util/testdata/fixture.go': 'package fixture\n\nimport "example.com/app/pkg/util"\n\nvar _ = util.Join\n',
  });
  const main = file('cmd/app/main.go');

  it('reads the module path off the imports: a path ending with a folder of the repository names that folder', () => {
    expect(edgeList(main.edges, 'imports')).toEqual([
      'cmd/app/main.go -> internal/model/complete.go',
      'cmd/app/main.go -> internal/model/message.go',
      'cmd/app/main.go -> pkg/util/join.go',
    ]);
    expect(findEdge(main.edges, 'imports', 'cmd/app/main.go', 'pkg/util/join.go')?.lines).toEqual([9]);
  });

  it('imports every file of the package, not its test files', () => {
    expect(edgeList(file('pkg/util/join.go').edges, 'imports')).toEqual(['pkg/util/join.go -> internal/model/complete.go', 'pkg/util/join.go -> internal/model/message.go']);
  });

  it('names an external import by its whole path; a path of the module no folder holds is none, nor is cgo', () => {
    expect(main.externalImports).toEqual(['fmt', 'github.com/spf13/cobra', 'gopkg.in/yaml.v3', 'net/http']);
  });

  it('calls through an import under its package name or its alias, and outside the repository through the path’s last name', () => {
    expect(edgeList(main.edges, 'calls')).toEqual(['cmd/app/main.go#main -> internal/model/complete.go#Complete', 'cmd/app/main.go#main -> pkg/util/join.go#Join']);
    expect(main.unresolved.map((call) => `${call.text} ${call.reason}`).sort()).toEqual(['C.free external', 'cobra.Command external', 'fmt.Println external', 'http.Get external', 'yaml.Marshal external']);
  });

  it('gives test files and testdata their imports', () => {
    expect(file('internal/model/model_test.go').externalImports).toEqual(['testing']);
    expect(edgeList(file('pkg/util/testdata/fixture.go').edges, 'imports')).toEqual(['pkg/util/testdata/fixture.go -> pkg/util/join.go']);
  });
});

describe('Go module paths', () => {
  it('never takes a standard-library path for a folder of the same name', () => {
    const { file } = resolveSources({
      'errors/errors.go': 'package errors\n\nfunc Wrap() {}\n',
      'main.go': 'package main\n\nimport "errors"\n\nfunc main() { errors.New("x") }\n',
    });
    expect(edgeList(file('main.go').edges, 'imports')).toEqual([]);
    expect(file('main.go').externalImports).toEqual(['errors']);
  });

  it('prefers the module path most imports agree on over a coincidence', () => {
    const { file } = resolveSources({
      'internal/errors/errors.go': 'package errors\n\nfunc Wrap() {}\n',
      'internal/store/store.go': 'package store\n\nfunc Open() {}\n',
      'internal/agent/agent.go': 'package agent\n\nfunc Run() {}\n',
      'main.go': go`
        package main

        import (
        	"example.com/app/internal/agent"
        	"example.com/app/internal/store"
        	"github.com/pkg/errors"
        )

        func main() { agent.Run(); store.Open(); errors.Wrap() }
      `,
    });
    expect(edgeList(file('main.go').edges, 'imports')).toEqual(['main.go -> internal/agent/agent.go', 'main.go -> internal/store/store.go']);
    expect(file('main.go').externalImports).toEqual(['github.com/pkg/errors']);
  });

  it('takes a single import of a folder below the root for no module', () => {
    const { file } = resolveSources({
      'internal/tools/tools.go': 'package tools\n\nfunc Run() {}\n',
      'internal/agent/agent.go': 'package agent\n\nimport "github.com/acme/tools"\n\nfunc Go() { tools.Run() }\n',
    });
    expect(edgeList(file('internal/agent/agent.go').edges, 'imports')).toEqual([]);
    expect(file('internal/agent/agent.go').externalImports).toEqual(['github.com/acme/tools']);
  });

  it('reads the modules of a go.work workspace by the same rule, and imports across them', () => {
    const { file } = resolveSources({
      'services/api/internal/handler/handler.go': 'package handler\n\nimport "example.com/shared/log"\n\nfunc Serve() { log.Info() }\n',
      'services/api/main.go': 'package main\n\nimport "example.com/api/internal/handler"\n\nfunc main() { handler.Serve() }\n',
      'libs/shared/log/log.go': 'package log\n\nfunc Info() {}\n',
      'libs/shared/auth/auth.go': 'package auth\n\nimport "example.com/shared/log"\n\nfunc Check() { log.Info() }\n',
      'tools/gen/main.go': 'package main\n\nimport "example.com/shared/auth"\n\nfunc main() { auth.Check() }\n',
    });
    expect(edgeList(file('services/api/main.go').edges, 'imports')).toEqual(['services/api/main.go -> services/api/internal/handler/handler.go']);
    expect(edgeList(file('services/api/internal/handler/handler.go').edges, 'imports')).toEqual(['services/api/internal/handler/handler.go -> libs/shared/log/log.go']);
    expect(edgeList(file('tools/gen/main.go').edges, 'calls')).toEqual(['tools/gen/main.go#main -> libs/shared/auth/auth.go#Check']);
  });

  it('imports the package at the module root by the module path itself', () => {
    const { file } = resolveSources({
      'app.go': 'package app\n\nfunc Version() string { return "1" }\n',
      'internal/x/x.go': 'package x\n\nfunc X() {}\n',
      'cmd/app/main.go': 'package main\n\nimport (\n\t"example.com/app"\n\t"example.com/app/internal/x"\n)\n\nfunc main() { app.Version(); x.X() }\n',
    });
    expect(edgeList(file('cmd/app/main.go').edges, 'imports')).toEqual(['cmd/app/main.go -> app.go', 'cmd/app/main.go -> internal/x/x.go']);
  });

  it('reads names of a dot import unqualified, and ignores a blank import', () => {
    const { file } = resolveSources({
      'internal/model/model.go': MODEL,
      'main.go': 'package main\n\nimport (\n\t. "example.com/app/internal/model"\n\t_ "example.com/app/internal/model"\n\t"example.com/app/internal/model"\n)\n\nfunc main() { Complete(); model.Complete() }\n',
    });
    expect(findEdge(file('main.go').edges, 'calls', 'main.go#main', 'internal/model/model.go#Complete')?.lines).toEqual([9]);
    expect(file('main.go').resolvedCallLines).toEqual([9, 9]);
  });
});
