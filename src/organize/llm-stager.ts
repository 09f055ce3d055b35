import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { ChatProvider, ChatRequest } from '../llm/chat-types.js';
import { ProviderError } from '../llm/provider-error.js';
import type { ModelCache } from './model-cache.js';
import type { UnitAssignment } from './offline-stager.js';
import type { StageDefinition } from './skeleton.js';
import { estimateTokens, unitCard } from './unit-card.js';

export interface LlmStagerOptions {
  provider: ChatProvider;
  cache: ModelCache;
  /** Tokens of unit cards per request (default 6000). */
  batchTokens?: number;
  /** Requests per batch: the first, then re-asks for units the model skipped or answered badly (default 3). */
  attemptsPerBatch?: number;
  onProgress?: (done: number, total: number) => void;
}

/** What the llm stager did, for the summary and the tests: every problem is counted, none is hidden. */
export interface LlmStagerReport {
  assignments: UnitAssignment[];
  /** Units placed by the offline stager because the model did not answer well enough for them. */
  fallbackUnits: number;
  modelCalls: number;
  cachedUnits: number;
  /** Answers thrown away: unknown unit ids, unknown stage ids, malformed output, refusals, provider errors. */
  rejected: string[];
}

const ASSIGN_TOOL = 'assign_stages';

const assignmentsSchema = z.object({
  assignments: z.array(z.object({ unit: z.string(), stages: z.array(z.string()).min(1).max(3) })),
});

function skeletonKey(skeleton: readonly StageDefinition[]): string {
  return createHash('sha256').update(JSON.stringify(skeleton.map((stage) => [stage.id, stage.name, stage.description]))).digest('hex').slice(0, 16);
}

function systemPrompt(skeleton: readonly StageDefinition[]): string {
  const stages = skeleton.map((stage) => `- ${stage.id}: ${stage.name}. ${stage.description}.`).join('\n');
  return [
    'You organize the source code of an AI-agent harness into execution stages for a handbook that maintainers navigate.',
    'Stages:',
    stages,
    `For every unit you are given, call ${ASSIGN_TOOL} once with all of them: for each unit its id exactly as given and 1 to 3 stage ids, best first.`,
    'Use only the stage ids above. Judge by what the code does at run time, not by its file name alone.',
  ].join('\n');
}

function request(skeleton: readonly StageDefinition[], cards: string[]): ChatRequest {
  return {
    system: systemPrompt(skeleton),
    messages: [{ role: 'user', content: `Units:\n\n${cards.join('\n\n')}` }],
    tools: [
      {
        name: ASSIGN_TOOL,
        description: 'Record the stage of each unit.',
        inputSchema: {
          type: 'object',
          properties: {
            assignments: {
              type: 'array',
              items: {
                type: 'object',
                properties: { unit: { type: 'string' }, stages: { type: 'array', items: { type: 'string', enum: skeleton.map((stage) => stage.id) } } },
                required: ['unit', 'stages'],
              },
            },
          },
          required: ['assignments'],
        },
      },
    ],
    toolChoice: { name: ASSIGN_TOOL },
    maxTokens: 8192,
    temperature: 0,
  };
}

/**
 * The llm stager: the model places units into the skeleton's stages from compact unit cards,
 * in batches within a token budget. Its output is validated; unknown unit or stage ids are
 * rejected, skipped units are asked about again within a bound, and whatever is still missing
 * (or a batch the provider failed on) is placed by the offline stager and reported. Answers are
 * cached by unit content hash, so a rebuild asks only about changed units.
 */
export async function assignStagesWithModel(
  graph: ProgramGraph,
  skeleton: readonly StageDefinition[],
  offline: readonly UnitAssignment[],
  options: LlmStagerOptions,
): Promise<LlmStagerReport> {
  const units = graph.codeUnits();
  const stageIds = new Set(skeleton.map((stage) => stage.id));
  const keyPrefix = `assign\u0000${options.provider.id}\u0000${skeletonKey(skeleton)}\u0000`;
  const cacheKey = (unitId: string) => `${keyPrefix}${unitId}\u0000${graph.getUnit(unitId)!.hash}`;
  const answered = new Map<string, string[]>();
  const report: LlmStagerReport = { assignments: [], fallbackUnits: 0, modelCalls: 0, cachedUnits: 0, rejected: [] };

  const pending: string[] = [];
  for (const unit of units) {
    const cached = options.cache.get(cacheKey(unit.id));
    if (cached) {
      answered.set(unit.id, JSON.parse(cached) as string[]);
      report.cachedUnits += 1;
    } else pending.push(unit.id);
  }

  const budget = options.batchTokens ?? 6000;
  const batches: string[][] = [];
  let current: string[] = [];
  let tokens = 0;
  const cards = new Map(pending.map((id) => [id, unitCard(graph, graph.getUnit(id)!)]));
  for (const id of pending) {
    const cost = estimateTokens(cards.get(id)!);
    if (current.length > 0 && tokens + cost > budget) {
      batches.push(current);
      current = [];
      tokens = 0;
    }
    current.push(id);
    tokens += cost;
  }
  if (current.length > 0) batches.push(current);

  const attempts = options.attemptsPerBatch ?? 3;
  let done = 0;
  for (const batch of batches) {
    let missing = batch;
    for (let attempt = 0; attempt < attempts && missing.length > 0; attempt += 1) {
      report.modelCalls += 1;
      let parsed: z.infer<typeof assignmentsSchema> | undefined;
      try {
        const response = await options.provider.complete(request(skeleton, missing.map((id) => cards.get(id)!)));
        if (response.stopReason === 'refusal') {
          report.rejected.push(`refusal: ${response.refusal ?? 'the model declined'}`);
          break;
        }
        const call = response.toolCalls.find((candidate) => candidate.name === ASSIGN_TOOL);
        const result = assignmentsSchema.safeParse(call?.arguments);
        if (!result.success) report.rejected.push(`malformed output: ${call ? (call.argumentsError ?? result.error.issues[0]?.message) : `no ${ASSIGN_TOOL} call`}`);
        else parsed = result.data;
      } catch (error) {
        if (!ProviderError.isInstance(error)) throw error;
        report.rejected.push(`provider error (${error.kind}): ${error.message.split('\n')[0]}`);
        if (!error.retryable && error.kind !== 'malformed') break;
        continue;
      }
      if (!parsed) continue;
      const asked = new Set(missing);
      for (const entry of parsed.assignments) {
        if (!asked.has(entry.unit)) {
          report.rejected.push(`unknown unit id: ${entry.unit}`);
          continue;
        }
        const known = entry.stages.filter((stage) => stageIds.has(stage));
        for (const stage of entry.stages) if (!stageIds.has(stage)) report.rejected.push(`unknown stage id: ${stage} (for ${entry.unit})`);
        if (known.length === 0) continue;
        answered.set(entry.unit, [...new Set(known)]);
        options.cache.set(cacheKey(entry.unit), JSON.stringify([...new Set(known)]));
      }
      missing = missing.filter((id) => !answered.has(id));
    }
    done += batch.length;
    options.onProgress?.(done, pending.length);
  }

  const offlineOf = new Map(offline.map((assignment) => [assignment.unit, assignment]));
  for (const unit of units) {
    const stages = answered.get(unit.id);
    if (stages) {
      report.assignments.push({ unit: unit.id, stages: stages.map((stage, rank) => ({ stage, score: Math.round((1 / (rank + 1)) * 1000) / 1000 })) });
    } else {
      report.fallbackUnits += 1;
      report.assignments.push(offlineOf.get(unit.id) ?? { unit: unit.id, stages: [] });
    }
  }
  return report;
}
