import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { ChatProvider } from '../llm/chat-types.js';
import { ProviderError } from '../llm/provider-error.js';
import type { ModelCache } from './model-cache.js';
import type { ProjectDescription } from './overview.js';
import type { StageDefinition } from './skeleton.js';

const PROPOSE_TOOL = 'propose_stages';
const MAX_NEW_STAGES = 6;
const OUTLINE_FOLDERS = 60;

const proposalSchema = z.object({
  refined: z.array(z.object({ id: z.string(), name: z.string().min(1).max(80), description: z.string().min(1).max(400) })).default([]),
  added: z
    .array(
      z.object({
        id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
        name: z.string().min(1).max(80),
        description: z.string().min(1).max(400),
        hints: z.array(z.string().min(1)).min(1).max(30),
      }),
    )
    .max(MAX_NEW_STAGES)
    .default([]),
});

/** Folders with their file counts and a few unit names: what the model sees of the repository's shape. */
function repositoryOutline(graph: ProgramGraph): string {
  const folders = new Map<string, { files: number; names: string[] }>();
  for (const file of graph.toData().files) {
    if (file.test) continue;
    const folder = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '.';
    const entry = folders.get(folder) ?? { files: 0, names: [] };
    entry.files += 1;
    folders.set(folder, entry);
  }
  for (const unit of graph.units) {
    if (unit.kind !== 'class' && !(unit.kind === 'function' && unit.exported)) continue;
    const folder = unit.file.includes('/') ? unit.file.slice(0, unit.file.lastIndexOf('/')) : '.';
    const entry = folders.get(folder);
    if (entry && entry.names.length < 6) entry.names.push(unit.symbol);
  }
  return [...folders]
    .sort((a, b) => b[1].files - a[1].files || (a[0] < b[0] ? -1 : 1))
    .slice(0, OUTLINE_FOLDERS)
    .map(([folder, entry]) => `${folder} (${entry.files} files): ${entry.names.join(', ')}`)
    .join('\n');
}

export interface StageProposal {
  skeleton: StageDefinition[];
  modelCalls: number;
  rejected: string[];
}

/**
 * The model proposes this harness's stages: it may rename and redescribe the skeleton's stages
 * for this code base and add up to a few of its own, but not drop any, so every offline
 * assignment stays valid. An answer that does not validate leaves the skeleton as it was.
 */
export async function proposeStages(
  graph: ProgramGraph,
  skeleton: readonly StageDefinition[],
  project: ProjectDescription,
  provider: ChatProvider,
  cache: ModelCache,
): Promise<StageProposal> {
  const outline = repositoryOutline(graph);
  const key = `propose\u0000${provider.id}\u0000${createHash('sha256').update(JSON.stringify(skeleton)).update(outline).update(project.title).digest('hex').slice(0, 16)}`;
  const rejected: string[] = [];
  let modelCalls = 0;
  let answer: unknown;
  const cached = cache.get(key);
  if (cached) answer = JSON.parse(cached) as unknown;
  else {
    modelCalls = 1;
    try {
      const response = await provider.complete({
        system: 'You organize an AI-agent harness into execution stages for a handbook its maintainers navigate. Keep every given stage; adapt names and descriptions to this code base, and add a stage only for a part of its execution the given stages do not cover.',
        messages: [
          {
            role: 'user',
            content: `Harness: ${project.title}. ${project.description}\n\nGiven stages:\n${skeleton.map((stage) => `- ${stage.id}: ${stage.name}. ${stage.description}.`).join('\n')}\n\nFolders:\n${outline}\n\nCall ${PROPOSE_TOOL}: "refined" for given stages you rename or redescribe (by id), "added" for at most ${MAX_NEW_STAGES} new stages with hint words.`,
          },
        ],
        tools: [
          {
            name: PROPOSE_TOOL,
            description: 'Record the stages of this harness.',
            inputSchema: {
              type: 'object',
              properties: {
                refined: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } }, required: ['id', 'name', 'description'] } },
                added: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, hints: { type: 'array', items: { type: 'string' } } }, required: ['id', 'name', 'description', 'hints'] } },
              },
              required: ['refined', 'added'],
            },
          },
        ],
        toolChoice: { name: PROPOSE_TOOL },
        maxTokens: 4096,
        temperature: 0,
      });
      if (response.stopReason === 'refusal') rejected.push('stage proposal: refusal');
      else {
        const call = response.toolCalls.find((candidate) => candidate.name === PROPOSE_TOOL);
        if (call?.argumentsError) rejected.push(`stage proposal: malformed output (${call.argumentsError})`);
        else answer = call?.arguments;
      }
    } catch (error) {
      if (!ProviderError.isInstance(error)) throw error;
      rejected.push(`stage proposal: provider error (${error.kind})`);
    }
  }
  if (answer === undefined) return { skeleton: [...skeleton], modelCalls, rejected };
  const parsed = proposalSchema.safeParse(answer);
  if (!parsed.success) {
    rejected.push(`stage proposal: malformed output (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    return { skeleton: [...skeleton], modelCalls, rejected };
  }
  if (!cached) cache.set(key, JSON.stringify(parsed.data));
  const known = new Set(skeleton.map((stage) => stage.id));
  const refinedById = new Map<string, { name: string; description: string }>();
  for (const refinement of parsed.data.refined) {
    if (known.has(refinement.id)) refinedById.set(refinement.id, refinement);
    else rejected.push(`stage proposal: unknown stage id ${refinement.id}`);
  }
  const result: StageDefinition[] = skeleton.map((stage) => ({ ...stage, ...(refinedById.get(stage.id) ?? {}) }));
  for (const stage of parsed.data.added) {
    if (known.has(stage.id)) {
      rejected.push(`stage proposal: ${stage.id} already exists`);
      continue;
    }
    known.add(stage.id);
    result.push({ id: stage.id, name: stage.name, description: stage.description, hints: stage.hints });
  }
  return { skeleton: result, modelCalls, rejected };
}
