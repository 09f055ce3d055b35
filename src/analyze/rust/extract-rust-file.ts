import type { ExtractedFile, FileInput } from '../front-end.js';
import { extractNeverThrowing, fileUnitOf, parseText } from '../syntax/read-syntax-file.js';
import { declarationDigest } from './declaration-digest.js';
import { emptyFacts, type RustFacts } from './rust-facts.js';
import { readRustDeclarations } from './rust-declaration-parts.js';
import { attributedItems, childByField, docText, isInnerDoc, nameOf, pathAttribute, type RustNode } from './rust-syntax.js';
import { importsOf } from './use-declarations.js';


/** One Rust file's units and facts; never throws (see extractNeverThrowing). */
export function extractRustFile(file: FileInput): ExtractedFile<RustFacts> {
  return extractNeverThrowing(file, extract, emptyFacts);
}

function extract(file: FileInput): ExtractedFile<RustFacts> {
  const text = file.text;
  const parsed = parseText('rust', file);
  const { root, errors, lineOf } = parsed;
  // `//!` at the top documents the module the file is.
  const fileUnit = fileUnitOf(file, docText(leadingInnerDocs(root), text));
  const extracted: ExtractedFile<RustFacts> = { units: [fileUnit], parseErrors: errors.count, digest: {}, facts: emptyFacts() };
  if (errors.first) extracted.warning = { line: lineOf(errors.first.offset), message: errors.first.message };
  if (file.test) {
    // A test file shows which tests reach a change through its `use` and `mod` declarations; its own code is not analyzed.
    readDeclarationsOnly(root, text, lineOf, extracted.facts);
    extracted.digest = declarationDigest([], extracted.facts);
    return extracted;
  }
  const { collected, facts } = readRustDeclarations(root, parsed, file, fileUnit);
  extracted.units = collected.units;
  extracted.facts = facts;
  extracted.digest = declarationDigest(collected.declarations, extracted.facts);
  return extracted;
}

function leadingInnerDocs(root: RustNode): RustNode[] {
  const docs: RustNode[] = [];
  for (const child of root.children) {
    if (isInnerDoc(child)) docs.push(child);
    else if (child.type !== 'line_comment' && child.type !== 'block_comment' && child.type !== 'inner_attribute_item') break;
  }
  return docs;
}

/**
 * A test file's `use`, `extern crate` and `mod x;` declarations: at its top, in its inline modules,
 * and at the top of its fns' bodies (a test's own `use`), in source order.
 */
function readDeclarationsOnly(root: RustNode, source: string, lineOf: (offset: number) => number, facts: RustFacts): void {
  const visit = (holder: RustNode, scope: string, inBody: boolean): void => {
    for (const item of attributedItems(holder.children, source, lineOf)) {
      const node = item.node;
      const name = nameOf(node, source);
      const body = childByField(node, 'body');
      if (node.type === 'use_declaration' || node.type === 'extern_crate_declaration') facts.imports.push(...importsOf(node, scope, source, lineOf, inBody));
      else if (node.type === 'mod_item' && name !== undefined && body) visit(body, scope === '' ? name : `${scope}.${name}`, inBody);
      else if (node.type === 'mod_item' && name !== undefined && !inBody) {
        const path = pathAttribute(item.attributes, source);
        facts.modules.push({ scope, name, line: lineOf(node.start), ...(path !== undefined ? { path } : {}) });
      } else if (node.type === 'function_item' && body) visit(body, scope, true);
    }
  };
  visit(root, '', false);
}
