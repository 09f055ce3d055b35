import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { openHandbook, type Handbook } from '../../src/api/open-handbook.js';
import { resolveLocator } from '../../src/mcp/resolve-locator.js';
import { unitResponseSchema, type UnitResponse } from '../../src/serve/api-schemas.js';
import { LiveUnits } from '../../src/serve/live-units.js';
import { primaryStages } from '../../src/serve/primary-stages.js';
import { unitAnswer } from '../../src/serve/unit-answer.js';
import { editNeighbours, MASK_FILE } from '../helpers/neighbour-edits.js';
import { copyOfFixture } from '../helpers/paths.js';

const SECRETS = 'src/security/secrets.ts';
const MASK = `${SECRETS}#maskSecrets`;

/** Moves maskSecrets (lines 27-37) unchanged into a new file, two lines down, as a refactor would before the next build. */
function moveMaskSecrets(repo: string): void {
  const file = path.join(repo, SECRETS);
  const lines = readFileSync(file, 'utf8').split('\n');
  const moved = lines.splice(26, 11);
  writeFileSync(file, lines.join('\n'));
  writeFileSync(path.join(repo, MASK_FILE), ['// Moved out of secrets.ts.', '', ...moved, ''].join('\n'));
}

/** A built copy of the fixture, after `edit` changed its files: the handbook a viewer reads before its watcher syncs, or a static render of a stale one. */
async function builtThenEdited(edit: (repo: string) => void): Promise<Handbook> {
  const repo = copyOfFixture();
  await buildHandbook(repo);
  edit(repo);
  return openHandbook(repo, { withUnresolved: false });
}

async function answerOf(handbook: Handbook, id: string): Promise<UnitResponse> {
  return unitResponseSchema.parse(await unitAnswer(handbook, id, new LiveUnits(handbook), primaryStages(handbook)));
}

describe('the viewer\'s unit answer', () => {
  it('gives the hash of the live code it shows, which resolve finds fresh, when the code changed since the build', async () => {
    const handbook = await builtThenEdited((repo) => {
      const file = path.join(repo, SECRETS);
      writeFileSync(file, readFileSync(file, 'utf8').replace('let masked = text;', 'let masked = text.trim();\n  // Trimmed first.'));
    });
    const answer = await answerOf(handbook, MASK);
    expect(answer).toMatchObject({ status: 'changed', liveLine: 27, liveEndLine: 38, unit: { line: 27, endLine: 37 } });

    const live = await resolveLocator(handbook, { file: SECRETS, symbol: 'maskSecrets' });
    expect(answer.liveHash).toBe(live.hash);
    expect(answer.liveHash).not.toBe(handbook.graph.getUnitOrThrow(MASK).hash);
    expect(await resolveLocator(handbook, { file: SECRETS, symbol: 'maskSecrets', hash: answer.liveHash })).toMatchObject({ status: 'fresh', line: 27, endLine: 38 });
  });

  it('gives no hash for a unit whose code is gone, as ask shows no location for it', async () => {
    const handbook = await builtThenEdited((repo) => rmSync(path.join(repo, SECRETS)));
    const answer = await answerOf(handbook, MASK);
    expect(answer).toMatchObject({ status: 'frozen', reason: `${SECRETS} no longer exists`, liveLine: 27, liveEndLine: 37 });
    expect(answer).not.toHaveProperty('liveHash');
    // Nor the build's: a locator taken with it would name code that is not there.
    expect(JSON.stringify(answer)).not.toContain(handbook.graph.getUnitOrThrow(MASK).hash);
  });

  it('points at the place a moved unit\'s code stands now, file and lines, so the page lights the code and not where it was', async () => {
    const handbook = await builtThenEdited(moveMaskSecrets);
    const answer = await answerOf(handbook, MASK);
    expect(answer).toMatchObject({ status: 'moved', liveFile: MASK_FILE, liveSymbol: 'maskSecrets', liveLine: 3, liveEndLine: 13, unit: { file: SECRETS, line: 27, endLine: 37 } });
    // Moved code is the same code: its live hash is the build's, and resolve finds it fresh at the new place.
    expect(answer.liveHash).toBe(handbook.graph.getUnitOrThrow(MASK).hash);
    expect(await resolveLocator(handbook, { file: MASK_FILE, symbol: 'maskSecrets', hash: answer.liveHash })).toMatchObject({ status: 'fresh', line: 3, endLine: 13 });
  });

  it('keeps a unit in its own file when it stands there at other lines', async () => {
    const handbook = await builtThenEdited((repo) => {
      const file = path.join(repo, SECRETS);
      writeFileSync(file, `// One.\n// Two.\n${readFileSync(file, 'utf8')}`);
    });
    const answer = await answerOf(handbook, MASK);
    expect(answer).toMatchObject({ status: 'fresh', liveFile: SECRETS, liveSymbol: 'maskSecrets', liveLine: 29, liveEndLine: 39, liveHash: handbook.graph.getUnitOrThrow(MASK).hash });
  });

  it('places the callees it links where their code stands now: shifted lines, a new file, or gone', async () => {
    const handbook = await builtThenEdited(editNeighbours);
    const { callees } = await answerOf(handbook, 'src/tools/shell.ts#runShellTool');
    // The build's place stays the link's; the live fields say where the code is now.
    expect(callees).toContainEqual({ unit: 'src/tools/shell.ts#capture', symbol: 'capture', file: 'src/tools/shell.ts', line: 41, status: 'fresh', liveFile: 'src/tools/shell.ts', liveSymbol: 'capture', liveLine: 43, liveEndLine: 57 });
    expect(callees).toContainEqual(expect.objectContaining({ unit: MASK, status: 'moved', liveFile: MASK_FILE, liveSymbol: 'maskSecrets', liveLine: 3, liveEndLine: 13 }));
    expect(callees).toContainEqual({
      unit: 'src/tools/truncate.ts#truncateOutput', symbol: 'truncateOutput', file: 'src/tools/truncate.ts', line: 11, status: 'frozen', reason: 'truncateOutput is no longer in src/tools/truncate.ts',
    });
  });

  it('places the callers it links where their code stands now, and the call they link to only where that code is unchanged', async () => {
    const handbook = await builtThenEdited(editNeighbours);
    const { callers } = await answerOf(handbook, MASK);
    expect(callers).toContainEqual({ unit: 'src/tools/shell.ts#runShellTool', symbol: 'runShellTool', file: 'src/tools/shell.ts', line: 37, status: 'fresh', liveFile: 'src/tools/shell.ts', liveSymbol: 'runShellTool', liveLine: 29, liveEndLine: 41, liveCallLine: 39 });
    // The call is somewhere in the changed code still, but no line of the build's says where.
    expect(callers).toContainEqual(expect.objectContaining({ unit: 'src/observability/logger.ts#Logger.write', line: 43, status: 'changed', liveFile: 'src/observability/logger.ts', liveLine: 40, liveEndLine: 46 }));
    expect(callers.find((caller) => caller.unit === 'src/observability/logger.ts#Logger.write')).not.toHaveProperty('liveCallLine');
  });
});
