import { z } from 'zod';
import type { Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { ChatProvider } from '../llm/chat-types.js';
import { ProviderError } from '../llm/provider-error.js';
import { unitCard } from '../organize/unit-card.js';

const RANK_TOOL = 'rank_locations';

/** One candidate the offline router found, as the model sees it: numbered, so it can only pick, never invent. */
export interface RerankCandidate {
  unit: Unit;
  stage: string | undefined;
  why: string;
}

export type RerankOutcome =
  | { kind: 'ranked'; picks: Array<{ candidate: number; reason: string }>; model: string }
  | { kind: 'failed'; reason: string };

const MAX_REASON = 300;

const rankingSchema = z.object({
  // A long-winded reason is cut, not a reason to throw the whole ranking away.
  locations: z.array(z.object({ index: z.number().int().nonnegative(), reason: z.string().trim().min(1).transform((reason) => reason.slice(0, MAX_REASON)) })),
});

function promptOf(request: string, candidates: readonly RerankCandidate[], graph: ProgramGraph): string {
  const cards = candidates.map((candidate, index) => `[${index}] stage: ${candidate.stage ?? 'none'}; found because: ${candidate.why}\n${unitCard(graph, candidate.unit)}`);
  return [
    `A maintainer of this AI-agent harness asks: "${request}"`,
    '',
    `A static search of the code found these ${candidates.length} candidates (numbered):`,
    '',
    cards.join('\n\n'),
    '',
    `Call ${RANK_TOOL} with the candidates that implement the behaviour asked about, best first, each by its number with a short reason.`,
    'Leave out the ones that do not; keep every place that must change for a request about all of them (each caller path, each sibling implementation).',
  ].join('\n');
}

/**
 * Asks a model to rank and prune the offline router's candidates for a request. The model picks
 * by number from the list it was shown, so every location it returns is one the router found
 * and the live resolver checked; an answer that names a number outside the list, or one twice,
 * is malformed. Provider errors, refusals and malformed answers come back as a failure with its
 * reason, for the caller to fall back on the offline ranking.
 */
export async function rerankWithModel(request: string, candidates: readonly RerankCandidate[], graph: ProgramGraph, provider: ChatProvider): Promise<RerankOutcome> {
  let response;
  try {
    response = await provider.complete({
      system: 'You locate behaviour in the source code of an AI-agent harness for its maintainers. Judge only from the candidates given; never guess a location that is not listed.',
      messages: [{ role: 'user', content: promptOf(request, candidates, graph) }],
      tools: [
        {
          name: RANK_TOOL,
          description: 'Record the candidates that implement the behaviour, best first.',
          inputSchema: {
            type: 'object',
            properties: {
              locations: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { index: { type: 'integer' }, reason: { type: 'string', maxLength: MAX_REASON, description: 'One short sentence.' } },
                  required: ['index', 'reason'],
                },
              },
            },
            required: ['locations'],
          },
        },
      ],
      toolChoice: { name: RANK_TOOL },
      // Room for every candidate with a sentence each.
      maxTokens: 1024 + candidates.length * 100,
      temperature: 0,
    });
  } catch (error) {
    if (!ProviderError.isInstance(error)) throw error;
    return { kind: 'failed', reason: `provider error (${error.kind}): ${error.message}` };
  }
  if (response.stopReason === 'refusal') return { kind: 'failed', reason: `the model refused${response.refusal ? `: ${response.refusal}` : ''}` };
  if (response.stopReason === 'max_tokens') return { kind: 'failed', reason: 'the answer was cut off at the token limit' };
  const call = response.toolCalls.find((candidate) => candidate.name === RANK_TOOL);
  if (!call) return { kind: 'failed', reason: `malformed output: the model did not call ${RANK_TOOL}` };
  if (call.argumentsError) return { kind: 'failed', reason: `malformed output: ${call.argumentsError}` };
  const parsed = rankingSchema.safeParse(call.arguments);
  if (!parsed.success) return { kind: 'failed', reason: `malformed output: ${parsed.error.issues[0]?.message ?? 'unexpected arguments'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}` };
  const seen = new Set<number>();
  for (const { index } of parsed.data.locations) {
    if (index >= candidates.length) return { kind: 'failed', reason: `malformed output: candidate ${index} is not in the list of ${candidates.length}` };
    if (seen.has(index)) return { kind: 'failed', reason: `malformed output: candidate ${index} is ranked twice` };
    seen.add(index);
  }
  return {
    kind: 'ranked',
    picks: parsed.data.locations.map(({ index, reason }) => ({ candidate: index, reason: reason.replace(/\s+/g, ' ') })),
    model: response.model,
  };
}
