/**
 * Parses the JSON a model streamed as a tool call's arguments. A call without arguments
 * streams nothing, which means `{}`. Text that is not JSON is the model's mistake, not the
 * provider's: the call keeps the raw text and says what is wrong, so the caller can send the
 * problem back to the model instead of failing the whole answer.
 */
export function parseToolArguments(json: string, toolName: string): { arguments: unknown; argumentsError?: string } {
  if (json.trim() === '') return { arguments: {} };
  try {
    return { arguments: JSON.parse(json) as unknown };
  } catch (error) {
    return { arguments: json, argumentsError: `the arguments of the call to ${toolName} are not valid JSON (${(error as Error).message})` };
  }
}
