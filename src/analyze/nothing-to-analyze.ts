import path from 'node:path';
import { HandbookError } from '../errors.js';
import { SKIP_REASONS, type SkipReason } from '../graph/model.js';
import { DEFAULT_MAX_FILE_BYTES, type DiscoveryResult } from './discover-files.js';
import { includeError, STORED_INCLUDE_HINT } from './include-folders.js';

/** Why files were left out, in words that read after a count ("3 generated or minified"). */
function skippedAs(reason: SkipReason, maxFileBytes: number): string {
  switch (reason) {
    case 'too-large':
      return `over the ${maxFileBytes}-byte --max-file-size`;
    case 'declaration':
      return 'declaration-only (.d.ts)';
    case 'generated':
      return 'generated or minified';
    case 'symlink-outside':
      return 'symlinked from outside the repository';
    case 'symlink-loop':
      return 'behind a broken or looping symlink';
    default:
      return reason;
  }
}

/**
 * The error for a discovery that found nothing to analyze, saying why: an include folder gone,
 * files found but every one skipped (with the counts per reason), or no sources at all.
 */
export function nothingToAnalyze(root: string, options: { include?: string[]; maxFileBytes?: number }, discovery: DiscoveryResult): HandbookError {
  // A folder the build included can be deleted since (sync, watch): that, not "no files", is what to say.
  const gone = includeError(root, options.include, STORED_INCLUDE_HINT);
  if (gone) return gone;
  const place = options.include && options.include.length > 0 ? options.include.map((folder) => path.join(root, folder)).join(', ') : root;
  const skipped = SKIP_REASONS.flatMap((reason) => (discovery.skippedFiles[reason] ? [[reason, discovery.skippedFiles[reason]] as const] : []));
  const total = skipped.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) {
    return new HandbookError(
      'NO_SOURCE_FILES',
      `no TypeScript, JavaScript, Python, Go or Rust files to analyze in ${place}`,
      'point build at a folder with .ts, .tsx, .js, .mjs, .py, .go or .rs sources (node_modules, vendor, build output, .d.ts and .pyi files are skipped)',
    );
  }
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const reasons = skipped.map(([reason, count]) => `${count} ${skippedAs(reason, maxFileBytes)}`).join(', ');
  const which = total === 1 ? 'the only source file' : `all ${total} source files`;
  return new HandbookError(
    'NO_SOURCE_FILES',
    `${which} in ${place} ${total === 1 ? 'was' : 'were'} skipped: ${reasons}`,
    discovery.skippedFiles['too-large']
      ? 'run `handbook build` with a larger --max-file-size, in bytes'
      : 'point build at a folder with .ts, .tsx, .js, .mjs, .py, .go or .rs sources that are not generated, minified or declarations only',
  );
}
