import type { FunctionFact, UseFact } from './python-facts.js';
import { childByField, type TreeNode } from '../syntax/syntax-tree.js';

/**
 * What calls a def accepts: how many positional arguments, which keywords. A call resolved by a
 * method's name alone must fit it; the bound receiver (`self`, `cls`) is no argument of the call.
 */
export function parameterShape(parameters: TreeNode | undefined, source: string, bound: boolean): FunctionFact {
  const shape: FunctionFact = { minArguments: 0, maxArguments: 0, keywords: [], anyKeywords: false };
  let keywordOnly = false;
  let skipReceiver = bound;
  for (const parameter of parameters?.children ?? []) {
    if (!parameter.named || parameter.type === 'comment') continue;
    if (parameter.type === 'positional_separator') {
      // Parameters before `/` cannot be passed by keyword.
      shape.keywords = [];
      continue;
    }
    if (parameter.type === 'keyword_separator') {
      keywordOnly = true;
      continue;
    }
    if (parameter.type === 'list_splat_pattern' || (parameter.type === 'typed_parameter' && parameter.children.some((child) => child.type === 'list_splat_pattern'))) {
      keywordOnly = true;
      shape.maxArguments = -1;
      continue;
    }
    if (parameter.type === 'dictionary_splat_pattern' || (parameter.type === 'typed_parameter' && parameter.children.some((child) => child.type === 'dictionary_splat_pattern'))) {
      shape.anyKeywords = true;
      continue;
    }
    if (skipReceiver) {
      skipReceiver = false;
      continue;
    }
    const name = parameter.type === 'identifier' ? parameter : childByField(parameter, 'name') ?? parameter.children.find((child) => child.type === 'identifier');
    if (name) shape.keywords.push(source.slice(name.start, name.end));
    if (keywordOnly) continue;
    const hasDefault = parameter.type === 'default_parameter' || parameter.type === 'typed_default_parameter';
    if (shape.maxArguments >= 0) shape.maxArguments += 1;
    if (!hasDefault) shape.minArguments += 1;
  }
  return shape;
}

/** Whether a call's arguments can fill a def's parameters; a call that spreads (`*args`, `**kw`) may fit anything. */
export function fitsArguments(shape: FunctionFact, call: NonNullable<UseFact['arguments']>): boolean {
  if (call.spread) return true;
  if (shape.maxArguments >= 0 && call.positional > shape.maxArguments) return false;
  let filled = call.positional;
  for (const keyword of call.keywords) {
    if (shape.keywords.includes(keyword)) filled += 1;
    else if (!shape.anyKeywords) return false;
  }
  return filled >= shape.minArguments;
}
