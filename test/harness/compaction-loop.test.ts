import { describe, expect, it } from 'vitest';
import { EventStream, type HarnessEvent } from '../../src/harness/events.js';
import { runHarnessTask } from '../../src/harness/harness-loop.js';
import { taskSpecSchema } from '../../src/harness/task.js';
import type { ChatProvider, ChatRequest } from '../../src/llm/chat-types.js';
import { modelScriptSchema, ScriptedProvider } from '../../src/llm/scripted-provider.js';
import { openRunMemory } from '../../src/store/run-memory.js';
import { act, call, COMPLETE, copyOfTaskFixture, FIX_REDACT, FIXTURE_CHECK, READ_REDACT } from '../helpers/harness-run.js';

/** A scripted model that also keeps every request it was sent. */
function recording(turns: unknown[]): ChatProvider & { requests: ChatRequest[] } {
  const scripted = new ScriptedProvider(modelScriptSchema.parse({ turns }), 'compaction');
  const requests: ChatRequest[] = [];
  return { id: scripted.id, requests, complete: (request) => (requests.push(request), scripted.complete(request)) };
}

describe('compaction inside the loop', () => {
  it('compacts a long conversation near the window and keeps a fact from turn 2 through every compaction', async () => {
    const files = ['src/capture.js', 'package.json', 'tsconfig.json', 'test/redact.test.mjs'];
    const reads = Array.from({ length: 24 }, (_, index) => act(call('read_file', { path: files[index % files.length]!, startLine: 1 + (index % 3) })));
    const provider = recording([act(READ_REDACT), act(FIX_REDACT), act(call('run_check', { name: 'test' })), ...reads, act(COMPLETE)]);
    const events: HarnessEvent[] = [];
    const stream = new EventStream();
    stream.on((event) => events.push(event));
    const memory = openRunMemory(':memory:');
    const result = await runHarnessTask({
      runId: 'compaction-test',
      repo: copyOfTaskFixture(),
      task: taskSpecSchema.parse({
        text: 'Mask API keys in captured tool output.',
        exitCriteria: { checks: [FIXTURE_CHECK] },
        limits: { maxSteps: 40, repeatLimit: 10, stallTurns: 40, effectsWithoutProgress: 40, tokens: { contextWindow: 5_000, compactAt: 0.5, minFreeTokens: 100 }, compactKeepTurns: 2 },
      }),
      provider,
      toolMode: 'native',
      events: stream,
      memory,
      maxTokens: 200,
    });
    expect(result.state).toBe('COMPLETE');
    const compactions = events.filter((event) => event.type === 'compacted');
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    for (const compaction of compactions) expect(compaction.type === 'compacted' && compaction.tokensAfter < compaction.tokensBefore).toBe(true);
    const last = provider.requests.at(-1)!;
    const text = last.messages.map((message) => message.content).join('\n');
    // Turn 2 edited src/redact.js: after every compaction the model still sees it, and memory holds it.
    expect(last.messages.some((message) => message.content.includes('Mask API keys'))).toBe(true);
    expect(text).toContain('[Harness memory]');
    expect(text).toMatch(/src\/redact\.js/);
    expect(memory.facts().map((fact) => fact.key)).toContain('src/redact.js');
    const estimates = events.flatMap((event) => (event.type === 'model_request' ? [event.estimatedTokens] : []));
    expect(Math.max(...estimates)).toBeLessThan(5_000 - 200);
    memory.close();
  });

  it('fails a task whose next request would go over its token budget, before sending it', async () => {
    const provider = recording([act(READ_REDACT), act(READ_REDACT), act(COMPLETE)]);
    const events: HarnessEvent[] = [];
    const stream = new EventStream();
    stream.on((event) => events.push(event));
    const result = await runHarnessTask({
      runId: 'budget-test',
      repo: copyOfTaskFixture(),
      task: taskSpecSchema.parse({ text: 'Mask API keys.', exitCriteria: { checks: [FIXTURE_CHECK] }, limits: { tokens: { perTaskTokens: 1_500 } } }),
      provider,
      toolMode: 'native',
      events: stream,
    });
    expect(result.state).toBe('FAILED');
    expect(result.reason.kind).toBe('token_budget');
    expect(events.find((event) => event.type === 'budget_exceeded')).toMatchObject({ budget: 'task', limit: 1_500 });
    expect(provider.requests.length).toBeLessThan(3);
  });
});
