import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getLibFiles, libFolderInMemoryPath } from '@ts-morph/common';
import { ts } from 'ts-morph';

let libTexts: Map<string, string> | undefined;

/** The standard library declarations that ship inside ts-morph, so no TypeScript install is needed. */
function libFiles(): Map<string, string> {
  libTexts ??= new Map(getLibFiles().map((lib) => [`${libFolderInMemoryPath}/${lib.fileName}`, lib.text]));
  return libTexts;
}

/** The compiler names files with forward slashes on every platform. */
export function toCompilerPath(file: string): string {
  return file.split(path.sep).join('/');
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
): { program: ts.Program; host: ts.CompilerHost } {
  const libDirectory = libFolderInMemoryPath;
  const libs = libFiles();
  const host: ts.CompilerHost = {
    getSourceFile(fileName, languageVersion) {
      const text = texts.get(fileName) ?? libs.get(fileName);
      if (text === undefined) return undefined;
      const sourceFile = ts.createSourceFile(fileName, text, languageVersion, false, scriptKindOf(fileName));
      if (texts.has(fileName)) onParsed();
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
    readFile: (fileName) => texts.get(fileName) ?? libs.get(fileName) ?? (existsSync(fileName) ? readFileSync(fileName, 'utf8') : undefined),
    directoryExists: (directory) => existsSync(directory),
  };
  return { program: ts.createProgram({ rootNames, options, host }), host };
}

export function scriptKindOf(fileName: string): ts.ScriptKind {
  if (/\.tsx$/.test(fileName)) return ts.ScriptKind.TSX;
  if (/\.jsx$/.test(fileName)) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}
