import { stem } from './identifier-words.js';

/**
 * Harness-domain synonyms: maintainers say "redact", code says "mask" or "sanitize"; "the chat
 * is too long" is compression. Each group is a concept; a word may sit in several. The groups
 * describe the domain, not any one repository.
 */
export const THESAURUS: Readonly<Record<string, string>> = {
  secret: 'secret secrets credential credentials password passwd apikey bearer sensitive pii',
  redact: 'redact redaction mask masking sanitize scrub elide',
  retry: 'retry backoff attempt again transient throttle quota rate limit jitter exponential',
  fallback: 'fallback degrade alternative downgrade switch',
  error: 'error fail failure exception throw catch crash recover recovery fatal abort',
  compress: 'compress compression compact compaction summarize summary truncate trim prune shrink overflow long',
  token: 'token tokenize tokenizer count budget window length size limit',
  approval: 'approve approval confirm confirmation consent permission allow deny policy trust ask yolo',
  validate: 'validate validation validator schema verify check sanitize assert invalid',
  shell: 'shell command exec execute spawn process terminal bash pty child run',
  file: 'file read write edit patch diff path directory folder glob grep replace',
  network: 'fetch http https url web request download browse search',
  subagent: 'subagent helper delegate delegation child worker spawn',
  extension: 'mcp extension plugin server external',
  model: 'model llm provider client generate generation completion chat',
  stream: 'stream streaming chunk delta sse event',
  parse: 'parse parser response output content part json extract candidate',
  tool: 'tool function call invoke invocation dispatch registry register declaration',
  prompt: 'prompt system instruction message context history memory template',
  session: 'session conversation transcript checkpoint resume restore save persist persistence store record snapshot',
  log: 'log logger logging debug trace tracing telemetry metric metrics span observe monitor',
  config: 'config configuration setting settings option env environment flag preference default load',
  ui: 'ui render display print terminal component view color theme keypress',
  loop: 'loop turn step iteration next',
  cancel: 'cancel abort interrupt signal stop timeout kill',
  sandbox: 'sandbox container isolate isolation',
  auth: 'auth oauth login account authenticate authentication',
  middleware: 'middleware layer layers hook hooks interceptor plugin addon wrapper wrap',
  profile: 'profile preset variant flavor',
  todo: 'todo todos checklist plan planning',
  instruction: 'instruction instructions guidance directive rule rules system',
  transcript: 'transcript conversation history messages thread',
  approvalmode: 'yolo auto edit mode',
  skill: 'skill skills capability capabilities',
  memory: 'memory memories remember recall knowledge notes',
  command: 'command slash shortcut keybinding',
  editor: 'editor ide diff',
  cost: 'cost usage billing quota tokens price',
  repetition: 'loops repeat repetition repeated stuck cycle',
  ignore: 'ignore gitignore exclude excluded filter',
  output: 'output result results response answer final',
  truncate: 'truncate truncation shorten cap clip limit',
  thinking: 'thinking thought thoughts reasoning',
  checkpoint: 'checkpoint checkpointing snapshot restore undo rewind',
};

const conceptsByTerm = new Map<string, string[]>();
for (const [concept, words] of Object.entries(THESAURUS)) {
  for (const word of words.split(' ')) {
    const term = stem(word);
    const concepts = conceptsByTerm.get(term) ?? [];
    if (!concepts.includes(concept)) concepts.push(concept);
    conceptsByTerm.set(term, concepts);
  }
}

/** The concepts a (stemmed) term belongs to; empty when the thesaurus does not know it. */
export function conceptsOf(term: string): readonly string[] {
  return conceptsByTerm.get(term) ?? [];
}

/** A term and every synonym the thesaurus gives it, the term itself first. */
export function expandTerm(term: string): string[] {
  const expanded = new Set([term]);
  for (const concept of conceptsOf(term)) for (const word of THESAURUS[concept]!.split(' ')) expanded.add(stem(word));
  return [...expanded];
}

/**
 * Like expandTerm, but only for a term that belongs to one concept: "limit" is both a rate limit
 * and a token limit, and expanding it would blur the two.
 */
export function expandUnambiguous(term: string): string[] {
  return conceptsOf(term).length === 1 ? expandTerm(term) : [term];
}
