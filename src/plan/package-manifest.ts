import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

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
  if (!existsSync(file)) return {};
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function hasTestScript(manifest: PackageManifest): boolean {
  return typeof manifest.scripts?.test === 'string';
}
