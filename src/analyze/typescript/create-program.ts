import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getLibFiles, libFolderInMemoryPath } from '@ts-morph/common';
import { ts } from 'ts-morph';

let libTexts: Map<string, string> | undefined;
/** Parsed lib files, shared by every program in the process: the standard library never changes under us. */
const libSourceFiles = new Map<string, ts.SourceFile>();

/** The standard library declarations that ship inside ts-morph, so no TypeScript install is needed. */
export function libFiles(): Map<string, string> {
  libTexts ??= new Map(getLibFiles().map((lib) => [`${libFolderInMemoryPath}/${lib.fileName}`, lib.text]));
  return libTexts;
}

/** The compiler names files with forward slashes on every platform. */
export function toCompilerPath(file: string): string {
  return file.split(path.sep).join('/');
}

export interface ProgramReuse {
  /**
   * Syntax trees by file name, kept between programs by a caller that analyzes the same
   * repository again: an entry whose text is unchanged is reused (with its binding) instead of
   * parsed again. The caller deletes entries of files it knows changed; new trees are added.
   */
  sourceFiles: Map<string, ts.SourceFile>;
  oldProgram?: ts.Program;
  /** Module resolution of the previous program, valid while the set of files and the settings stay the same. */
  resolveModule?: ModuleResolver;
}

/**
 * A program over exactly the given files, parsed once from the texts already read. The files
 * come from memory, so what is analyzed is what was hashed; lib files come from the compiler
 * that ts-morph ships; nothing else is read, so node_modules never enters the program.
 */
export function createProgram(
  rootNames: string[],
  texts: Map<string, string>,
  options: ts.CompilerOptions,
  onParsed: () => void,
  reuse?: ProgramReuse,
): { program: ts.Program; resolveModule: ModuleResolver } {
  const libDirectory = libFolderInMemoryPath;
  const libs = libFiles();
  const host: ts.CompilerHost = {
    getSourceFile(fileName, languageVersion) {
      const text = texts.get(fileName);
      const target = typeof languageVersion === 'object' ? languageVersion.languageVersion : languageVersion;
      if (text === undefined) {
        const libText = libs.get(fileName);
        if (libText === undefined) return undefined;
        const key = `${fileName}\u0000${target}`;
        let lib = libSourceFiles.get(key);
        if (!lib) libSourceFiles.set(key, (lib = ts.createSourceFile(fileName, libText, languageVersion, false, ts.ScriptKind.TS)));
        return lib;
      }
      const kept = reuse?.sourceFiles.get(fileName);
      if (kept && kept.text === text && kept.languageVersion === target) return kept;
      const sourceFile = ts.createSourceFile(fileName, text, languageVersion, false, scriptKindOf(fileName));
      reuse?.sourceFiles.set(fileName, sourceFile);
      onParsed();
      return sourceFile;
    },
    getDefaultLibFileName: (compilerOptions) => `${libDirectory}/${ts.getDefaultLibFileName(compilerOptions)}`,
    getDefaultLibLocation: () => libDirectory,
    writeFile: () => undefined,
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (fileName) => texts.has(fileName) || libs.has(fileName) || existsSync(fileName),
    readFile: (fileName) => texts.get(fileName) ?? libs.get(fileName) ?? readIfPresent(fileName),
    directoryExists: (directory) => existsSync(directory),
  };
  const resolveModule = reuse?.resolveModule ?? createModuleResolver(texts, options, host);
  host.resolveModuleNameLiterals = (literals, containingFile, _redirect, _options, containingSourceFile) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(containingSourceFile, literal, options);
      return { resolvedModule: resolveModule(literal.text, containingFile, mode) };
    });
  const program = ts.createProgram({ rootNames, options, host, ...(reuse?.oldProgram ? { oldProgram: reuse.oldProgram } : {}) });
  return { program, resolveModule };
}

/** A file outside the analyzed set (a package.json the resolver consults) may vanish between the check and the read. */
function readIfPresent(fileName: string): string | undefined {
  try {
    return readFileSync(fileName, 'utf8');
  } catch {
    return undefined;
  }
}

export function scriptKindOf(fileName: string): ts.ScriptKind {
  if (/\.tsx$/.test(fileName)) return ts.ScriptKind.TSX;
  if (/\.jsx$/.test(fileName)) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

export type ModuleResolver = (specifier: string, containingFile: string, mode?: ts.ResolutionMode) => ts.ResolvedModuleFull | undefined;

const DECLARATION = /\.d\.([cm]?)ts$/;
const SOURCE_FOR_DECLARATION = ['.ts', '.tsx', '.js', '.jsx'];

/**
 * Module resolution as the compiler does it, with one change: a published package ships
 * `x.d.ts` beside `x.js`, and the compiler prefers the declaration; the graph wants the code,
 * so a declaration with a sibling source file in the repository resolves to that source.
 */
export function createModuleResolver(texts: Map<string, string>, options: ts.CompilerOptions, host: ts.ModuleResolutionHost): ModuleResolver {
  const cache = ts.createModuleResolutionCache('/', (name) => name, options);
  return (specifier, containingFile, mode) => {
    const resolved = ts.resolveModuleName(specifier, containingFile, options, host, cache, undefined, mode).resolvedModule;
    if (!resolved) return undefined;
    const declaration = DECLARATION.exec(resolved.resolvedFileName);
    if (!declaration) return resolved;
    const stem = resolved.resolvedFileName.slice(0, declaration.index);
    const flavour = declaration[1] ?? '';
    for (const extension of SOURCE_FOR_DECLARATION) {
      const candidate = `${stem}${extension.replace(/^\.(t|j)s/, `.${flavour}$1s`)}`;
      if (texts.has(candidate)) {
        return { ...resolved, resolvedFileName: candidate, extension: extensionOf(candidate), isExternalLibraryImport: false };
      }
    }
    return resolved;
  };
}

function extensionOf(file: string): ts.Extension {
  if (file.endsWith('.tsx')) return ts.Extension.Tsx;
  if (file.endsWith('.jsx')) return ts.Extension.Jsx;
  if (file.endsWith('.mts')) return ts.Extension.Mts;
  if (file.endsWith('.cts')) return ts.Extension.Cts;
  if (file.endsWith('.mjs')) return ts.Extension.Mjs;
  if (file.endsWith('.cjs')) return ts.Extension.Cjs;
  if (file.endsWith('.js')) return ts.Extension.Js;
  return ts.Extension.Ts;
}
