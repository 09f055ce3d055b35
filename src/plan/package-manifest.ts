import path from 'node:path';
import { z } from 'zod';
import { readJsonIfValid } from '../text/read-json-input.js';

/**
 * The parts of a package.json that choosing and judging a test command reads. Each part falls
 * back on its own, so one odd field (a script that is not a string) does not hide the others.
 */
const manifestSchema = z.object({
  scripts: z.record(z.string(), z.unknown()).optional().catch(undefined),
  dependencies: z.record(z.string(), z.unknown()).optional().catch(undefined),
  devDependencies: z.record(z.string(), z.unknown()).optional().catch(undefined),
});

export type PackageManifest = z.output<typeof manifestSchema>;

/** A folder's package.json as far as tests go; a missing or unreadable one is no manifest, not a crash. */
export function readPackageManifest(folder: string): PackageManifest {
  const file = path.join(folder, 'package.json');
  return readJsonIfValid(file, manifestSchema) ?? {};
}

export function hasTestScript(manifest: PackageManifest): boolean {
  return typeof manifest.scripts?.test === 'string';
}
