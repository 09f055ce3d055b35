import { z } from 'zod';
import { HandbookError } from '../errors.js';

/**
 * Which model answers, written as one string so that a flag or a setting can hold it:
 * `offline`, `anthropic:MODEL`, `openai:MODEL` or `openai-compatible:MODEL@URL`.
 */
export type ModelSpec =
  | { provider: 'offline' }
  | { provider: 'anthropic'; model: string }
  | { provider: 'openai'; model: string }
  | { provider: 'openai-compatible'; model: string; baseUrl: string }
  /** Turns replayed from a JSON file: tests, demos, reproducible runs. */
  | { provider: 'script'; path: string };

export type OnlineModelSpec = Exclude<ModelSpec, { provider: 'offline' }>;

/** A spec string that names a provider, so the type checker knows a provider comes back for it. */
export type OnlineModelSpecText = `${OnlineModelSpec['provider']}:${string}`;

const ACCEPTED_FORMS = 'use offline, anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@http://HOST:PORT/v1 or script:PATH';

/** Model names hold colons and dots (`qwen2.5-coder:7b`), never whitespace. */
const modelNameSchema = z.string().regex(/^\S+$/);

export const httpUrlSchema = z.url({ protocol: /^https?$/ });

/** Parses a model spec; anything else is an INVALID_INPUT HandbookError naming what is wrong. */
export function parseModelSpec(text: string): ModelSpec {
  const spec = text.trim();
  if (spec === 'offline') return { provider: 'offline' };

  const colon = spec.indexOf(':');
  if (colon < 0) throw invalidSpec(`model spec "${spec}" names no provider`);
  const provider = spec.slice(0, colon);
  const rest = spec.slice(colon + 1);

  switch (provider) {
    case 'anthropic':
    case 'openai':
      return { provider, model: modelNameOrThrow(rest, spec) };
    case 'script':
      if (rest.trim() === '') throw invalidSpec(`model spec "${spec}" names no script file`);
      return { provider, path: rest };
    case 'openai-compatible': {
      // A URL may itself hold an `@` (user info), a model name does not: split at the first one.
      const at = rest.indexOf('@');
      if (at < 0) throw invalidSpec(`model spec "${spec}" has no server URL after @`);
      const model = modelNameOrThrow(rest.slice(0, at), spec);
      const baseUrl = rest.slice(at + 1);
      if (!httpUrlSchema.safeParse(baseUrl).success) throw invalidSpec(`"${baseUrl}" in model spec "${spec}" is not an http or https URL`);
      return { provider, model, baseUrl };
    }
    default:
      throw invalidSpec(`unknown model provider "${provider}" in model spec "${spec}"`);
  }
}

/** The inverse of parseModelSpec; also the id of the provider a spec creates. */
export function formatModelSpec(spec: ModelSpec): string {
  switch (spec.provider) {
    case 'offline':
      return 'offline';
    case 'openai-compatible':
      return `${spec.provider}:${spec.model}@${spec.baseUrl}`;
    case 'script':
      return `${spec.provider}:${spec.path}`;
    default:
      return `${spec.provider}:${spec.model}`;
  }
}

function modelNameOrThrow(name: string, spec: string): string {
  if (name === '') throw invalidSpec(`model spec "${spec}" names no model`);
  if (!modelNameSchema.safeParse(name).success) throw invalidSpec(`model name "${name}" in model spec "${spec}" contains whitespace`);
  return name;
}

function invalidSpec(message: string): HandbookError {
  return new HandbookError('INVALID_INPUT', message, ACCEPTED_FORMS);
}
