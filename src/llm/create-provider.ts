import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { AnthropicProvider } from './anthropic-provider.js';
import type { ChatProvider } from './chat-types.js';
import { httpUrlSchema, parseModelSpec, type ModelSpec, type OnlineModelSpec, type OnlineModelSpecText } from './model-spec.js';
import { OpenAiProvider } from './openai-provider.js';
import { optionalBaseUrl, readProviderEnvironment, requiredKey } from './provider-environment.js';
import { DEFAULT_RETRY_POLICY, withRetries } from './retrying-provider.js';
import { readModelScript, ScriptedProvider } from './scripted-provider.js';

export interface CreateProviderOptions {
  /** Where keys and base URLs come from; read when the provider is created, never at import. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Sends every request here instead of the provider's own URL (a proxy, a recording server, a test). */
  baseUrlOverride?: string;
  /** Attempts per complete(), the first included (default 4). */
  maxAttempts?: number;
  /** The first retry's wait, doubled after each further failure (default 1000 ms). */
  baseDelayMs?: number;
  /** The longest wait between attempts, whatever retry-after asks (default 60 s). */
  maxDelayMs?: number;
  /** How long one attempt may wait for the response to start, and then for each next stream event (default: the SDK's 10 minutes). */
  timeoutMs?: number;
}

const ANTHROPIC_URL = 'https://api.anthropic.com';
const OPENAI_URL = 'https://api.openai.com/v1';
/** The SDK will not send a request without a key, and local servers ignore the one they get. */
const PLACEHOLDER_KEY = 'no-key-needed';

const optionsSchema = z.object({
  baseUrlOverride: httpUrlSchema.optional(),
  maxAttempts: z.number().int().min(1).optional(),
  baseDelayMs: z.number().min(0).optional(),
  maxDelayMs: z.number().min(0).optional(),
  timeoutMs: z.number().positive().optional(),
});

/**
 * The provider a model spec names, with retries; undefined for `offline`, which runs
 * without a model. A missing key or a bad option is an INVALID_INPUT HandbookError.
 */
export function createProvider(spec: OnlineModelSpec | OnlineModelSpecText, options?: CreateProviderOptions): ChatProvider;
export function createProvider(spec: string | ModelSpec, options?: CreateProviderOptions): ChatProvider | undefined;
export function createProvider(spec: string | ModelSpec, options: CreateProviderOptions = {}): ChatProvider | undefined {
  const parsed = typeof spec === 'string' ? parseModelSpec(spec) : spec;
  if (parsed.provider === 'offline') return undefined;
  const settings = parseOptions(options);
  const environment = readProviderEnvironment(options.env ?? process.env);

  const provider = ((): ChatProvider => {
    switch (parsed.provider) {
      case 'script':
        return new ScriptedProvider(readModelScript(parsed.path), parsed.path);
      case 'anthropic':
        return new AnthropicProvider({
          model: parsed.model,
          apiKey: requiredKey(environment, 'ANTHROPIC_API_KEY'),
          baseUrl: settings.baseUrlOverride ?? optionalBaseUrl(environment, 'ANTHROPIC_BASE_URL') ?? ANTHROPIC_URL,
          timeoutMs: settings.timeoutMs,
        });
      case 'openai':
        return new OpenAiProvider({
          dialect: 'openai',
          model: parsed.model,
          apiKey: requiredKey(environment, 'OPENAI_API_KEY'),
          baseUrl: settings.baseUrlOverride ?? optionalBaseUrl(environment, 'OPENAI_BASE_URL') ?? OPENAI_URL,
          organization: environment.OPENAI_ORG_ID,
          project: environment.OPENAI_PROJECT_ID,
          timeoutMs: settings.timeoutMs,
        });
      case 'openai-compatible':
        return new OpenAiProvider({
          dialect: 'openai-compatible',
          model: parsed.model,
          apiKey: environment.OPENAI_COMPATIBLE_API_KEY ?? PLACEHOLDER_KEY,
          baseUrl: settings.baseUrlOverride ?? parsed.baseUrl,
          timeoutMs: settings.timeoutMs,
        });
    }
  })();

  return withRetries(provider, {
    maxAttempts: settings.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts,
    baseDelayMs: settings.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: settings.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  });
}

function parseOptions(options: CreateProviderOptions): z.output<typeof optionsSchema> {
  const result = optionsSchema.safeParse(options);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new HandbookError('INVALID_INPUT', `provider option ${issue?.path.join('.') ?? ''} is not valid: ${issue?.message ?? 'invalid'}`);
}
