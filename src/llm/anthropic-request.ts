import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, ChatRequest, ChatToolChoice } from './chat-types.js';

type UserContent = Anthropic.ContentBlockParam[];

/** Translates the neutral request into a streaming Messages API request. */
export function toAnthropicRequest(request: ChatRequest, model: string): Anthropic.MessageCreateParamsStreaming {
  return {
    model,
    max_tokens: request.maxTokens,
    stream: true,
    messages: toAnthropicMessages(request.messages),
    ...(request.system === undefined ? {} : { system: request.system }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            input_schema: { ...tool.inputSchema, type: 'object' as const },
          })),
        }),
    ...(request.toolChoice === undefined ? {} : { tool_choice: toAnthropicToolChoice(request.toolChoice) }),
    ...(request.responseFormat === undefined
      ? {}
      : { output_config: { format: { type: 'json_schema' as const, schema: request.responseFormat.schema } } }),
  };
}

function toAnthropicToolChoice(choice: ChatToolChoice): Anthropic.ToolChoice {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.name };
}

/**
 * Tool results travel inside a user turn, and every result for one assistant turn must be
 * in the very next user message, so consecutive tool and user messages merge into one.
 */
function toAnthropicMessages(messages: ChatMessage[]): Anthropic.MessageParam[] {
  const result: Anthropic.MessageParam[] = [];
  let pendingUser: UserContent | undefined;
  const flushUser = (): void => {
    if (pendingUser) result.push({ role: 'user', content: pendingUser });
    pendingUser = undefined;
  };

  for (const message of messages) {
    switch (message.role) {
      case 'user':
        (pendingUser ??= []).push({ type: 'text', text: message.content });
        break;
      case 'tool':
        (pendingUser ??= []).push({
          type: 'tool_result',
          tool_use_id: message.toolCallId,
          content: message.content,
          ...(message.isError ? { is_error: true } : {}),
        });
        break;
      case 'assistant': {
        flushUser();
        const content: Anthropic.ContentBlockParam[] = [];
        // The API rejects empty text blocks; an assistant turn that only calls tools has none.
        if (message.content !== '') content.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
        result.push({ role: 'assistant', content });
        break;
      }
    }
  }
  flushUser();
  return result;
}
