import { beforeAll, describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { openHandbook, type Handbook } from '../../src/api/open-handbook.js';
import {
  overviewResponseSchema,
  registerResponseSchema,
  stageResponseSchema,
  type OverviewResponse,
  type RegisterResponse,
  type StageResponse,
} from '../../src/serve/api-schemas.js';
import { LiveUnits } from '../../src/serve/live-units.js';
import { overviewAnswer, registerAnswer, stageAnswer } from '../../src/serve/organized-answers.js';
import { editAccessors, editNeighbours, HISTORY_TOKENS_FILE, MASK_FILE } from '../helpers/neighbour-edits.js';
import { copyOfFixture } from '../helpers/paths.js';

const GONE = { status: 'frozen', reason: 'truncateOutput is no longer in src/tools/truncate.ts' };

/** What a listed unit carries beside the build's site only when its code no longer stands there. */
const LIVE_KEYS = ['status', 'reason', 'liveFile', 'liveSymbol', 'liveLine', 'liveEndLine', 'liveAccessLine'];
const hasLiveFields = (site: object): boolean => LIVE_KEYS.some((key) => key in site);

/**
 * The lists of the overview, a stage and the register, read from a handbook behind the code: the
 * viewer answering before its watcher syncs, or a static site rendered from a stale build.
 */
describe("the viewer's overview, stage and register answers", () => {
  let handbook: Handbook;
  beforeAll(async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    editNeighbours(repo);
    editAccessors(repo);
    handbook = openHandbook(repo, { withUnresolved: false });
  });

  const overview = async (): Promise<OverviewResponse> => overviewResponseSchema.parse(await overviewAnswer(handbook, new LiveUnits(handbook)));
  const stage = async (id: string): Promise<StageResponse> => stageResponseSchema.parse(await stageAnswer(handbook, id, new LiveUnits(handbook)));
  const register = async (): Promise<RegisterResponse> => registerResponseSchema.parse(await registerAnswer(handbook, new LiveUnits(handbook)));

  it("places each stage's entry points where their code stands now: shifted lines, a new file, or gone", async () => {
    const entryPoints = new Map((await overview()).stages.map((listed) => [listed.id, listed.entryPoints]));
    // The build's place stays the link's; the live fields say where the code is now.
    expect(entryPoints.get('observability')).toContainEqual({
      unit: 'src/observability/telemetry.ts#flushTelemetry', symbol: 'flushTelemetry', file: 'src/observability/telemetry.ts', line: 38,
      status: 'fresh', liveFile: 'src/observability/telemetry.ts', liveSymbol: 'flushTelemetry', liveLine: 33, liveEndLine: 43,
    });
    expect(entryPoints.get('security')).toContainEqual(expect.objectContaining({ unit: 'src/security/secrets.ts#maskSecrets', line: 27, status: 'moved', liveFile: MASK_FILE, liveSymbol: 'maskSecrets', liveLine: 3, liveEndLine: 13 }));
    expect(entryPoints.get('results')).toEqual([{ unit: 'src/tools/truncate.ts#truncateOutput', symbol: 'truncateOutput', file: 'src/tools/truncate.ts', line: 11, ...GONE }]);
  });

  it("places a stage's members and entry points where their code stands now, as the overview does", async () => {
    const tools = await stage('tool-execution');
    expect(tools.members).toContainEqual({
      unit: 'src/tools/shell.ts#runShellTool', symbol: 'runShellTool', kind: 'function', file: 'src/tools/shell.ts', line: 27, endLine: 39, primary: true,
      status: 'fresh', liveFile: 'src/tools/shell.ts', liveSymbol: 'runShellTool', liveLine: 29, liveEndLine: 41,
    });
    expect((await stage('security')).members).toContainEqual(expect.objectContaining({ unit: 'src/security/secrets.ts#maskSecrets', status: 'moved', liveFile: MASK_FILE, liveLine: 3, liveEndLine: 13 }));
    expect((await stage('observability')).members).toContainEqual(expect.objectContaining({ unit: 'src/observability/logger.ts#Logger.write', status: 'changed', liveLine: 40, liveEndLine: 46 }));
    const results = await stage('results');
    const gone = results.members.find((member) => member.unit === 'src/tools/truncate.ts#truncateOutput');
    expect(gone).toMatchObject(GONE);
    expect(gone).not.toHaveProperty('liveFile');
    expect(results.entryPoints).toEqual((await overview()).stages.find((listed) => listed.id === 'results')?.entryPoints);
  });

  it("divides a stage's primary members into its behaviours, each member listed once", async () => {
    const tools = await stage('tool-execution');
    const primary = tools.members.filter((member) => member.primary).map((member) => member.unit).sort();
    expect(tools.behaviors.length).toBeGreaterThan(0);
    expect(tools.behaviors.flatMap((behavior) => behavior.members).sort()).toEqual(primary);
    expect(tools.behaviors.map((behavior) => behavior.id)).toEqual(handbook.organized.stages.find((each) => each.id === 'tool-execution')!.behaviors.map((behavior) => behavior.id));
  });

  it("places each slot's writers and readers where their code stands now, and the access they link to only where that code is unchanged", async () => {
    const slots = new Map((await register()).slots.map((slot) => [slot.slot, slot]));
    const accessor = (slot: string, side: 'writers' | 'readers', unit: string) => slots.get(slot)?.[side].find((site) => site.unit === unit);
    // Two lines added above shellSchema, five lines taken out above flushTelemetry: each access moves with its code.
    expect(accessor('src/tools/validate.ts#ToolSchema.type', 'writers', 'src/tools/shell.ts#shellSchema')).toEqual({
      unit: 'src/tools/shell.ts#shellSchema', symbol: 'shellSchema', file: 'src/tools/shell.ts', line: 7,
      status: 'fresh', liveFile: 'src/tools/shell.ts', liveSymbol: 'shellSchema', liveLine: 8, liveEndLine: 17, liveAccessLine: 9,
    });
    expect(accessor('src/observability/telemetry.ts#spans', 'writers', 'src/observability/telemetry.ts#flushTelemetry')).toMatchObject({ line: 42, status: 'fresh', liveLine: 33, liveAccessLine: 37 });
    expect(accessor('src/providers/provider.ts#Message.content', 'readers', 'src/context/tokens.ts#countHistoryTokens')).toMatchObject({
      file: 'src/context/tokens.ts', line: 19, status: 'moved', liveFile: HISTORY_TOKENS_FILE, liveSymbol: 'countHistoryTokens', liveLine: 4, liveEndLine: 13, liveAccessLine: 7,
    });
    // Changed code still holds the read somewhere, but no line of the build's says where.
    const changed = accessor('src/observability/logger.ts#Logger.scope', 'readers', 'src/observability/logger.ts#Logger.write');
    expect(changed).toMatchObject({ line: 43, status: 'changed', liveLine: 40, liveEndLine: 46 });
    expect(changed).not.toHaveProperty('liveAccessLine');
    expect(accessor('src/observability/telemetry.ts#spans', 'readers', 'src/observability/telemetry.ts#pendingSpanCount')).toEqual({
      unit: 'src/observability/telemetry.ts#pendingSpanCount', symbol: 'pendingSpanCount', file: 'src/observability/telemetry.ts', line: 30,
      status: 'frozen', reason: 'pendingSpanCount is no longer in src/observability/telemetry.ts',
    });
  });

  it('gives live fields only to the writers and readers the edits displaced, none to the ones still where the build put them', async () => {
    const sites = (await register()).slots.flatMap((slot) => [...slot.writers, ...slot.readers]);
    // The accessors the edits shifted (below the lines added or taken out), moved, changed or deleted; no other.
    expect([...new Set(sites.filter(hasLiveFields).map((site) => site.unit))].sort()).toEqual([
      'src/context/tokens.ts#countHistoryTokens',
      'src/observability/logger.ts#Logger.write',
      'src/observability/telemetry.ts#flushTelemetry',
      'src/observability/telemetry.ts#pendingSpanCount',
      'src/tools/shell.ts#capture',
      'src/tools/shell.ts#runShellTool',
      'src/tools/shell.ts#shellSchema',
    ]);
    const inPlace = sites.filter((site) => !hasLiveFields(site));
    expect(inPlace.length).toBeGreaterThan(sites.length / 2);
    for (const site of inPlace) expect(Object.keys(site).sort()).toEqual(['file', 'line', 'symbol', 'unit']);
  });
});
