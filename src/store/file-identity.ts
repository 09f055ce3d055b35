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
