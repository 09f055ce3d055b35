import type OpenAI from 'openai';
import type { ChatMessage, ChatRequest, ChatToolChoice } from './chat-types.js';

type ChatCompletionRequest = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/**
 * `openai` is OpenAI itself; `openai-compatible` is a local or third-party server speaking
 * the Chat Completions protocol, which may lag behind OpenAI's newer parameters.
 */
export type OpenAiDialect = 'openai' | 'openai-compatible';

/** Translates the neutral request into a streaming Chat Completions request. */
export function toOpenAiRequest(request: ChatRequest, model: string, dialect: OpenAiDialect): ChatCompletionRequest {
  return {
    model,
    stream: true,
    // Without it the stream carries no token counts.
    stream_options: { include_usage: true },
    messages: toOpenAiMessages(request),
    // OpenAI's reasoning models reject max_tokens; servers that copied the older API know only max_tokens.
    ...(dialect === 'openai' ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
          })),
        }),
    ...(request.toolChoice === undefined ? {} : { tool_choice: toOpenAiToolChoice(request.toolChoice) }),
    ...(request.responseFormat === undefined
      ? {}
      : {
          response_format: {
            type: 'json_schema' as const,
            // Strict mode is what makes the schema a guarantee rather than a suggestion.
            json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema, strict: true },
          },
        }),
  };
}

function toOpenAiToolChoice(choice: ChatToolChoice): OpenAI.Chat.Completions.ChatCompletionToolChoiceOption {
  if (choice === 'auto' || choice === 'required') return choice;
  return { type: 'function', function: { name: choice.name } };
}

function toOpenAiMessages(request: ChatRequest): WireMessage[] {
  const system: WireMessage[] = request.system === undefined ? [] : [{ role: 'system', content: request.system }];
  return [...system, ...request.messages.map(toOpenAiMessage)];
}

function toOpenAiMessage(message: ChatMessage): WireMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const toolCalls = message.toolCalls ?? [];
      return {
        role: 'assistant',
        // An assistant turn that only calls tools has null content on this API, not "".
        content: message.content === '' && toolCalls.length > 0 ? null : message.content,
        ...(toolCalls.length === 0
          ? {}
          : {
              tool_calls: toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
              })),
            }),
      };
    }
  }
}
