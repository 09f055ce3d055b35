import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MEMORY_BLOCK_OPENING, SUMMARY_NODE_OPENING, compactConversation, pinnedMemoryMessage } from '../../src/harness/compaction.js';
import type { ChatMessage } from '../../src/llm/chat-types.js';
import { assistantMessage, resultMessages, type ToolMode } from '../../src/llm/tool-modes.js';
import { openRunMemory } from '../../src/store/run-memory.js';
import { scratchDirectory } from '../helpers/paths.js';

interface Call {
  name: string;
  args: Record<string, unknown>;
  content: string;
  isError?: boolean;
}

interface Turn {
  text: string;
  calls: Call[];
  note?: string;
}

const TASK: ChatMessage = { role: 'user', content: 'Task: make the parser keep the last token.' };
const TEXT_ONLY_REPLY = 'Your turn ended without a tool call. Every turn must end in tool calls, or in task_complete, task_blocked or need_input: act now.';

const read = (file: string): Call => ({ name: 'read_file', args: { path: file }, content: `${file} lines 1-3 of 3:\n1 a\n2 b\n3 c` });
const edit = (file: string): Call => ({ name: 'edit_file', args: { path: file, old_text: 'a', new_text: 'b' }, content: `edited ${file}: lines 2-2 are now lines 2-3` });
const create = (file: string): Call => ({ name: 'create_file', args: { path: file, content: 'x\n' }, content: `created ${file} (1 lines)` });
const remove = (file: string): Call => ({ name: 'delete_file', args: { path: file }, content: `deleted ${file}` });
const failedEdit = (file: string): Call => ({ name: 'edit_file', args: { path: file, old_text: 'zz', new_text: 'b' }, content: `old_text was not found in ${file}: read the file again and quote it exactly`, isError: true });
const check = (name: string, exitCode: number, last = 'all good'): Call => ({
  name: 'run_check',
  args: { name },
  content: `check ${name} (\`npm run ${name}\`) exited ${exitCode} in 812 ms\nrunning\n${last}`,
  ...(exitCode === 0 ? {} : { isError: true }),
});

/** The messages one loop step adds, built by the same functions the loop uses. */
function stepMessages(mode: ToolMode, step: number, turn: Turn): ChatMessage[] {
  const actions = turn.calls.map((call, index) => ({ id: mode === 'native' ? `toolu_${step}_${index}` : `call_${step}_${index + 1}`, name: call.name, arguments: call.args }));
  const written =
    mode === 'native' || actions.length === 0
      ? turn.text
      : mode === 'json_text'
        ? `${turn.text}\n\`\`\`json\n${JSON.stringify(actions.map((action) => ({ tool: action.name, arguments: action.arguments })))}\n\`\`\``
        : JSON.stringify({ actions: actions.map((action) => ({ tool: action.name, arguments: JSON.stringify(action.arguments) })) });
  const response = { text: written, toolCalls: mode === 'native' ? actions : [], stopReason: 'tool_calls' as const, usage: { inputTokens: 0, outputTokens: 0 }, model: 'test' };
  const assistant = assistantMessage(mode, response, actions.length === 0 ? { kind: 'none' } : { kind: 'actions', actions });
  if (actions.length === 0) return [assistant, { role: 'user', content: TEXT_ONLY_REPLY }];
  const results = turn.calls.map((call, index) => ({ action: actions[index]!, content: call.content, isError: call.isError === true }));
  return [assistant, ...resultMessages(mode, results, turn.note)];
}

function conversation(mode: ToolMode, turns: readonly Turn[], firstStep = 1, start: ChatMessage[] = [TASK]): ChatMessage[] {
  return [...start, ...turns.flatMap((turn, index) => stepMessages(mode, firstStep + index, turn))];
}

function filler(count: number): Turn[] {
  return Array.from({ length: count }, (_, index) => ({ text: `Looking at helper ${index}.`, calls: [read(`src/helper-${index}.ts`)] }));
}

/** What both providers require of a conversation: see anthropic-request.ts and OpenAI's tool_call_id rule. */
function expectValidForBothApis(messages: readonly ChatMessage[]): void {
  expect(messages[0]?.role).toBe('user');
  expect(messages[messages.length - 1]?.role).not.toBe('assistant');
  for (const [index, message] of messages.entries()) {
    if (message.role === 'assistant') {
      expect(messages[index + 1]?.role).not.toBe('assistant');
      const ids = (message.toolCalls ?? []).map((call) => call.id);
      const answers = [];
      for (let next = index + 1; messages[next]?.role === 'tool'; next++) answers.push((messages[next] as { toolCallId: string }).toolCallId);
      expect(answers).toEqual(ids);
    }
    if (message.role === 'tool') {
      let owner = index - 1;
      while (messages[owner]?.role === 'tool') owner--;
      const holder = messages[owner];
      expect(holder?.role).toBe('assistant');
      expect(holder?.role === 'assistant' && (holder.toolCalls ?? []).some((call) => call.id === message.toolCallId)).toBe(true);
    }
  }
  // Anthropic merges consecutive user and tool messages into one user turn; what is left must alternate.
  const roles = messages.map((message) => (message.role === 'assistant' ? 'assistant' : 'user')).filter((role, index, all) => role !== all[index - 1]);
  roles.forEach((role, index) => expect(role).toBe(index % 2 === 0 ? 'user' : 'assistant'));
}

function summaryOf(messages: readonly ChatMessage[]): string {
  const node = messages.find((message) => message.role === 'user' && message.content.startsWith(SUMMARY_NODE_OPENING));
  return node?.content ?? '';
}

const STEP_TWO: Turn = {
  text: 'The parser drops the last token because the loop stops one early. I will use an inclusive bound. Should empty input give an empty list?',
  calls: [edit('src/parser.ts'), check('tests', 1, 'FAIL test/parser.test.ts > keeps the last token')],
};

describe('compactConversation', () => {
  it('keeps a fact from turn 2 through two compactions, in memory and in the pinned block, and folds the first summary into the second', () => {
    const file = path.join(scratchDirectory(), 'runs', 'r1', 'memory.db');
    const memory = openRunMemory(file);
    let messages = conversation('native', [{ text: 'Reading the parser first.', calls: [read('src/parser.ts')] }, STEP_TWO, ...filler(4)]);

    const first = compactConversation(messages, { step: 7, keepRecentTurns: 2 }, memory);
    expect(first.summarized).toBe(4);
    expect(first.steps).toEqual({ from: 1, to: 4 });
    expect(first.removedMessages).toBe(9);
    expect(first.promoted).toBeGreaterThanOrEqual(4);
    const firstNode = first.messages[2]!;
    expect(firstNode.content).toContain('- step 2: "The parser drops the last token because the loop stops one early." | edit_file(path=src/parser.ts) → edited src/parser.ts: lines 2-2 are now lines 2-3; run_check(name=tests) → error: check tests (`npm run tests`) exited 1 in 812 ms');
    expect(first.messages.slice(3)).toEqual(messages.slice(-4));
    expectValidForBothApis(first.messages);

    messages = [...first.messages, ...conversation('native', [{ text: 'Linting.', calls: [check('lint', 0)] }, ...filler(3)], 7, [])];
    const second = compactConversation(messages, { step: 11, keepRecentTurns: 2 }, memory);
    expect(second.steps).toEqual({ from: 5, to: 8 });
    expect(second.messages[0]).toBe(TASK);
    expect(second.messages).not.toContain(firstNode);
    expectValidForBothApis(second.messages);

    const node = summaryOf(second.messages);
    expect(node.startsWith(`${SUMMARY_NODE_OPENING} 1-8]`)).toBe(true);
    for (const line of firstNode.content.split('\n').slice(1)) expect(node).toContain(line);
    expect(node).toContain('- step 7: "Linting." | run_check(name=lint) → check lint (`npm run lint`) exited 0 in 812 ms');

    const pinned = second.messages[1]!.content;
    expect(pinned.startsWith(MEMORY_BLOCK_OPENING)).toBe(true);
    expect(pinned).toMatch(/^- edited src\/parser\.ts \(step 2, #\d+\)$/m);
    expect(pinned).toMatch(/^- check tests \(`npm run tests`\) exited 1 — FAIL test\/parser\.test\.ts > keeps the last token \(step 2, #\d+\)$/m);
    expect(pinned).toMatch(/^- I will use an inclusive bound\. \(step 2, #\d+\)$/m);
    expect(pinned).toMatch(/^- Should empty input give an empty list\? \(step 2, #\d+\)$/m);

    memory.close();
    const reopened = openRunMemory(file);
    const stepTwo = reopened.facts().filter((fact) => fact.step === 2).map((fact) => [fact.kind, fact.key]);
    expect(stepTwo).toEqual([
      ['file_changed', 'src/parser.ts'],
      ['check_result', 'tests'],
      ['decision', 'the parser drops the last token because the loop stops one early.'],
      ['decision', 'i will use an inclusive bound.'],
      ['open_question', 'should empty input give an empty list?'],
    ]);
    expect(reopened.facts('summary').map((fact) => fact.key)).toEqual(['steps 1-4', 'steps 5-8']);
    reopened.close();
  });

  it('leaves a conversation with no more turns than it keeps as it is', () => {
    const memory = openRunMemory(':memory:');
    const messages = conversation('native', filler(3));
    const result = compactConversation(messages, { step: 4 }, memory);
    expect(result).toMatchObject({ summarized: 0, promoted: 0, factIds: [], removedMessages: 0 });
    expect(result.messages).toEqual(messages);
    expect(memory.facts()).toEqual([]);
    memory.close();
  });

  it('reads the JSON modes, where results come back in one user message, and keeps their turns whole', () => {
    const memory = openRunMemory(':memory:');
    const turns: Turn[] = [
      { text: 'Creating the fixture.', calls: [create('test/fixture.txt'), remove('old/fixture.txt'), failedEdit('src/gone.ts')] },
      { text: '', calls: [] },
      { text: 'Check it.', calls: [check('tests', 0)], note: 'The harness stopped a loop: read_file src/a.ts was called 3 times. Do something different from what you have been doing.' },
      ...filler(2),
    ];
    const messages = conversation('json_text', turns);
    const result = compactConversation(messages, { step: 6, keepRecentTurns: 2 }, memory);
    expectValidForBothApis(result.messages);
    expect(result.messages.slice(3)).toEqual(messages.slice(-4));
    expect(memory.facts().map((fact) => [fact.kind, fact.key, fact.step])).toEqual([
      ['file_changed', 'test/fixture.txt', 1],
      ['file_changed', 'old/fixture.txt', 1],
      ['check_result', 'tests', 3],
      ['decision', 'harness: the harness stopped a loop: read_file src/a.ts was called 3 times. do something different from what you have been doing.', 3],
      ['summary', 'steps 1-3', 3],
    ]);
    const node = summaryOf(result.messages);
    expect(node).toContain('- step 1: "Creating the fixture." | create_file → created test/fixture.txt (1 lines); delete_file → deleted old/fixture.txt; edit_file → error: old_text was not found');
    expect(node).toContain('- step 2: harness: Your turn ended without a tool call.\n');
    expect(node).toContain('- step 3: "Check it." | run_check → check tests (`npm run tests`) exited 0 in 812 ms | harness: The harness stopped a loop: read_file src/a.ts was called 3 times.');
    memory.close();
  });

  it('promotes a refused task_complete and the latest run of a command as check results', () => {
    const memory = openRunMemory(':memory:');
    const refused: Call = { name: 'task_complete', args: { summary: 'done' }, content: 'Not complete: the harness checked the exit criteria and these fail:\n- check "tests" exited 1\n- src/b.ts must change', isError: true };
    const command: Call = { name: 'run_command', args: { command: 'npm ci' }, content: '`npm ci` exited 1 in 30 ms\nnpm ERR! missing lockfile', isError: true };
    compactConversation(conversation('native', [{ text: '', calls: [command, refused] }, ...filler(1)]), { step: 3, keepRecentTurns: 1 }, memory);
    expect(memory.facts('check_result').map((fact) => [fact.key, fact.text])).toEqual([
      ['$ npm ci', '`npm ci` exited 1 — npm ERR! missing lockfile'],
      ['exit criteria', 'task_complete was refused; failing: check "tests" exited 1; src/b.ts must change'],
    ]);
    memory.close();
  });

  it('keeps what the harness sent with the task before the first turn, such as a resume handoff, word for word', () => {
    const memory = openRunMemory(':memory:');
    const handoff: ChatMessage = { role: 'user', content: 'The run was interrupted after step 3. Still missing:\n- check "tests" exited 1' };
    let messages = conversation('native', [STEP_TWO, ...filler(3)], 4, [TASK, handoff]);
    const first = compactConversation(messages, { step: 8, keepRecentTurns: 1 }, memory);
    expect(first.messages.slice(0, 2)).toEqual([TASK, handoff]);
    expect(first.messages[2]!.content.startsWith(MEMORY_BLOCK_OPENING)).toBe(true);
    expect(summaryOf(first.messages)).toContain('- step 4: "The parser drops');
    expect(first.removedMessages).toBe(7);
    messages = [...first.messages, ...conversation('native', filler(2), 8, [])];
    const second = compactConversation(messages, { step: 10, keepRecentTurns: 1 }, memory);
    expect(second.messages.slice(0, 2)).toEqual([TASK, handoff]);
    expect(second.messages.filter((message) => message.content.startsWith(MEMORY_BLOCK_OPENING))).toHaveLength(1);
    expect(summaryOf(second.messages).split('\n').slice(1).map((line) => line.slice(0, 9))).toEqual(['- step 4:', '- step 5:', '- step 6:', '- step 7:', '- step 8:']);
    expectValidForBothApis(second.messages);
    memory.close();
  });

  it('can compact every turn, leaving the task, the memory block and the summary', () => {
    const memory = openRunMemory(':memory:');
    const result = compactConversation(conversation('native', [STEP_TWO]), { step: 2, keepRecentTurns: 0 }, memory);
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'user', 'user']);
    expect(result.messages[2]!.content).toContain('- step 1: ');
    expectValidForBothApis(result.messages);
    memory.close();
  });

  it('condenses the oldest step lines into pointers to the summary facts that hold them', () => {
    const memory = openRunMemory(':memory:');
    let messages = conversation('native', filler(5));
    const first = compactConversation(messages, { step: 6, keepRecentTurns: 1, maxSummaryLines: 3 }, memory);
    const firstSummary = memory.facts('summary')[0]!;
    expect(firstSummary.text.split('\n')).toHaveLength(4);
    messages = [...first.messages, ...conversation('native', filler(3), 6, [])];
    const second = compactConversation(messages, { step: 9, keepRecentTurns: 1, maxSummaryLines: 3 }, memory);
    const lines = summaryOf(second.messages).split('\n').slice(1);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`- steps 1-5: condensed; their step lines are kept in long-term memory as summary facts #${firstSummary.id}, #${memory.facts('summary')[1]!.id}`);
    expect(lines.slice(1).map((line) => line.slice(0, 9))).toEqual(['- step 6:', '- step 7:']);
    expect(memory.fact(firstSummary.id)?.text).toContain('- step 1: ');
    memory.close();
  });

  it('rejects a step that the conversation cannot have reached', () => {
    const memory = openRunMemory(':memory:');
    expect(() => compactConversation(conversation('native', filler(6)), { step: 6 }, memory)).toThrow(/too early/);
    memory.close();
  });

  it('never orphans a tool result, keeps the task and the recent turns, and loses no changed file, over random runs', () => {
    const file = fc.constantFrom('src/a.ts', 'src/b.ts', 'lib/c.ts', 'test/d.test.ts');
    const callArbitrary = fc.oneof(
      file.map(read),
      file.map(edit),
      file.map(create),
      file.map(remove),
      file.map(failedEdit),
      fc.tuple(fc.constantFrom('tests', 'lint'), fc.constantFrom(0, 1, 2)).map(([name, code]) => check(name, code)),
    );
    const turnArbitrary = fc.record({
      text: fc.constantFrom('', 'Reading on.', 'I decided to split the module because it is long.', 'Is the cache shared?', '```ts\nconst x = 1;\n```'),
      calls: fc.array(callArbitrary, { maxLength: 3 }),
      note: fc.option(fc.constantFrom('The harness stopped a loop: no progress against the exit criteria for 8 turns. Do something different.', 'A stronger model (openai:gpt-5) takes over after repeated loops.'), { nil: undefined }),
    });
    const runArbitrary = fc.record({
      mode: fc.constantFrom<ToolMode>('native', 'json_text', 'json_constrained'),
      turns: fc.array(fc.tuple(turnArbitrary, fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined })), { minLength: 1, maxLength: 24 }),
      maxSummaryLines: fc.integer({ min: 1, max: 12 }),
    });
    let compactions = 0;
    fc.assert(
      fc.property(runArbitrary, ({ mode, turns, maxSummaryLines }) => {
        const memory = openRunMemory(':memory:');
        let messages: ChatMessage[] = [TASK];
        const changedSoFar: Array<{ step: number; path: string }> = [];
        let compactedThrough = 0;
        for (const [index, [turn, keep]] of turns.entries()) {
          const step = index + 1;
          messages.push(...stepMessages(mode, step, turn));
          for (const call of turn.calls) if (['edit_file', 'create_file', 'delete_file'].includes(call.name) && !call.isError) changedSoFar.push({ step, path: call.args.path as string });
          if (keep === undefined) continue;
          const before = messages;
          const result = compactConversation(before, { step: step + 1, keepRecentTurns: keep, maxSummaryLines }, memory);
          messages = result.messages;
          expect(messages[0]).toBe(TASK);
          expectValidForBothApis(messages);
          if (result.summarized === 0) continue;
          compactions++;
          compactedThrough = result.steps!.to;
          const kept = before.slice(before.length - (messages.length - 3));
          messages.slice(3).forEach((message, at) => expect(message).toBe(kept[at]));
          expect(messages.slice(3).filter((message) => message.role === 'assistant')).toHaveLength(keep);

          const pinned = messages[1]!.content;
          const current = new Set(memory.facts('file_changed').map((fact) => fact.key));
          for (const change of changedSoFar.filter((change) => change.step <= compactedThrough)) {
            expect(current.has(change.path)).toBe(true);
            expect(pinned).toContain(` ${change.path}`);
          }
          // Every compacted step is accounted for in the summary node, as its own line or inside a condensed range.
          const covered = summaryOf(messages)
            .split('\n')
            .slice(1)
            .flatMap((line) => {
              const match = /^- steps? (\d+)(?:-(\d+))?:/.exec(line)!;
              const from = Number(match[1]);
              const to = match[2] === undefined ? from : Number(match[2]);
              return Array.from({ length: to - from + 1 }, (_, offset) => from + offset);
            });
          expect(covered).toEqual(Array.from({ length: compactedThrough }, (_, offset) => offset + 1));
        }
        memory.close();
      }),
      { seed: 424242, numRuns: 120 },
    );
    // The property means something only if the runs really compacted, again and again.
    expect(compactions).toBeGreaterThan(200);
  });
});

describe('pinnedMemoryMessage', () => {
  it('says there is nothing yet in an empty memory', () => {
    const memory = openRunMemory(':memory:');
    expect(pinnedMemoryMessage(memory)).toEqual({ role: 'user', content: expect.stringMatching(/^\[Harness memory\].*\n\(none yet\)$/) });
    memory.close();
  });

  it('shows every file and check, the newest decisions and questions, and names the older ones by id', () => {
    const memory = openRunMemory(':memory:');
    memory.promote({ kind: 'file_changed', key: 'src/a.ts', text: 'created src/a.ts (3 lines)', step: 1 });
    memory.promote({ kind: 'file_changed', key: 'src/a.ts', text: 'edited src/a.ts', step: 4 });
    for (let step = 1; step <= 4; step++) memory.promote({ kind: 'decision', key: `d${step}`, text: `Decision ${step}.`, step });
    memory.promote({ kind: 'summary', key: 'steps 1-4', text: '- step 1: x', step: 4 });
    const content = pinnedMemoryMessage(memory, { maxDecisions: 2 }).content;
    expect(content.split('\n').slice(1)).toEqual(['Files changed:', '- edited src/a.ts (step 4, #2)', 'Decisions:', '- 2 earlier decisions are in long-term memory: #3, #4', '- Decision 3. (step 3, #5)', '- Decision 4. (step 4, #6)']);
    memory.close();
  });
});
