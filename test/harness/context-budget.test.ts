import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { FRAMING_TOKENS, REPLY_PRIMING_TOKENS, TokenBudget, countTextTokens, estimateTokens, tokenLimitsSchema } from '../../src/harness/context-budget.js';
import type { ChatMessage, ChatTool } from '../../src/llm/chat-types.js';

const PROSE = 'The harness estimates a request before sending it, then learns from what the provider counted. '.repeat(40);

describe('estimateTokens', () => {
  it('counts plain text as gpt-tokenizer does, plus the documented framing', () => {
    const estimate = estimateTokens({ messages: [{ role: 'user', content: PROSE }] });
    expect(estimate).toBe(countTokens(PROSE) + FRAMING_TOKENS + REPLY_PRIMING_TOKENS);
    expect(estimateTokens({ system: PROSE, messages: [] })).toBe(countTokens(PROSE) + FRAMING_TOKENS + REPLY_PRIMING_TOKENS);
  });

  it('counts tool calls, their arguments and the tool schemas', () => {
    const call: ChatMessage = { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'const a = 1;', new_text: 'const a = 2;' } }] };
    const bare: ChatMessage = { role: 'assistant', content: '' };
    expect(estimateTokens({ messages: [call] }) - estimateTokens({ messages: [bare] })).toBe(FRAMING_TOKENS + countTokens('edit_file') + countTokens(JSON.stringify((call as { toolCalls: Array<{ arguments: unknown }> }).toolCalls[0]!.arguments)));
    const tool: ChatTool = { name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };
    expect(estimateTokens({ messages: [], tools: [tool] }) - estimateTokens({ messages: [] })).toBe(
      FRAMING_TOKENS + countTokens('read_file') + countTokens('Read a file.') + countTokens(JSON.stringify(tool.inputSchema)),
    );
  });

  it('counts special-token text in tool output as text instead of throwing', () => {
    const message: ChatMessage = { role: 'tool', toolCallId: 'c1', content: 'the file holds <|endoftext|> literally' };
    expect(estimateTokens({ messages: [message] })).toBeGreaterThan(FRAMING_TOKENS + REPLY_PRIMING_TOKENS);
  });

  it('grows with every message added and every character appended', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 200 }), { minLength: 1, maxLength: 12 }), fc.string({ minLength: 1, maxLength: 50 }), (contents, extra) => {
        const messages: ChatMessage[] = contents.map((content) => ({ role: 'user', content }));
        const base = estimateTokens({ messages });
        expect(estimateTokens({ messages: [...messages, { role: 'user', content: extra }] })).toBeGreaterThan(base);
        const last = messages[messages.length - 1]!;
        expect(estimateTokens({ messages: [...messages.slice(0, -1), { role: 'user', content: last.content + extra }] })).toBeGreaterThanOrEqual(base);
      }),
      { seed: 20240611, numRuns: 200 },
    );
  });
});

describe('TokenBudget', () => {
  it('has the documented defaults: a 128k window, compaction at 72%, 4096 tokens free, no spending caps', () => {
    expect(tokenLimitsSchema.parse({})).toEqual({ contextWindow: 128_000, compactAt: 0.72, minFreeTokens: 4096 });
    expect(() => tokenLimitsSchema.parse({ compactAt: 1.5 })).toThrow();
  });

  it('asks for compaction from 72% of the window on', () => {
    const budget = new TokenBudget({ contextWindow: 100_000 });
    expect(budget.needsCompaction(71_999)).toBe(false);
    expect(budget.needsCompaction(72_000)).toBe(true);
  });

  it('asks for compaction when too little room is left free, below the threshold too', () => {
    const budget = new TokenBudget({ contextWindow: 10_000, compactAt: 1, minFreeTokens: 4096 });
    expect(budget.needsCompaction(5_904)).toBe(false);
    expect(budget.needsCompaction(5_905)).toBe(true);
  });

  it('sums the provider counts over the task and stops a request that would go past the task budget', () => {
    const budget = new TokenBudget({ perTaskTokens: 10_000 });
    budget.record({ inputTokens: 6_000, outputTokens: 1_000 });
    expect(budget.used).toEqual({ inputTokens: 6_000, outputTokens: 1_000, totalTokens: 7_000, turns: 1 });
    expect(budget.overTaskBudget()).toBe(false);
    expect(budget.overTaskBudget(3_000)).toBe(false);
    expect(budget.overTaskBudget(3_001)).toBe(true);
    budget.record({ inputTokens: 2_500, outputTokens: 600 });
    expect(budget.overTaskBudget()).toBe(true);
    expect(new TokenBudget().overTaskBudget(10_000_000)).toBe(false);
  });

  it('holds one request to the per-turn input budget', () => {
    const budget = new TokenBudget({ perTurnInputTokens: 2_000 });
    expect(budget.overTurnBudget(2_000)).toBe(false);
    expect(budget.overTurnBudget(2_001)).toBe(true);
    expect(new TokenBudget().overTurnBudget(1_000_000)).toBe(false);
  });

  it('scales estimates up when the provider counted more than estimated, never down, and at most twice', () => {
    const budget = new TokenBudget({ contextWindow: 100_000 });
    budget.record({ inputTokens: 1_250, outputTokens: 10 }, 1_000);
    expect(budget.calibrated(1_000)).toBe(1_250);
    expect(budget.needsCompaction(57_600)).toBe(true);
    budget.record({ inputTokens: 500, outputTokens: 10 }, 1_000);
    expect(budget.calibrated(1_000)).toBe(1_000);
    budget.record({ inputTokens: 9_000, outputTokens: 10 }, 1_000);
    expect(budget.calibrated(1_000)).toBe(2_000);
  });
});

describe('countTextTokens', () => {
  it('counts a long unbroken run of characters in time linear in its length', () => {
    // The tokenizer alone takes seconds on 50 kB of one character and minutes on 250 kB.
    const started = Date.now();
    const tokens = countTextTokens('x'.repeat(50_000));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(tokens).toBeGreaterThan(50_000 / 128);
    expect(countTextTokens(`a ${'=-'.repeat(20_000)} b`)).toBeGreaterThan(2);
    // A run of megabytes, as in a tool call over the write cap, is counted too, not a stack overflow.
    expect(countTextTokens(`a ${'x'.repeat(4_000_000)} b`)).toBeGreaterThan(4_000_000 / 128);
  });

  it('counts text without long runs exactly as gpt-tokenizer does', () => {
    expect(countTextTokens(PROSE)).toBe(countTokens(PROSE));
  });
});
