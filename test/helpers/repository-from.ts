import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDirectory } from './paths.js';

/** A repository written into a scratch folder from a map of paths to contents (a Buffer for bytes that are not UTF-8). */
export function repositoryFrom(files: Record<string, string | Buffer>, prefix = 'handbook-repo-'): string {
  const root = scratchDirectory(prefix);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}
