/**
 * The languages analysis reads, and which one a file is in. Discovery walks the files of every
 * language at once; the analysis session hands each language's files to its front end.
 */
export const LANGUAGES = ['typescript', 'python', 'go', 'rust'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Source extensions per language; a file is in the language whose list holds its extension. */
export const LANGUAGE_EXTENSIONS: Readonly<Record<Language, readonly string[]>> = {
  typescript: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
  python: ['.py'],
  go: ['.go'],
  rust: ['.rs'],
};

/** Every source extension of every language: what discovery lists. */
export const SOURCE_EXTENSIONS: readonly string[] = LANGUAGES.flatMap((language) => LANGUAGE_EXTENSIONS[language]);

/** Names each language spells in a user's words ("TypeScript/JavaScript", "Python"). */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { typescript: 'TypeScript/JavaScript', python: 'Python', go: 'Go', rust: 'Rust' };

export function languageOfPath(path: string): Language | undefined {
  for (const language of LANGUAGES) if (LANGUAGE_EXTENSIONS[language].some((extension) => path.endsWith(extension))) return language;
  return undefined;
}
