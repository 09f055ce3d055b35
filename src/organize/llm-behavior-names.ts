import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ProgramGraph } from '../graph/program-graph.js';
import { shortName } from '../graph/unit-name.js';
import type { ChatProvider } from '../llm/chat-types.js';
import { ProviderError } from '../llm/provider-error.js';
import { firstSentence } from '../text/first-sentence.js';
import type { ModelCache } from './model-cache.js';
import type { Behavior, Stage } from './model.js';
import { estimateTokens } from './unit-card.js';

const NAMING_TOOL = 'name_behaviors';
/** Members shown a behaviour: its entry points first, then the rest in id order. */
const MEMBERS_SHOWN = 8;
/** Behaviours of one stage asked about in one request, within about this many tokens. */
const BATCH_BUDGET = 4000;

const namingSchema = z.object({
  behaviors: z.array(z.object({ id: z.string(), name: z.string().trim().min(3).max(80), summary: z.string().trim().min(10).max(300) })),
});

/** The cache key of a behaviour's name: the model, the behaviour's id and what it holds, by content. */
function cacheKey(providerId: string, behavior: Behavior, graph: ProgramGraph): string {
  const content = behavior.members.map((id) => `${id}:${graph.getUnit(id)?.hash ?? ''}`).join('\n');
  return `behavior-name\u0000${providerId}\u0000${behavior.id}\u0000${createHash('sha256').update(content).digest('hex').slice(0, 16)}`;
}

/** What the model is shown of one behaviour: its id, the offline name, its size and files, and a few members with the first sentence of their doc. */
function behaviorCard(behavior: Behavior, graph: ProgramGraph): string {
  const entered = new Set(behavior.entryPoints);
  const shown = [...behavior.entryPoints, ...behavior.members.filter((id) => !entered.has(id))].slice(0, MEMBERS_SHOWN);
  const lines = [`behaviour ${behavior.id}: offline name "${behavior.name}", ${behavior.members.length} units in ${behavior.files.slice(0, 3).join(', ')}${behavior.files.length > 3 ? ', …' : ''}`];
  for (const id of shown) {
    const unit = graph.getUnit(id);
    const doc = unit?.doc ? ` (${firstSentence(unit.doc)})` : '';
    lines.push(`  - ${shortName(id)}${entered.has(id) ? ' [entry point]' : ''}${doc}`);
  }
  if (behavior.writes.length > 0) lines.push(`  writes: ${behavior.writes.slice(0, 4).map(shortName).join(', ')}`);
  return lines.join('\n');
}

/** The behaviours to ask about, in batches within the budget. */
function batches(behaviors: readonly Behavior[], graph: ProgramGraph): Array<Array<{ behavior: Behavior; card: string }>> {
  const result: Array<Array<{ behavior: Behavior; card: string }>> = [];
  let current: Array<{ behavior: Behavior; card: string }> = [];
  let tokens = 0;
  for (const behavior of behaviors) {
    const card = behaviorCard(behavior, graph);
    if (current.length > 0 && tokens + estimateTokens(card) > BATCH_BUDGET) {
      result.push(current);
      current = [];
      tokens = 0;
    }
    current.push({ behavior, card });
    tokens += estimateTokens(card);
  }
  if (current.length > 0) result.push(current);
  return result;
}

/**
 * Names and one-line summaries of each stage's behaviours, written by the model from a few of
 * their members; ids stay the offline ones (handles that do not move with a model's wording). A
 * behaviour the model leaves out, or names malformed, keeps its offline name and summary. Cached by
 * the model, the behaviour and its members' hashes, so a rebuild asks only about behaviours whose
 * code changed.
 */
export async function nameBehaviorsWithModel(
  graph: ProgramGraph,
  stages: Stage[],
  provider: ChatProvider,
  cache: ModelCache,
): Promise<{ fallbackBehaviors: number; modelCalls: number; rejected: string[] }> {
  let fallbackBehaviors = 0;
  let modelCalls = 0;
  const rejected: string[] = [];
  for (const stage of stages) {
    const asked: Behavior[] = [];
    for (const behavior of stage.behaviors) {
      const cached = cache.get(cacheKey(provider.id, behavior, graph));
      if (cached === undefined) {
        asked.push(behavior);
        continue;
      }
      const { name, summary } = JSON.parse(cached) as { name: string; summary: string };
      behavior.name = name;
      behavior.summary = summary;
    }
    for (const batch of batches(asked, graph)) {
      modelCalls += 1;
      const byId = new Map(batch.map(({ behavior }) => [behavior.id, behavior]));
      const named = new Set<string>();
      try {
        const response = await provider.complete({
          system: 'You write the handbook of an AI-agent harness for its maintainers. Name each group of code by what it does in this harness, in a few plain words a maintainer would search for ("shell tool: spawning and timeout", "OAuth credential storage"), and summarize it in one concrete sentence. No speculation beyond what is shown.',
          messages: [
            {
              role: 'user',
              content: `Stage "${stage.name}": ${stage.description}.\nIts code falls into these behaviours:\n\n${batch.map(({ card }) => card).join('\n\n')}\n\nCall ${NAMING_TOOL} with a name and a one-sentence summary for each behaviour id above.`,
            },
          ],
          tools: [
            {
              name: NAMING_TOOL,
              description: 'Record the name and summary of each behaviour.',
              inputSchema: {
                type: 'object',
                properties: { behaviors: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, summary: { type: 'string' } }, required: ['id', 'name', 'summary'] } } },
                required: ['behaviors'],
              },
            },
          ],
          toolChoice: { name: NAMING_TOOL },
          maxTokens: 2048,
          temperature: 0,
        });
        const parsed = namingSchema.safeParse(response.toolCalls.find((call) => call.name === NAMING_TOOL)?.arguments);
        if (response.stopReason === 'refusal' || !parsed.success) {
          rejected.push(`behaviour names in ${stage.id}: ${response.stopReason === 'refusal' ? 'refusal' : 'malformed output'}`);
        } else {
          for (const answer of parsed.data.behaviors) {
            const behavior = byId.get(answer.id);
            if (!behavior || named.has(answer.id)) {
              rejected.push(`unknown behaviour id: ${answer.id}`);
              continue;
            }
            named.add(answer.id);
            behavior.name = answer.name.replace(/\s+/g, ' ');
            behavior.summary = answer.summary.replace(/\s+/g, ' ');
            cache.set(cacheKey(provider.id, behavior, graph), JSON.stringify({ name: behavior.name, summary: behavior.summary }));
          }
        }
      } catch (error) {
        if (!ProviderError.isInstance(error)) throw error;
        rejected.push(`behaviour names in ${stage.id}: provider error (${error.kind})`);
      }
      fallbackBehaviors += batch.length - named.size;
    }
    // Names are headings within the stage: a model naming two behaviours alike gets them told apart.
    const seen = new Map<string, number>();
    for (const behavior of stage.behaviors) {
      const count = (seen.get(behavior.name) ?? 0) + 1;
      seen.set(behavior.name, count);
      if (count > 1) behavior.name = `${behavior.name} (${count})`;
    }
  }
  return { fallbackBehaviors, modelCalls, rejected };
}
