import { existsSync } from 'node:fs';
import path from 'node:path';
import { libFolderInMemoryPath } from '@ts-morph/common';
import { ts } from 'ts-morph';
import { libFiles } from '../analyze/typescript/create-program.js';

export interface TypecheckOutcome {
  ok: boolean;
  errorCount: number;
  /** The first errors, `file:line: message`, for the model to act on. */
  errors: string[];
  durationMs: number;
}

const SHOWN_ERRORS = 20;

/**
 * Type-checks the repository with its own tsconfig.json, in process: a harness cannot assume
 * the repository has a TypeScript it can run, and the one ts-morph carries is always there.
 */
export function typecheckRepository(root: string): TypecheckOutcome {
  const started = performance.now();
  const configPath = path.join(root, 'tsconfig.json');
  if (!existsSync(configPath)) {
    return { ok: false, errorCount: 1, errors: ['tsconfig.json: the repository has no tsconfig.json at its root to type-check with'], durationMs: 0 };
  }
  const configDiagnostics: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => configDiagnostics.push(diagnostic),
    },
  );
  const diagnostics = parsed
    ? [
        ...parsed.errors,
        ...ts.getPreEmitDiagnostics(
          ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host: hostWithBundledLibs(parsed.options), ...(parsed.projectReferences ? { projectReferences: parsed.projectReferences } : {}) }),
        ),
      ]
    : configDiagnostics;
  const errors = diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  return {
    ok: errors.length === 0,
    errorCount: errors.length,
    errors: errors.slice(0, SHOWN_ERRORS).map((diagnostic) => describe(root, diagnostic)),
    durationMs: Math.round(performance.now() - started),
  };
}

/** The repository's files from disk, the standard library from the copy inside ts-morph: ts-morph's compiler has no lib folder on disk. */
function hostWithBundledLibs(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const libs = libFiles();
  const { getSourceFile, fileExists, readFile } = host;
  return Object.assign(host, {
    getDefaultLibLocation: () => libFolderInMemoryPath,
    getDefaultLibFileName: (compilerOptions: ts.CompilerOptions) => `${libFolderInMemoryPath}/${ts.getDefaultLibFileName(compilerOptions)}`,
    getSourceFile: (fileName: string, languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions, onError?: (message: string) => void, shouldCreate?: boolean) => {
      const lib = libs.get(fileName);
      return lib === undefined ? getSourceFile.call(host, fileName, languageVersion, onError, shouldCreate) : ts.createSourceFile(fileName, lib, languageVersion, false, ts.ScriptKind.TS);
    },
    fileExists: (fileName: string) => libs.has(fileName) || fileExists.call(host, fileName),
    readFile: (fileName: string) => libs.get(fileName) ?? readFile.call(host, fileName),
  });
}

function describe(root: string, diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  if (!diagnostic.file || diagnostic.start === undefined) return message;
  const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${path.relative(root, diagnostic.file.fileName).split(path.sep).join('/')}:${line + 1}: ${message}`;
}
