import { z } from 'zod';
import { type SettingsInputs, settingsInputsSchema } from '../analyze/settings-inputs.js';
import { stageDefinitionSchema, type StageDefinition } from '../organize/skeleton.js';

/** How a handbook was built, stored with it so a sync or watch repeats exactly that build. */
export interface HandbookSettings {
  include?: string[];
  maxFileBytes?: number;
  /** The stages as loaded at build time, so a sync does not depend on the skeleton file still being there. */
  skeleton: StageDefinition[];
  /** `offline` or the model spec the build used. */
  model: string;
  /** The compiler settings the analysis ran with; a sync that finds them changed analyzes everything again. */
  compiler: string;
  /** What `compiler` was read from, so `status` tells it unchanged without loading the compiler; absent from handbooks built before it was stored. */
  compilerInputs?: SettingsInputs;
  /** Build-output folders from the tsconfigs, so `status` discovers the files a build would without loading the compiler. */
  outDirectories: string[];
}

export const handbookSettingsSchema = z.object({
  include: z.array(z.string()).optional(),
  maxFileBytes: z.number().int().positive().optional(),
  skeleton: z.array(stageDefinitionSchema).min(1),
  model: z.string().min(1),
  compiler: z.string(),
  compilerInputs: settingsInputsSchema.optional(),
  outDirectories: z.array(z.string()).default([]),
});
