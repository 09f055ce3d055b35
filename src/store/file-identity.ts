import { statSync } from 'node:fs';

/**
 * What a path leads to, by device and inode (`dev:ino`): a file deleted and made again under the
 * same path is another file, which a reader or writer that holds the old one open must tell apart.
 * Undefined when the path leads nowhere that can be reached.
 */
export function fileIdentity(file: string): string | undefined {
  try {
    const stats = statSync(file);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

/** How the file at a path differs from the one known by `identity`: gone, another file in its place, or (undefined) the same. */
export function identityChange(file: string, identity: string | undefined): 'deleted' | 'replaced' | undefined {
  const now = fileIdentity(file);
  if (now === identity) return undefined;
  return now === undefined ? 'deleted' : 'replaced';
}
