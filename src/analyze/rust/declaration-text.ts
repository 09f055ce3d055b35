import { clip, collapseWhitespace } from '../../text/clip.js';
import { childByField, type RustNode } from './rust-syntax.js';

const SIGNATURE_LIMIT = 240;
const VALUE_HEAD = 60;

/** Bodies that end a head: what follows them is the implementation, not the interface. */
const BODIES = new Set(['block', 'declaration_list', 'field_declaration_list', 'enum_variant_list']);

/**
 * An item's head, up to its body (a fn's block, a struct's fields, a trait's items): what a reader
 * scans to know what it takes and gives. A tuple struct keeps its fields, which are its shape.
 */
export function headSignature(node: RustNode, source: string): string {
  const body = childByField(node, 'body');
  const end = body && BODIES.has(body.type) ? body.start : node.end;
  return clip(collapseWhitespace(source.slice(node.start, end)).replace(/\s*[;{]$/, ''), SIGNATURE_LIMIT);
}

/** A const's or static's first characters: enough to tell what it holds (`static COUNTER: AtomicUsize = AtomicUsize::new(0)`). */
export function valueSignature(start: number, end: number, source: string): string {
  return clip(collapseWhitespace(source.slice(start, Math.min(end, start + VALUE_HEAD))).replace(/\s*;$/, ''), SIGNATURE_LIMIT);
}

/** A whole short declaration (a type alias, a field), its end marker dropped. */
export function wholeSignature(node: RustNode, source: string): string {
  return clip(collapseWhitespace(source.slice(node.start, node.end)).replace(/\s*[;,]$/, ''), SIGNATURE_LIMIT);
}
