import { describe, expect, it } from 'vitest';
import { HandbookError } from '../../src/errors.js';
import { createProvider, type CreateProviderOptions } from '../../src/llm/create-provider.js';

function failureOf(spec: string, options: CreateProviderOptions): HandbookError {
  try {
    createProvider(spec, options);
  } catch (error) {
    if (HandbookError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('createProvider succeeded');
}

describe('createProvider', () => {
  it('returns no provider for offline, and reads nothing to decide so', () => {
    expect(createProvider('offline', { env: {} })).toBeUndefined();
    expect(createProvider({ provider: 'offline' })).toBeUndefined();
  });

  it('names each provider by its spec', () => {
    expect(createProvider('anthropic:claude-x', { env: { ANTHROPIC_API_KEY: 'k' } }).id).toBe('anthropic:claude-x');
    expect(createProvider('openai:gpt-x', { env: { OPENAI_API_KEY: 'k' } }).id).toBe('openai:gpt-x');
    expect(createProvider('openai-compatible:llama3@http://localhost:8080/v1', { env: {} }).id).toBe('openai-compatible:llama3@http://localhost:8080/v1');
  });

  it.each([
    ['anthropic:claude-x', 'ANTHROPIC_API_KEY'],
    ['openai:gpt-x', 'OPENAI_API_KEY'],
  ])('refuses %s without %s, or with it blank, and says what to do', (spec, variable) => {
    for (const env of [{}, { [variable]: '  ' }]) {
      const error = failureOf(spec, { env });
      expect(error).toMatchObject({ code: 'INVALID_INPUT', message: `${variable} is not set`, hint: 'export it, or pick another model with --model' });
    }
  });

  it('reads only the environment it is given', () => {
    const error = failureOf('anthropic:claude-x', { env: { OPENAI_API_KEY: 'sk-other' } });
    expect(error.message).toBe('ANTHROPIC_API_KEY is not set');
  });

  it('rejects a base URL variable that is not an http URL without echoing it', () => {
    const error = failureOf('openai:gpt-x', { env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'api.example.com/v1' } });
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: 'OPENAI_BASE_URL is not an http or https URL' });
  });

  it.each<[CreateProviderOptions, string]>([
    [{ maxAttempts: 0 }, 'maxAttempts'],
    [{ maxAttempts: 1.5 }, 'maxAttempts'],
    [{ baseDelayMs: -1 }, 'baseDelayMs'],
    [{ timeoutMs: 0 }, 'timeoutMs'],
    [{ baseUrlOverride: 'localhost:1234' }, 'baseUrlOverride'],
  ])('rejects the option %j', (options, name) => {
    const error = failureOf('openai:gpt-x', { ...options, env: { OPENAI_API_KEY: 'k' } });
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain(name);
  });

  it('rejects a bad spec before looking at keys', () => {
    expect(failureOf('anthropic', { env: {} }).message).toContain('names no provider');
  });
});
