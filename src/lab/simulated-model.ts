import type { ChatProvider, ChatRequest, ChatResponse, ChatToolCall } from '../llm/chat-types.js';

/**
 * Deterministic simulated weak models for the ablation lab. Each is a small program that
 * reads what the harness last said (tool results, rejections, notes) and answers the way weak
 * models do: claims done too early, announces instead of acting, repeats itself, ignores
 * advice until a call is refused. They are labeled `simulated:` everywhere; none is a model.
 */

export type Move =
  | { say: string }
  | { refuse: string }
  | { call: string; args: Record<string, unknown> }
  | { calls: Array<{ call: string; args: Record<string, unknown> }> };

/** What the harness said since the model's last turn, as one text. */
export function feedbackOf(request: ChatRequest): string {
  const lastAssistant = request.messages.map((message) => message.role).lastIndexOf('assistant');
  return request.messages
    .slice(lastAssistant + 1)
    .map((message) => message.content)
    .join('\n');
}

/** A policy: given the turn number (from 1) and the harness's feedback, the next move. */
export type WeakPolicy = (turn: number, feedback: string, request: ChatRequest) => Move;

export class SimulatedModel implements ChatProvider {
  readonly id: string;
  private turn = 0;

  constructor(
    name: string,
    private readonly policy: WeakPolicy,
  ) {
    this.id = `simulated:${name}`;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.turn += 1;
    const move = this.policy(this.turn, feedbackOf(request), request);
    const usage = { inputTokens: 0, outputTokens: 0 };
    if ('say' in move) return { text: move.say, toolCalls: [], stopReason: 'end', usage, model: this.id };
    if ('refuse' in move) return { text: '', toolCalls: [], stopReason: 'refusal', refusal: move.refuse, usage, model: this.id };
    const calls = 'calls' in move ? move.calls : [move];
    const toolCalls: ChatToolCall[] = calls.map((call, index) => ({ id: `sim_${this.turn}_${index + 1}`, name: call.call, arguments: call.args }));
    return { text: '', toolCalls, stopReason: 'tool_calls', usage, model: this.id };
  }
}

/**
 * The steps that do the fixture's task right: read the masking function, fix it, run the
 * check, declare completion. Weak models fall back to it once the harness has made them.
 */
export class FixRoutine {
  private next = 0;

  constructor(private readonly steps: readonly Move[]) {}

  move(): Move {
    const step = this.steps[Math.min(this.next, this.steps.length - 1)]!;
    this.next += 1;
    return step;
  }

  get started(): boolean {
    return this.next > 0;
  }
}
