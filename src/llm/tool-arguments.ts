import { ProviderError } from './provider-error.js';

/**
 * Parses the JSON a model streamed as a tool call's arguments. A call without arguments
 * streams nothing, which means `{}`; text that is not JSON is a malformed answer.
 */
export function parseToolArguments(json: string, toolName: string, providerId: string): unknown {
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch (cause) {
    throw new ProviderError('malformed', `${providerId}: the arguments of a call to tool "${toolName}" are not valid JSON`, { providerId, cause });
  }
}
