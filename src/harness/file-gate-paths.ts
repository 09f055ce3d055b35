/** A path a tool may not use, with the rule that refused it; the model gets the message and may try again. */
export class PathRefused extends Error {
  override readonly name = 'PathRefused';
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * C0 and C1 controls, line and paragraph separators, and the bidi marks, embeddings, overrides
 * and isolates: none has a place in a file name, and each can make a path print as another one
 * in a terminal, a log or the model's own context.
 */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

/** Folders no tool touches: repositories' history (a submodule's too) and the handbook's own state. */
const PROTECTED_FOLDERS = new Set(['.git', '.handbook']);

/** Code points a file system or git may ignore when comparing names (git refuses `.g\u200Cit` for this reason). */
const IGNORABLE = /[\u00ad\u034f\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff]/gu;

export function holdsControlCharacter(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

/** The text with every control character written as an escape, so a message cannot be spoofed by the path it names. */
export function quoted(text: string): string {
  const escaped = [...text].map((character) => (CONTROL_CHARACTERS.test(character) ? `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}` : character));
  return `"${escaped.join('').replaceAll('"', '\\"')}"`;
}

/**
 * The protected folder a relative posix path passes through, at any depth. Names are compared
 * as a case-insensitive file system (macOS, Windows) or git itself would see them: `.GIT`,
 * `.git.` and a fullwidth `．git` are refused as well, because the same tree may be checked
 * out where they do name the real folder.
 */
export function protectedFolderOf(relative: string): string | undefined {
  for (const segment of relative.split('/')) {
    const folded = segment.normalize('NFKC').replace(IGNORABLE, '').replace(/[. ]+$/, '').toLowerCase();
    if (PROTECTED_FOLDERS.has(folded)) return segment;
  }
  return undefined;
}
