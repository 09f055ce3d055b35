import { STATIC_SLOT_PREFIX, type Edge, type Slot } from '../../graph/model.js';
import type { UnitIndex } from './collect-units.js';
import { declaredNameOf, fileOfId, JOINS_ENTRY, type DeclarationDigest } from './declaration-digest.js';

/**
 * Which unchanged files a re-sync must resolve again. A file's edges are a function of its own
 * text and of the declarations its names resolve to; these rules find every file for which the
 * second part may have moved. The cold-build invariant tests (test/sync) are what hold them to it.
 */

/** Names declared differently in two versions of a file: added, removed or changed. */
export function changedNames(before: DeclarationDigest | undefined, after: DeclarationDigest | undefined): string[] {
  const names: string[] = [];
  for (const [name, hash] of Object.entries(before ?? {})) if (after?.[name] !== hash) names.push(name);
  for (const name of Object.keys(after ?? {})) if (before?.[name] === undefined) names.push(name);
  return names;
}

/**
 * Names whose declarations went, unchanged, from removed files to added ones (a file renamed or
 * split). Only files with edges into the removed file, or importing the added one by its stem,
 * can resolve them differently, and other rules cover both; a name changed anywhere else stays.
 */
export function movedNames(removed: readonly DeclarationDigest[], added: readonly DeclarationDigest[]): Set<string> {
  const hashesOf = (digests: readonly DeclarationDigest[]): Map<string, string[]> => {
    const hashes = new Map<string, string[]>();
    for (const digest of digests) for (const [name, hash] of Object.entries(digest)) hashes.set(name, [...(hashes.get(name) ?? []), hash]);
    return hashes;
  };
  const before = hashesOf(removed);
  const after = hashesOf(added);
  const moved = new Set<string>();
  for (const [name, hashes] of before) {
    if (hashes.join('\u0000') === after.get(name)?.join('\u0000')) moved.add(name);
  }
  return moved;
}

/** What an import of a file is spelled with: `tools/shell.ts` → `shell`; `tools/index.ts` → `tools`. */
export function importStem(path: string): string {
  const parts = path.split('/');
  const stem = parts[parts.length - 1]!.replace(/\.[^.]+$/, '');
  return stem === 'index' && parts.length > 1 ? parts[parts.length - 2]! : stem;
}

const IDENTIFIER_CHARACTER = /[A-Za-z0-9_$]/;

/** Whether the text holds one of the words as a whole identifier, not inside a longer one. */
export function mentionsAny(text: string, words: Iterable<string>): boolean {
  for (const word of words) {
    if (word.length === 0) continue;
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      const before = at === 0 ? '' : text[at - 1]!;
      const after = text[at + word.length] ?? '';
      if (!IDENTIFIER_CHARACTER.test(before) && !IDENTIFIER_CHARACTER.test(after)) return true;
    }
  }
  return false;
}

const IDENTIFIER_RUN = /[A-Za-z0-9_$]+/g;
const ONLY_IDENTIFIER_CHARACTERS = /^[A-Za-z0-9_$]+$/;

/**
 * Many words looked for in many texts, with the answers of `mentionsAny`, each text read once
 * however many words there are (a sync that adds thousands of files asks about thousands of
 * names). A word of identifier characters only is mentioned exactly where it is a whole run of
 * them, so it is looked up among the text's runs; any other word (empty, or with a character
 * `mentionsAny` does not count as an identifier's, such as `é`) is searched for as `mentionsAny` does.
 */
export class WordMatcher {
  private readonly identifiers = new Set<string>();
  private readonly others: string[] = [];

  constructor(words: Iterable<string>) {
    for (const word of words) {
      if (ONLY_IDENTIFIER_CHARACTERS.test(word)) this.identifiers.add(word);
      else if (word.length > 0 && !this.others.includes(word)) this.others.push(word);
    }
  }

  mentionedIn(text: string): boolean {
    for (const [run] of text.matchAll(IDENTIFIER_RUN)) if (this.identifiers.has(run)) return true;
    return mentionsAny(text, this.others);
  }

  /** The words the text mentions. */
  wordsIn(text: string): Set<string> {
    const found = new Set<string>();
    if (this.identifiers.size > 0) for (const [run] of text.matchAll(IDENTIFIER_RUN)) if (this.identifiers.has(run)) found.add(run);
    for (const word of this.others) if (mentionsAny(text, [word])) found.add(word);
    return found;
  }
}

/** Words remembered at most: a long watch session asks about many names, most of them once. */
const REMEMBERED_WORDS = 2_000;

/**
 * New words asked about at once above which every text is read once for all of them rather than
 * searched once per word: a native search for one word is some 30 times faster than splitting a text into its runs.
 */
const ONE_READING_ABOVE = 32;

/**
 * Which files mention a word as a whole identifier, remembered per word across the refreshes of
 * one analysis session: the first question about a word reads every file, later ones only read
 * the files that changed in between. Kept exact by `update` with every text that changed.
 */
export class MentionIndex {
  private readonly byWord = new Map<string, Set<string>>();
  /** The remembered words, as `update` looks for them: made again only after new words were asked about. */
  private matcher: WordMatcher | undefined;

  /** The files that mention any of the words. */
  filesMentioningAny(words: Iterable<string>, texts: ReadonlyMap<string, string>): Set<string> {
    const mentioning = new Set<string>();
    const fresh = new Map<string, Set<string>>();
    for (const word of words) {
      const files = this.byWord.get(word);
      if (files) for (const file of files) mentioning.add(file);
      else fresh.set(word, new Set());
    }
    if (fresh.size > ONE_READING_ABOVE) {
      const matcher = new WordMatcher(fresh.keys());
      for (const [file, text] of texts) for (const word of matcher.wordsIn(text)) fresh.get(word)!.add(file);
    } else {
      for (const [word, files] of fresh) if (word.length > 0) for (const [file, text] of texts) if (mentionsAny(text, [word])) files.add(file);
    }
    if (fresh.size > 0) this.matcher = undefined;
    for (const [word, files] of fresh) {
      for (const file of files) mentioning.add(file);
      if (this.byWord.size >= REMEMBERED_WORDS) this.byWord.delete(this.byWord.keys().next().value!);
      this.byWord.set(word, files);
    }
    return mentioning;
  }

  /** A file's new text, or undefined for a file that is gone. */
  update(file: string, text: string | undefined): void {
    if (this.byWord.size === 0) return;
    const mentioned = text === undefined ? new Set<string>() : (this.matcher ??= new WordMatcher(this.byWord.keys())).wordsIn(text);
    for (const [word, files] of this.byWord) {
      if (mentioned.has(word)) files.add(file);
      else files.delete(file);
    }
  }
}

export interface AffectedInput {
  /** Files added, modified or removed. */
  changed: ReadonlySet<string>;
  removed: ReadonlySet<string>;
  /** Names whose declarations differ in the changed files. */
  names: ReadonlySet<string>;
  /** Import stems of added files. */
  stems: ReadonlySet<string>;
  /** Files whose export statements changed, with the barrels that pass them on: their importers resolve names through them. */
  exportsChanged: ReadonlySet<string>;
  /** The files now in the tree, with their text. */
  texts: ReadonlyMap<string, string>;
  /** A file's edges as last resolved. */
  edgesOf: (file: string) => readonly Edge[];
  /** Answers which files mention a word, instead of reading every text for it. */
  mentions?: MentionIndex;
}

/** Whether an id names a declaration whose digest moved: in a changed file, under a changed name. */
export function isChangedDeclaration(id: string, changed: ReadonlySet<string>, names: ReadonlySet<string>): boolean {
  return changed.has(fileOfId(id)) && names.has(declaredNameOf(id) ?? '');
}

/**
 * The unchanged files to resolve again: those with an edge into a changed declaration or a
 * removed file (the target may be renamed, moved or gone, even where the text does not spell its
 * name, as with a constructor), and those naming a changed name or an added file's stem (a use
 * that now resolves elsewhere, or at all).
 */
export function filesAffectedBy(input: AffectedInput): Set<string> {
  const affected = new Set<string>();
  const words = [...input.names, ...input.stems];
  const mentioning = words.length > 0 ? (input.mentions ?? new MentionIndex()).filesMentioningAny(words, input.texts) : new Set<string>();
  const reachable = new Set([...input.changed, ...input.exportsChanged]);
  for (const file of input.texts.keys()) {
    if (input.changed.has(file)) continue;
    const byTarget = edgesByTargetFile(input.edgesOf(file));
    let reachesChange = false;
    // By the file's own targets, few, rather than by every changed file, as many as were added.
    for (const [target, edges] of byTarget) {
      if (!reachable.has(target)) continue;
      reachesChange = edges.some((edge) =>
        (edge.kind === 'imports' && input.exportsChanged.has(edge.to)) ||
        (input.changed.has(target) && (input.removed.has(target) || input.names.has(declaredNameOf(edge.to) ?? ''))));
      if (reachesChange) break;
    }
    if (reachesChange || mentioning.has(file)) affected.add(file);
  }
  return affected;
}

const byTargetFile = new WeakMap<readonly Edge[], ReadonlyMap<string, readonly Edge[]>>();

/** A file's edges grouped by the file they end in: kept while the list lives, so a sync reads only the edges into changed files. */
function edgesByTargetFile(edges: readonly Edge[]): ReadonlyMap<string, readonly Edge[]> {
  let grouped = byTargetFile.get(edges);
  if (!grouped) {
    const groups = new Map<string, Edge[]>();
    for (const edge of edges) {
      const target = fileOfId(edge.to);
      const group = groups.get(target);
      if (group) group.push(edge);
      else groups.set(target, [edge]);
    }
    byTargetFile.set(edges, (grouped = groups));
  }
  return grouped;
}

/**
 * The changed files whose export statements differ, and every file that re-exports from one of
 * them, transitively: an import through a barrel resolves through each of these.
 */
export function exportsChangedFrom(
  changed: ReadonlySet<string>,
  digestEntry: (file: string, when: 'before' | 'after') => string | undefined,
  files: Iterable<string>,
  edgesOf: (file: string) => readonly Edge[],
): Set<string> {
  const result = new Set([...changed].filter((file) => digestEntry(file, 'before') !== digestEntry(file, 'after')));
  const candidates = [...files].filter((file) => !changed.has(file) && digestEntry(file, 'after') !== undefined);
  for (let grew = true; grew; ) {
    grew = false;
    for (const file of candidates) {
      if (result.has(file) || !edgesOf(file).some((edge) => edge.kind === 'imports' && result.has(edge.to))) continue;
      result.add(file);
      grew = true;
    }
  }
  return result;
}

/**
 * Units whose inferred type may have changed: a unit with no type annotation whose edges reach a
 * changed declaration. Their names are changed names too (a caller of `make()` in another file
 * resolves `make().send()` through make's inferred type). Followed to a fixed point by the caller.
 */
export function inferredDependents(
  units: Iterable<{ id: string; inferred: boolean; edges: readonly Edge[] }>,
  isChangedTarget: (id: string) => boolean,
): Array<{ id: string; name: string }> {
  const found: Array<{ id: string; name: string }> = [];
  for (const unit of units) {
    if (!unit.inferred || isChangedTarget(unit.id)) continue;
    if (!unit.edges.some((edge) => edge.to !== unit.id && isChangedTarget(edge.to))) continue;
    const name = declaredNameOf(unit.id);
    if (name) found.push({ id: unit.id, name });
  }
  return found;
}

/** The extends and implements edges gained or lost between two sets of them. */
function movedHeritage(before: readonly Edge[], after: readonly Edge[]): Edge[] {
  const key = (edge: Edge): string => `${edge.kind}\u0000${edge.from}\u0000${edge.to}`;
  const beforeKeys = new Set(before.map(key));
  const afterKeys = new Set(after.map(key));
  return [...before.filter((edge) => !afterKeys.has(key(edge))), ...after.filter((edge) => !beforeKeys.has(key(edge)))];
}

/**
 * The types whose place in the hierarchy moved between two sets of heritage edges: for each
 * extends or implements edge gained or lost, the subtype with its own subtypes and the base with
 * its ancestors (in either set). A call into one of them, or into a member of one, may dispatch
 * elsewhere now, though no name the caller spells changed (an import of the base that broke).
 */
export function hierarchyMoved(before: readonly Edge[], after: readonly Edge[]): Set<string> {
  const moved = movedHeritage(before, after);
  const affected = new Set<string>();
  if (moved.length === 0) return affected;
  const bases = new Map<string, string[]>();
  const subtypes = new Map<string, string[]>();
  const link = (map: Map<string, string[]>, from: string, to: string): void => {
    const list = map.get(from);
    if (list) list.push(to);
    else map.set(from, [to]);
  };
  for (const edge of [...before, ...after]) {
    link(bases, edge.from, edge.to);
    link(subtypes, edge.to, edge.from);
  }
  // Down from each subtype and up from each base, each direction with its own visited set, so one walk never cuts another short.
  const down = new Set<string>();
  const up = new Set<string>();
  const reach = (start: string, next: Map<string, string[]>, seen: Set<string>): void => {
    const queue = [start];
    while (queue.length > 0) {
      const type = queue.pop()!;
      if (seen.has(type)) continue;
      seen.add(type);
      affected.add(type);
      for (const other of next.get(type) ?? []) queue.push(other);
    }
  };
  for (const edge of moved) {
    reach(edge.from, subtypes, down);
    reach(edge.to, bases, up);
  }
  return affected;
}

/**
 * The types whose members' slots may be joined otherwise between two sets of heritage edges:
 * everything connected, up or down, to a type whose supertypes changed, when what is connected
 * holds a type with several supertypes (before or after). A property such a type inherits from
 * several of them is one slot, the smallest id among theirs (EdgeResolver.joinedSlot), so a
 * clause gained or lost anywhere in it can move the slot code typed by any of them reaches.
 */
export function slotsRejoined(before: readonly Edge[], after: readonly Edge[]): Set<string> {
  const moved = movedHeritage(before, after);
  const rejoined = new Set<string>();
  if (moved.length === 0) return rejoined;
  const neighbours = new Map<string, Set<string>>();
  const link = (from: string, to: string): void => {
    const set = neighbours.get(from);
    if (set) set.add(to);
    else neighbours.set(from, new Set([to]));
  };
  const supertypeCounts = (edges: readonly Edge[]): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const edge of edges) counts.set(edge.from, (counts.get(edge.from) ?? 0) + 1);
    return counts;
  };
  const countsBefore = supertypeCounts(before);
  const countsAfter = supertypeCounts(after);
  for (const edge of [...before, ...after]) {
    link(edge.from, edge.to);
    link(edge.to, edge.from);
  }
  const seen = new Set<string>();
  for (const edge of moved) {
    if (seen.has(edge.from)) continue;
    const component: string[] = [];
    const queue = [edge.from];
    seen.add(edge.from);
    while (queue.length > 0) {
      const type = queue.pop()!;
      component.push(type);
      for (const other of neighbours.get(type) ?? []) if (!seen.has(other)) {
        seen.add(other);
        queue.push(other);
      }
    }
    if (component.some((type) => (countsBefore.get(type) ?? 0) > 1 || (countsAfter.get(type) ?? 0) > 1)) for (const type of component) rejoined.add(type);
  }
  return rejoined;
}

/** The names declared in one of two versions of a file and not the other, moved names among them. */
export function namesCameOrWent(before: DeclarationDigest | undefined, after: DeclarationDigest | undefined): string[] {
  const names = Object.keys(before ?? {}).filter((name) => after?.[name] === undefined);
  for (const name of Object.keys(after ?? {})) if (before?.[name] === undefined) names.push(name);
  return names;
}

export interface JoinSitesInput {
  changed: ReadonlySet<string>;
  removed: ReadonlySet<string>;
  exportsChanged: ReadonlySet<string>;
  /** Every file's declaration digest, as it was and as it is. */
  digestOf: (file: string, when: 'before' | 'after') => DeclarationDigest | undefined;
  /** The files now in the tree. */
  files: Iterable<string>;
  /** The text of a file's join sites now (see joinSites), empty where it has none. */
  siteTextOf: (file: string) => string;
  /** The first and last lines of each import statement a file's join sites spell a name of (see importsOfJoinSites). */
  siteImportLinesOf: (file: string) => Array<readonly [number, number]>;
  /** A file's edges as last resolved. */
  edgesOf: (file: string) => readonly Edge[];
}

/**
 * Whether the slots joined through aliases and intersections may be joined otherwise
 * (EdgeResolver.joinedSlot): a changed file's join sites, or the imports they resolve through,
 * differ (its JOINS_ENTRY); or a file's join sites name a declaration that came or went, or
 * resolve through an import of a file whose exports changed or that is gone. A change to the
 * members of a type a site names changes those members' names, which every use of them spells.
 * Whether, not which: the digest keeps a hash of what the sites were, not the types they named.
 */
export function joinSitesMoved(input: JoinSitesInput): boolean {
  const cameOrWent = new Set<string>();
  for (const file of input.changed) {
    const before = input.digestOf(file, 'before');
    const after = input.digestOf(file, 'after');
    if (before?.[JOINS_ENTRY] !== after?.[JOINS_ENTRY]) return true;
    for (const name of namesCameOrWent(before, after)) cameOrWent.add(name);
  }
  const matcher = new WordMatcher(cameOrWent);
  const importsMoved = (edge: Edge): boolean => edge.kind === 'imports' && (input.exportsChanged.has(edge.to) || input.removed.has(edge.to));
  for (const file of input.files) {
    if (input.digestOf(file, 'after')?.[JOINS_ENTRY] === undefined) continue;
    if (cameOrWent.size > 0 && matcher.mentionedIn(input.siteTextOf(file))) return true;
    const moved = input.edgesOf(file).filter(importsMoved);
    if (moved.length === 0) continue;
    // An edge's lines are as last resolved, which only an unchanged file still has: there, only the imports the sites spell count.
    if (input.changed.has(file)) return true;
    const ranges = input.siteImportLinesOf(file);
    if (moved.some((edge) => edge.lines.some((line) => ranges.some(([first, last]) => line >= first && line <= last)))) return true;
  }
  return false;
}

/**
 * The member names declared more than once in the tree. Slots are joined only by name, so a
 * slot whose name is declared once is joined to none, before an edit or after it: a declaration
 * an edit removed, or added, changed its name, which the rules above follow already.
 */
export function namesDeclaredMoreThanOnce(indexes: Iterable<UnitIndex>): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const index of indexes) {
    for (const { name } of index.memberDeclarations) {
      if (seen.has(name)) repeated.add(name);
      else seen.add(name);
    }
  }
  return repeated;
}

/** Whether any of the slots is a property of one of the names (a module variable is joined to none). */
export function touchesPropertyNamed(slots: readonly Slot[], names: ReadonlySet<string>): boolean {
  return names.size > 0 && slots.some((slot) => slot.kind !== 'module-variable' && names.has(slot.name));
}

/** Whether an id is one of the types, or a member of one (`a.ts#Base.run` or `a.ts#static Base.count` of `a.ts#Base`). */
export function isTypeOrMember(id: string, types: ReadonlySet<string>): boolean {
  if (types.has(id)) return true;
  const hash = id.indexOf('#');
  const dot = id.lastIndexOf('.');
  if (dot <= hash) return false;
  const owner = id.startsWith(STATIC_SLOT_PREFIX, hash + 1) ? `${id.slice(0, hash + 1)}${id.slice(hash + 1 + STATIC_SLOT_PREFIX.length, dot)}` : id.slice(0, dot);
  return types.has(owner);
}
