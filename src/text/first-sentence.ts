/** The first sentence of a text, cut at `limit` characters: a one-line description. */
export function firstSentence(text: string, limit = 200): string {
  const match = /^(.+?[.!?])(\s|$)/.exec(text);
  const sentence = match ? match[1]! : text;
  return sentence.length > limit ? `${sentence.slice(0, limit - 1)}…` : sentence;
}
