import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where maskSecrets moves to in `editNeighbours`, 24 lines up from where the build saw it. */
export const MASK_FILE = 'src/security/mask.ts';

/**
 * Edits the mini-harness fixture around maskSecrets and runShellTool, as happens between a build and
 * the next sync, so that each kind of live place shows in one answer:
 * - two lines above runShellTool (built at 27-39, calling capture at 32, maskSecrets at 37 and
 *   truncateOutput at 38; capture built at 41-55): the same code, two lines down;
 * - maskSecrets (built at src/security/secrets.ts:27-37, calling redactValue at 30 and 35) moves
 *   unchanged to MASK_FILE, at 3-13;
 * - Logger.write (built at src/observability/logger.ts:40-45, calling maskSecrets at 43) changes
 *   above its call, so no line of the build's says where the call is now;
 * - truncateOutput is deleted.
 */
export function editNeighbours(repo: string): void {
  const shell = path.join(repo, 'src/tools/shell.ts');
  writeFileSync(shell, `// Runs commands.\n\n${readFileSync(shell, 'utf8')}`);
  const secrets = path.join(repo, 'src/security/secrets.ts');
  const secretLines = readFileSync(secrets, 'utf8').split('\n');
  const moved = secretLines.splice(26, 11);
  writeFileSync(secrets, secretLines.join('\n'));
  writeFileSync(path.join(repo, MASK_FILE), ['// Moved out of secrets.ts.', '', ...moved, ''].join('\n'));
  const logger = path.join(repo, 'src/observability/logger.ts');
  writeFileSync(logger, readFileSync(logger, 'utf8').replace('    const timestamp = ', '    if (!message) return;\n    const timestamp = '));
  const truncate = path.join(repo, 'src/tools/truncate.ts');
  writeFileSync(truncate, readFileSync(truncate, 'utf8').replace(/\/\*\*\n \* Shortens[\s\S]*$/, ''));
}

/** Where webFetchSchema moves to in `editStateAccessors`, one line up from where the build saw it. */
export const SCHEMA_FILE = 'src/tools/webFetchSchema.ts';

/**
 * Edits the mini-harness fixture around the writers of ToolSchema.description (declared at
 * src/tools/validate.ts:6, inside ToolSchema at 4-9), as happens between a build and the next sync:
 * - two lines above ToolSchema: the declaration stands two lines down, at 8;
 * - two lines above shellSchema (built at src/tools/shell.ts:6-15, writing at 8): its write at 10;
 * - webFetchSchema (built at src/tools/webFetch.ts:4-12, writing at 6) moves unchanged to
 *   SCHEMA_FILE, at 3-11, writing at 5;
 * - readFileSchema is deleted from src/tools/files.ts;
 * - editFileSchema's description changes, so no line of the build's says where its write is now;
 * - EMPTY_SCHEMA (src/tools/registry.ts, writing at 19) stays as built.
 */
export function editStateAccessors(repo: string): void {
  const prepend = (file: string, lines: string): void => writeFileSync(path.join(repo, file), `${lines}${readFileSync(path.join(repo, file), 'utf8')}`);
  prepend('src/tools/validate.ts', '// Tool argument schemas.\n\n');
  prepend('src/tools/shell.ts', '// Runs commands.\n\n');
  const webFetch = path.join(repo, 'src/tools/webFetch.ts');
  const webFetchLines = readFileSync(webFetch, 'utf8').split('\n');
  const moved = webFetchLines.splice(3, 9);
  writeFileSync(webFetch, webFetchLines.join('\n'));
  writeFileSync(path.join(repo, SCHEMA_FILE), ["import type { ToolSchema } from './validate.js';", '', ...moved, ''].join('\n'));
  const files = path.join(repo, 'src/tools/files.ts');
  const edited = readFileSync(files, 'utf8')
    .replace(/export const readFileSchema[\s\S]*?\n};\n\n/, '')
    .replace('Replace one exact occurrence of oldText with newText in a file.', 'Replace the one occurrence of oldText with newText.');
  writeFileSync(files, edited);
}

/** Where countHistoryTokens moves to in `editAccessors`, 12 lines up from where the build saw it. */
export const HISTORY_TOKENS_FILE = 'src/context/history-tokens.ts';

/**
 * Edits slot accessors of the mini-harness fixture, as happens between a build and the next sync,
 * so that the register shows each kind of live place beside `editNeighbours`' shifted and changed ones:
 * - countHistoryTokens (built at src/context/tokens.ts:16-25, reading Message.content at 19; the
 *   context-management stage's entry point) moves unchanged to HISTORY_TOKENS_FILE, at 4-13;
 * - pendingSpanCount (built at src/observability/telemetry.ts:29-31, reading spans at 30) is
 *   deleted with its comment, so flushTelemetry (built at 38-48, writing spans at 42) stands 5 lines up.
 */
export function editAccessors(repo: string): void {
  const tokens = path.join(repo, 'src/context/tokens.ts');
  const tokenLines = readFileSync(tokens, 'utf8').split('\n');
  const moved = tokenLines.splice(14, 11);
  writeFileSync(tokens, tokenLines.join('\n'));
  writeFileSync(path.join(repo, HISTORY_TOKENS_FILE), ["import type { Message } from '../providers/provider.js';", '', ...moved, ''].join('\n'));
  const telemetry = path.join(repo, 'src/observability/telemetry.ts');
  const telemetryLines = readFileSync(telemetry, 'utf8').split('\n');
  telemetryLines.splice(27, 5);
  writeFileSync(telemetry, telemetryLines.join('\n'));
}
