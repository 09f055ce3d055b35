import type { ChatProvider } from '../llm/chat-types.js';
import type { CreateProviderOptions } from '../llm/create-provider.js';

/** The provider a model spec names (undefined for `offline`); the SDKs load on first use, not on import. */
export async function createProvider(spec: string, options?: CreateProviderOptions): Promise<ChatProvider | undefined> {
  return (await import('../llm/create-provider.js')).createProvider(spec, options);
}
