import OpenAI from 'openai';
import type { ChatProvider, ChatRequest, ChatResponse, CompleteOptions } from './chat-types.js';
import { formatModelSpec } from './model-spec.js';
import { collectOpenAiStream } from './openai-stream.js';
import { toOpenAiRequest, type OpenAiDialect } from './openai-request.js';
import { mapSdkError, type SdkErrorContext } from './sdk-error.js';
import { collectSdkStream } from './sdk-stream.js';

export interface OpenAiProviderOptions {
  dialect: OpenAiDialect;
  model: string;
  apiKey: string;
  /** For OpenAI itself `https://api.openai.com/v1`; for a compatible server, the URL its spec names. */
  baseUrl: string;
  /** OpenAI's organization and project headers; compatible servers take neither. */
  organization?: string | undefined;
  project?: string | undefined;
  timeoutMs?: number | undefined;
}

/** A model behind the Chat Completions API, one attempt per complete(): retrying is withRetries' job. */
export class OpenAiProvider implements ChatProvider {
  readonly id: string;
  readonly #dialect: OpenAiDialect;
  readonly #model: string;
  readonly #apiKey: string;
  readonly #client: OpenAI;

  constructor(options: OpenAiProviderOptions) {
    this.id = formatModelSpec(
      options.dialect === 'openai'
        ? { provider: 'openai', model: options.model }
        : { provider: 'openai-compatible', model: options.model, baseUrl: options.baseUrl },
    );
    this.#dialect = options.dialect;
    this.#model = options.model;
    this.#apiKey = options.apiKey;
    // Every setting is passed explicitly so that the SDK reads no environment variable of its own.
    this.#client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      organization: options.organization ?? null,
      project: options.project ?? null,
      webhookSecret: null,
      maxRetries: 0,
      logLevel: 'off',
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    });
  }

  async complete(request: ChatRequest, options: CompleteOptions = {}): Promise<ChatResponse> {
    const context: SdkErrorContext = { providerId: this.id, classes: OpenAI, secrets: [this.#apiKey], signal: request.signal };
    try {
      const stream = await this.#client.chat.completions.create(
        toOpenAiRequest(request, this.#model, this.#dialect),
        request.signal ? { signal: request.signal } : {},
      );
      return await collectSdkStream(stream, context, this.#client.timeout, (events) =>
        collectOpenAiStream(events, { providerId: this.id, requestedModel: this.#model, onText: options.onText }),
      );
    } catch (error) {
      throw mapSdkError(error, context);
    }
  }
}
