import { describe, expect, it } from 'vitest';
import { HandbookError } from '../../src/errors.js';
import { formatModelSpec, parseModelSpec } from '../../src/llm/model-spec.js';

function failureOf(text: string): { code: string; message: string; hint: string | undefined } {
  try {
    parseModelSpec(text);
  } catch (error) {
    if (HandbookError.isInstance(error)) return { code: error.code, message: error.message, hint: error.hint };
    throw error;
  }
  throw new Error(`"${text}" parsed`);
}

describe('model specs', () => {
  it.each([
    ['offline', { provider: 'offline' }],
    ['anthropic:claude-sonnet-4-5', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['openai:gpt-5.1', { provider: 'openai', model: 'gpt-5.1' }],
    [
      'openai-compatible:qwen2.5-coder@http://127.0.0.1:11434/v1',
      { provider: 'openai-compatible', model: 'qwen2.5-coder', baseUrl: 'http://127.0.0.1:11434/v1' },
    ],
    // Ollama tags hold a colon; only the first one separates the provider.
    ['openai-compatible:qwen2.5-coder:7b@https://llm.internal/v1', { provider: 'openai-compatible', model: 'qwen2.5-coder:7b', baseUrl: 'https://llm.internal/v1' }],
    ['  anthropic:claude-x \n', { provider: 'anthropic', model: 'claude-x' }],
    ['script:fixtures/scripts/fix-redact.json', { provider: 'script', path: 'fixtures/scripts/fix-redact.json' }],
  ])('parses %j', (text, spec) => {
    expect(parseModelSpec(text)).toEqual(spec);
    expect(formatModelSpec(parseModelSpec(text))).toBe(text.trim());
  });

  it.each([
    ['', 'names no provider'],
    ['claude', 'names no provider'],
    ['gemini:pro', 'unknown model provider "gemini"'],
    ['anthropic:', 'names no model'],
    ['openai:gpt 5', 'contains whitespace'],
    ['openai-compatible:qwen', 'no server URL after @'],
    ['openai-compatible:@http://127.0.0.1:1/v1', 'names no model'],
    ['openai-compatible:qwen@ftp://host/v1', '"ftp://host/v1" in model spec'],
    ['openai-compatible:qwen@127.0.0.1:11434', 'not an http or https URL'],
    ['script:', 'names no script file'],
  ])('rejects %j as INVALID_INPUT saying what is wrong', (text, problem) => {
    const failure = failureOf(text);
    expect(failure.code).toBe('INVALID_INPUT');
    expect(failure.message).toContain(problem);
    expect(failure.message).not.toContain('\n');
    expect(failure.hint).toBe('use offline, anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@http://HOST:PORT/v1 or script:PATH');
  });
});
