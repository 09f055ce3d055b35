import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { httpUrlSchema } from './model-spec.js';

/** A variable that is set but blank counts as unset, as a shell `export KEY=` means to. */
const setting = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const providerEnvironmentSchema = z.object({
  ANTHROPIC_API_KEY: setting,
  ANTHROPIC_BASE_URL: setting,
  OPENAI_API_KEY: setting,
  OPENAI_BASE_URL: setting,
  OPENAI_ORG_ID: setting,
  OPENAI_PROJECT_ID: setting,
  OPENAI_COMPATIBLE_API_KEY: setting,
});

export type ProviderEnvironment = z.output<typeof providerEnvironmentSchema>;
type KeyVariable = 'ANTHROPIC_API_KEY' | 'OPENAI_API_KEY';
type UrlVariable = 'ANTHROPIC_BASE_URL' | 'OPENAI_BASE_URL';

/** Reads the variables the providers use, and only those, from the given environment. */
export function readProviderEnvironment(env: Readonly<Record<string, string | undefined>>): ProviderEnvironment {
  return providerEnvironmentSchema.parse(env);
}

/** The error names the variable, never its value: this is the one place a key passes through. */
export function requiredKey(environment: ProviderEnvironment, variable: KeyVariable): string {
  const key = environment[variable];
  if (key === undefined) throw new HandbookError('INVALID_INPUT', `${variable} is not set`, 'export it, or pick another model with --model');
  return key;
}

export function optionalBaseUrl(environment: ProviderEnvironment, variable: UrlVariable): string | undefined {
  const url = environment[variable];
  if (url !== undefined && !httpUrlSchema.safeParse(url).success) {
    throw new HandbookError('INVALID_INPUT', `${variable} is not an http or https URL`, `unset it, or set it to the API's root URL`);
  }
  return url;
}
