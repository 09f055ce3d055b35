import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { ChatProvider } from '../llm/chat-types.js';
import { ProviderError } from '../llm/provider-error.js';
import type { ModelCache } from './model-cache.js';
import type { Stage } from './model.js';
import { estimateTokens, unitCard } from './unit-card.js';

const SUMMARY_TOOL = 'write_summary';
const CARD_BUDGET = 3000;
const summarySchema = z.object({ summary: z.string().min(20).max(2000) });

/**
 * One paragraph per stage written by the model from its members' cards (the most called first,
 * within a budget). A stage whose answer is missing or malformed keeps the offline summary,
 * and the count of those is returned. Cached by the hashes of the stage's members.
 */
export async function summarizeStagesWithModel(
  graph: ProgramGraph,
  stages: Stage[],
  provider: ChatProvider,
  cache: ModelCache,
): Promise<{ fallbackStages: number; modelCalls: number; rejected: string[] }> {
  let fallbackStages = 0;
  let modelCalls = 0;
  const rejected: string[] = [];
  for (const stage of stages) {
    const members = stage.members.filter((member) => member.primary).map((member) => graph.getUnit(member.unit)!).filter(Boolean);
    if (members.length === 0) continue;
    const key = `summary\u0000${provider.id}\u0000${stage.id}\u0000${createHash('sha256').update(members.map((unit) => `${unit.id}:${unit.hash}`).join('\n')).digest('hex').slice(0, 16)}`;
    const cached = cache.get(key);
    if (cached) {
      stage.summary = cached;
      continue;
    }
    const ranked = [...members].sort((a, b) => graph.callers(b.id).length - graph.callers(a.id).length || (a.id < b.id ? -1 : 1));
    const cards: string[] = [];
    let tokens = 0;
    for (const unit of ranked) {
      const card = unitCard(graph, unit);
      if (tokens + estimateTokens(card) > CARD_BUDGET && cards.length > 0) break;
      cards.push(card);
      tokens += estimateTokens(card);
    }
    modelCalls += 1;
    try {
      const response = await provider.complete({
        system: 'You write the handbook of an AI-agent harness for its maintainers. Be concrete: name the units that matter and the state they share. One paragraph, no lists, no speculation beyond the cards.',
        messages: [{ role: 'user', content: `Stage "${stage.name}": ${stage.description}.\n${members.length} units; the most called:\n\n${cards.join('\n\n')}\n\nCall ${SUMMARY_TOOL} with a one-paragraph summary of what this stage does in this harness.` }],
        tools: [{ name: SUMMARY_TOOL, description: 'Record the summary of the stage.', inputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] } }],
        toolChoice: { name: SUMMARY_TOOL },
        maxTokens: 1024,
        temperature: 0,
      });
      const parsed = summarySchema.safeParse(response.toolCalls.find((call) => call.name === SUMMARY_TOOL)?.arguments);
      if (response.stopReason === 'refusal' || !parsed.success) {
        rejected.push(`summary of ${stage.id}: ${response.stopReason === 'refusal' ? 'refusal' : 'malformed output'}`);
        fallbackStages += 1;
        continue;
      }
      stage.summary = parsed.data.summary.replace(/\s+/g, ' ').trim();
      cache.set(key, stage.summary);
    } catch (error) {
      if (!ProviderError.isInstance(error)) throw error;
      rejected.push(`summary of ${stage.id}: provider error (${error.kind})`);
      fallbackStages += 1;
    }
  }
  return { fallbackStages, modelCalls, rejected };
}
