import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { askHandbook, type AskOptions, buildHandbook, HandbookError } from '../../src/index.js';
import { anthropicError, anthropicStream, startFakeAnthropic } from '../llm/fake-anthropic-server.js';
import type { FakeServer, RecordedRequest, ScriptedReply } from '../llm/fake-http-server.js';
import { openAiError, openAiFrames, openAiToolCallStream, startFakeOpenAi } from '../llm/fake-openai-server.js';
import { copyOfFixture, FIXTURE, scratchDirectory } from '../helpers/paths.js';
import { runCliAsync } from '../helpers/cli-run.js';

/**
 * `ask --model` through the real SDKs against a local server speaking each provider's
 * protocol: the model ranks the offline router's live candidates by number; whatever goes wrong
 * on the wire or in its answer, the offline answer comes back, labeled so.
 */

const REQUEST = 'where are credentials redacted before they are written anywhere?';
const FAST = { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 3 };

/** What the fake model does with a request, given the prompt's numbered candidates (`[3] stage: …\nsrc/a.ts#b (function)`). */
type Answer = { arguments: string; cutOff?: boolean } | { failure: 'rate-limit' | 'server-error' } | { refusal: string };
type Behaviour = (candidates: Map<string, number>, index: number) => Answer;

interface Wire {
  name: 'openai' | 'anthropic';
  start: (respond: (request: RecordedRequest, index: number) => ScriptedReply) => Promise<FakeServer>;
  options: (url: string) => Pick<AskOptions, 'model' | 'provider'>;
  reply: (answer: Answer, index: number) => ScriptedReply;
  prompt: (body: unknown) => string;
}

const WIRES: Wire[] = [
  {
    name: 'openai',
    start: (respond) => startFakeOpenAi(respond),
    options: (url) => ({ model: 'openai:gpt-test', provider: { env: { OPENAI_API_KEY: 'sk-test' }, baseUrlOverride: `${url}/v1`, ...FAST } }),
    reply: (answer, index) =>
      'failure' in answer
        ? openAiError(answer.failure === 'rate-limit' ? 429 : 500, answer.failure === 'rate-limit' ? 'rate_limit_exceeded' : 'server_error', 'try later', answer.failure === 'rate-limit' ? { 'retry-after-ms': '5' } : {})
        : 'refusal' in answer
          ? { kind: 'stream', frames: openAiFrames([{ refusal: answer.refusal }], 'stop') }
          : answer.cutOff
            ? { kind: 'stream', frames: openAiFrames([{ tool_calls: [{ index: 0, id: `call_${index}`, type: 'function', function: { name: 'rank_locations', arguments: answer.arguments } }] }], 'length') }
            : openAiToolCallStream({ id: `call_${index}`, name: 'rank_locations', argumentPieces: [answer.arguments.slice(0, 7), answer.arguments.slice(7)] }),
    prompt: (body) => (body as { messages: Array<{ role: string; content: string }> }).messages.find((message) => message.role === 'user')!.content,
  },
  {
    name: 'anthropic',
    start: (respond) => startFakeAnthropic(respond),
    options: (url) => ({ model: 'anthropic:claude-test', provider: { env: { ANTHROPIC_API_KEY: 'sk-ant-test' }, baseUrlOverride: url, ...FAST } }),
    reply: (answer, index) =>
      'failure' in answer
        ? anthropicError(answer.failure === 'rate-limit' ? 429 : 500, answer.failure === 'rate-limit' ? 'rate_limit_error' : 'api_error', 'try later', answer.failure === 'rate-limit' ? { 'retry-after-ms': '5' } : {})
        : 'refusal' in answer
          ? anthropicStream([{ type: 'text', pieces: [answer.refusal] }], { stopReason: 'refusal' })
          : anthropicStream([{ type: 'tool_use', id: `toolu_${index}`, name: 'rank_locations', jsonPieces: [answer.arguments.slice(0, 7), answer.arguments.slice(7)] }], { stopReason: answer.cutOff ? 'max_tokens' : 'tool_use' }),
    prompt: (body) => {
      const content = (body as { messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }> }).messages[0]!.content;
      return typeof content === 'string' ? content : content.map((block) => block.text ?? '').join('');
    },
  },
];

function candidatesIn(prompt: string): Map<string, number> {
  return new Map([...prompt.matchAll(/^\[(\d+)\] [^\n]*\n(\S+#\S+) \(/gm)].map((match) => [match[2]!, Number(match[1])]));
}

let database: string;
beforeAll(async () => {
  database = path.join(scratchDirectory(), 'handbook.db');
  await buildHandbook(FIXTURE, { database });
}, 60_000);

async function askThrough(wire: Wire, behaviour: Behaviour, limit = 5, repo = FIXTURE, db = database) {
  const prompts: string[] = [];
  const server = await wire.start((request, index) => {
    const prompt = wire.prompt(request.body);
    prompts.push(prompt);
    return wire.reply(behaviour(candidatesIn(prompt), index), index);
  });
  const result = await askHandbook(repo, REQUEST, { database: db, limit, ...wire.options(server.url) });
  return { result, prompts, server };
}

const ranking = (picks: Array<[number | undefined, string]>) => ({ arguments: JSON.stringify({ locations: picks.map(([index, reason]) => ({ index, reason })) }) });

describe.each(WIRES)('ask with a model at the wire ($name)', (wire) => {
  it('returns the candidates the model picked, in its order, with its reasons, labeled with the model', async () => {
    const { result, prompts } = await askThrough(wire, (candidates) =>
      ranking([
        [candidates.get('src/observability/logger.ts#Logger.write'), 'writes log lines after masking them'],
        [candidates.get('src/security/secrets.ts#maskSecrets'), 'replaces credentials with a mask'],
      ]),
    );
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain(REQUEST);
    const offline = await askHandbook(FIXTURE, REQUEST, { database, limit: 30 });
    // The model saw the offline router's live candidates, all of them numbered, in the router's order.
    expect([...candidatesIn(prompts[0]!)].sort((a, b) => a[1] - b[1]).map(([id]) => id)).toEqual(offline.locations.map((location) => `${location.file}#${location.symbol}`));
    expect(result.router).toBe(wire.options('').model);
    expect(result.model).toEqual({ spec: wire.options('').model, candidates: offline.locations.length, kept: 2 });
    expect(result.locations.map((location) => location.symbol)).toEqual(['Logger.write', 'maskSecrets']);
    expect(result.locations[0]).toMatchObject({ file: 'src/observability/logger.ts', status: 'fresh', score: 1 });
    // A model reorders the live candidates; what resolve checks them by comes with each unchanged.
    for (const location of result.locations) expect(location.hash).toBe(offline.locations.find((candidate) => candidate.symbol === location.symbol)!.hash);
    expect(result.locations[1]!.why).toMatch(/replaces credentials with a mask \(router: .*maskSecrets/);
    expect(result.note).toBeUndefined();
  });

  it('waits out a rate limit and uses the answer that follows', async () => {
    const { result, server } = await askThrough(wire, (candidates, index) =>
      index === 0 ? { failure: 'rate-limit' } : ranking([[candidates.get('src/security/secrets.ts#maskSecrets'), 'masks secrets']]),
    );
    expect(server.requests).toHaveLength(2);
    expect(result.router).toBe(wire.options('').model);
    expect(result.locations.map((location) => location.symbol)).toEqual(['maskSecrets']);
  });

  it.each<[string, Behaviour, RegExp]>([
    ['server errors on every attempt', () => ({ failure: 'server-error' }), /provider error/],
    ['a refusal', () => ({ refusal: 'I cannot help with that.' }), /the model refused/],
    ['a number outside the list', (candidates) => ranking([[candidates.size + 5, 'invented']]), /candidate \d+ is not in the list of \d+/],
    ['a candidate ranked twice', () => ranking([[0, 'first'], [0, 'again']]), /candidate 0 is ranked twice/],
    ['arguments that are not JSON', () => ({ arguments: '{"locations": [{"index": 0,' }), /not valid JSON/],
    ['arguments of the wrong shape', () => ({ arguments: JSON.stringify({ picks: [1, 2] }) }), /malformed output/],
    ['an answer cut off at the token limit', () => ({ arguments: '{"locations": [{"index": 0, "rea', cutOff: true }), /cut off at the token limit/],
  ])('falls back to the offline answer on %s, and says why', async (_case, behaviour, reason) => {
    const { result } = await askThrough(wire, behaviour);
    const offline = await askHandbook(FIXTURE, REQUEST, { database, limit: 5 });
    expect(result.router).toBe('offline');
    expect(result.locations).toEqual(offline.locations);
    expect(result.frozen).toBe(offline.frozen);
    expect(result.model).toMatchObject({ spec: wire.options('').model, kept: 0, fallback: expect.stringMatching(reason) });
    expect(result.note).toMatch(/the model's ranking was not used/);
  });

  it('shows the model 30 candidates at most, keeps its picks up to the limit, and cuts a long reason instead of failing', async () => {
    const many = await askThrough(wire, (candidates) => ranking([...candidates.values()].map((index) => [index, 'relevant'])), 40);
    expect(candidatesIn(many.prompts[0]!).size).toBeLessThanOrEqual(30);
    expect(many.result.model!.candidates).toBeLessThanOrEqual(30);
    expect(many.result.locations).toHaveLength(many.result.model!.candidates);
    const few = await askThrough(wire, () => ranking([[1, 'x'.repeat(1000)], [0, 'second']]), 1);
    expect(few.result.router).toBe(wire.options('').model);
    expect(few.result.model).toMatchObject({ kept: 2 });
    expect(few.result.locations).toHaveLength(1);
    expect(few.result.locations[0]!.why).toMatch(/^\S+: x{300} \(router: /);
  });

  it('does not ask the model when every candidate\'s code is gone since the build', async () => {
    const repo = copyOfFixture();
    const db = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database: db });
    const blank = (directory: string): void => {
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const full = path.join(directory, entry.name);
        if (entry.isDirectory()) blank(full);
        else if (entry.name.endsWith('.ts')) writeFileSync(full, '');
      }
    };
    blank(path.join(repo, 'src'));
    const { result, server } = await askThrough(wire, () => ranking([[0, 'never asked']]), 5, repo, db);
    expect(server.requests).toHaveLength(0);
    expect(result.locations).toEqual([]);
    expect(result.frozen).toBeGreaterThan(0);
    expect(result.note).toMatch(/every candidate's code is gone since the build/);
  });

  it('returns nothing, and says so, when the model keeps none of the candidates', async () => {
    const { result } = await askThrough(wire, () => ranking([]));
    expect(result.locations).toEqual([]);
    expect(result.note).toMatch(/the model judged none of the \d+ candidates to implement the request/);
  });
});

describe('ask with a model: bad input', () => {
  it('reports a missing key before any work', async () => {
    const error = await askHandbook(FIXTURE, REQUEST, { database, model: 'anthropic:claude-test', provider: { env: {} } }).catch((caught: unknown) => caught);
    expect(HandbookError.isInstance(error) && error.code).toBe('INVALID_INPUT');
    expect((error as Error).message).toMatch(/ANTHROPIC_API_KEY is not set/);
  });

  const refusals: Array<[string, RegExp]> = [
    ['anthropic:claude-test', /ANTHROPIC_API_KEY is not set/],
    ['gpt4', /model spec "gpt4" names no provider/],
  ];
  it.concurrent.for(refusals)('says so in one line from the CLI, for a missing key and for a spec that names no provider: %s', async ([model, message]) => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ANTHROPIC_')));
    const result = await runCliAsync(['ask', REQUEST, '--repo', FIXTURE, '--db', database, '--model', model], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });
});
