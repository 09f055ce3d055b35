import Anthropic from '@anthropic-ai/sdk';
import { collectAnthropicStream } from './anthropic-stream.js';
import { toAnthropicRequest } from './anthropic-request.js';
import type { ChatProvider, ChatRequest, ChatResponse, CompleteOptions } from './chat-types.js';
import { formatModelSpec } from './model-spec.js';
import { mapSdkError, type SdkErrorContext } from './sdk-error.js';
import { collectSdkStream } from './sdk-stream.js';

export interface AnthropicProviderOptions {
  model: string;
  apiKey: string;
  baseUrl: string;
  timeoutMs?: number | undefined;
}

/** Claude through the Messages API, one attempt per complete(): retrying is withRetries' job. */
export class AnthropicProvider implements ChatProvider {
  readonly id: string;
  readonly #model: string;
  readonly #apiKey: string;
  readonly #client: Anthropic;

  constructor(options: AnthropicProviderOptions) {
    this.id = formatModelSpec({ provider: 'anthropic', model: options.model });
    this.#model = options.model;
    this.#apiKey = options.apiKey;
    // Every setting is passed explicitly so that the SDK reads no environment variable or profile of its own.
    this.#client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      webhookKey: null,
      maxRetries: 0,
      logLevel: 'off',
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    });
  }

  async complete(request: ChatRequest, options: CompleteOptions = {}): Promise<ChatResponse> {
    const context: SdkErrorContext = { providerId: this.id, classes: Anthropic, secrets: [this.#apiKey], signal: request.signal };
    try {
      const stream = await this.#client.messages.create(toAnthropicRequest(request, this.#model), request.signal ? { signal: request.signal } : {});
      return await collectSdkStream(stream, context, this.#client.timeout, (events) =>
        collectAnthropicStream(events, { providerId: this.id, requestedModel: this.#model, onText: options.onText }),
      );
    } catch (error) {
      throw mapSdkError(error, context);
    }
  }
}
