import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { renderHandbook } from '../../src/api/render-handbook.js';
import { registerHandbookPages } from '../../src/mcp/handbook-pages.js';
import { editAccessors, editNeighbours, editStateAccessors, HISTORY_TOKENS_FILE, MASK_FILE, SCHEMA_FILE } from '../helpers/neighbour-edits.js';
import { serverWithEditWindow } from '../helpers/mcp-edit-window.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

const closing: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** The handbook pages over an edit window (see serverWithEditWindow). */
async function pagesOver(repo: string): Promise<{ read: (page: string) => Promise<string>; pages: () => Promise<string[]>; editAfterNextSync: (edit: () => void) => void }> {
  const { client, editAfterNextSync, close } = await serverWithEditWindow(repo, (server, fresh) => registerHandbookPages(server, fresh));
  closing.push(close);
  return {
    editAfterNextSync,
    pages: async () => (await client.listResources()).resources.map((resource) => resource.uri),
    read: async (uri) => {
      const [content] = (await client.readResource({ uri })).contents;
      return content && 'text' in content ? content.text : '';
    },
  };
}

async function builtCopy(): Promise<string> {
  const repo = copyOfFixture();
  await buildHandbook(repo);
  return repo;
}

/**
 * Every `[file:line](link#Lline)` a page prints, with what its line of code must spell: the unit
 * named before it, or on the register page the piece of state its section is about (its
 * declaration, and each write or read of it).
 */
function linksOf(page: string, register: boolean): Array<{ spells: string; file: string; line: number; target: string }> {
  let slot = '';
  return page.split('\n').flatMap((text) => {
    slot = text.match(/^## `([^`]+)`/)?.[1] ?? slot;
    return [...text.matchAll(/`([^`]+)`[^[`]*\[([^\]:]+):(\d+)\]\(([^)#]+)#L(\d+)\)/g)].map((match) => {
      expect(match[5]).toBe(match[3]);
      return { spells: lastName(register ? slot : match[1]!), file: match[2]!, line: Number(match[3]), target: match[4]! };
    });
  });
}

/** The last segment of a unit or slot name, without an overload's `~2`: what its declaration, or an access to it, spells. */
const lastName = (name: string): string => name.split('.').at(-1)!.replace(/~\d+$/, '');

// Pages are served from the repository root, so links from a stage page go one level up.
const pageFolder = (uri: string, repo: string): string => (uri.startsWith('handbook://stages/') ? path.join(repo, 'stages') : repo);

describe('the MCP handbook pages on code edited since the build', () => {
  it('are synced before each read: every link names a line of the code on disk that spells what it shows, as a cold build of the edited tree renders them', async () => {
    const repo = await builtCopy();
    editNeighbours(repo);
    editStateAccessors(repo);
    editAccessors(repo);
    const { read, pages } = await pagesOver(repo);
    const uris = await pages();
    expect(uris).toEqual(expect.arrayContaining(['handbook://overview', 'handbook://register', 'handbook://stages/security']));

    // The same tree built from nothing, elsewhere: what a handbook in step with the code renders.
    const cold = path.join(scratchDirectory(), 'mini-harness');
    cpSync(repo, cold, { recursive: true, filter: (source) => !source.split(path.sep).includes('.handbook') });
    await buildHandbook(cold);
    const coldPages = new Map(renderHandbook(cold, { out: cold, write: false }).pages.map((page) => [`handbook://${page.path.replace(/\.md$/, '')}`, page.content]));
    expect(uris.sort()).toEqual([...coldPages.keys()].sort());

    let checked = 0;
    for (const uri of uris) {
      const page = await read(uri);
      expect(page, uri).toBe(coldPages.get(uri));
      for (const link of linksOf(page, uri === 'handbook://register')) {
        expect(path.resolve(pageFolder(uri, repo), link.target), `${uri} ${link.spells}`).toBe(path.join(repo, link.file));
        const line = readFileSync(path.join(repo, link.file), 'utf8').split('\n')[link.line - 1];
        expect(line, `${uri} ${link.spells} at ${link.file}:${link.line}`).toContain(link.spells);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);

    // The places the edits made, spelled out: moved, shifted and deleted code.
    const register = await read('handbook://register');
    expect(register).toContain('- `webFetchSchema` [src/tools/webFetchSchema.ts:5](src/tools/webFetchSchema.ts#L5)');
    expect(register).toContain('declared at [src/tools/validate.ts:8](src/tools/validate.ts#L8)');
    expect(register).not.toContain('readFileSchema');
    const security = await read('handbook://stages/security');
    expect(security).toContain(`- \`maskSecrets\` (function) [${MASK_FILE}:3](../${MASK_FILE}#L3)`);
    expect(existsSync(path.join(repo, HISTORY_TOKENS_FILE))).toBe(true);
    expect(await read('handbook://overview')).not.toContain('truncateOutput');
  });
});

describe('the MCP handbook pages when the code changed after the sync and before the read', () => {
  it('register: places a declaration, writers and readers where their code stands now, with the CLI\'s markers', async () => {
    const repo = await builtCopy();
    const { read, editAfterNextSync } = await pagesOver(repo);
    editAfterNextSync(() => editStateAccessors(repo));
    const register = await read('handbook://register');
    const section = register.slice(register.indexOf('## `ToolSchema.description`'), register.indexOf('## ', register.indexOf('## `ToolSchema.description`') + 3));
    expect(section).toContain('declared at [src/tools/validate.ts:8](src/tools/validate.ts#L8);');
    const writers = section.slice(section.indexOf('Writers:'), section.indexOf('Readers:')).split('\n');
    expect(writers).toEqual([
      'Writers:',
      '- `editFileSchema` [src/tools/files.ts:5](src/tools/files.ts#L5) (changed)',
      '- `readFileSchema` src/tools/files.ts (gone)',
      '- `writeFileSchema` [src/tools/files.ts:18](src/tools/files.ts#L18)',
      '- `EMPTY_SCHEMA` [src/tools/registry.ts:19](src/tools/registry.ts#L19)',
      '- `shellSchema` [src/tools/shell.ts:10](src/tools/shell.ts#L10)',
      `- \`webFetchSchema\` [${SCHEMA_FILE}:5](${SCHEMA_FILE}#L5) (moved from src/tools/webFetch.ts)`,
      '',
      '',
    ]);
    expect(section).toContain('- `buildSystemPrompt` [src/agent/promptBuilder.ts:17](src/agent/promptBuilder.ts#L17)');
  });

  it('register: a declaration whose owner changed has no line, and one whose file is gone is marked gone', async () => {
    const repo = await builtCopy();
    const { read, editAfterNextSync } = await pagesOver(repo);
    const validate = path.join(repo, 'src/tools/validate.ts');
    editAfterNextSync(() => writeFileSync(validate, readFileSync(validate, 'utf8').replace("  type: 'object';\n", "  type: 'object';\n  title?: string;\n")));
    expect(await read('handbook://register')).toContain('property of type `string`, declared in src/tools/validate.ts (changed); stages:');
    editAfterNextSync(() => rmSync(validate));
    expect(await read('handbook://register')).toContain('property of type `string`, declared in src/tools/validate.ts (gone); stages:');
  });

  it('stage: entry points and members at their live lines, a moved one at its new file, a changed one marked, a deleted one gone; names in its tables marked alike', async () => {
    const repo = await builtCopy();
    const { read, editAfterNextSync } = await pagesOver(repo);
    editAfterNextSync(() => {
      editNeighbours(repo);
      editAccessors(repo);
    });
    const observability = await read('handbook://stages/observability');
    // Logger.write changed, and with it the class that holds it; describeError one line down; pendingSpanCount deleted, so flushTelemetry stands 5 lines up.
    expect(observability).toContain('- `Logger` [src/observability/logger.ts:12](../src/observability/logger.ts#L12) (changed)\n');
    expect(observability).toContain('- `Logger.write` (method) [src/observability/logger.ts:40](../src/observability/logger.ts#L40) (changed): ');
    expect(observability).toContain('- `describeError` (function) [src/observability/logger.ts:49](../src/observability/logger.ts#L49): ');
    expect(observability).toContain('- `pendingSpanCount` (function) src/observability/telemetry.ts (gone): Number of spans waiting to be flushed.');
    expect(observability).toContain('- `flushTelemetry` (function) [src/observability/telemetry.ts:33](../src/observability/telemetry.ts#L33): ');
    expect(observability).toContain('| `spans` | `flushTelemetry`, `recordToolCall` | `flushTelemetry`, `pendingSpanCount` (gone), `recordToolCall` | - |');
    expect(observability).toContain('| `Logger.threshold` | `Logger.constructor` | `Logger.write` (changed) | - |');

    // The read synced those edits first, truncateOutput's deletion with them: an edit after this read's sync empties its file.
    editAfterNextSync(() => writeFileSync(path.join(repo, 'src/tools/truncate.ts'), ''));
    const results = await read('handbook://stages/results');
    expect(results).not.toContain('truncateOutput');
    expect(results).toContain('- `DEFAULT_MAX_CHARS` (variable) src/tools/truncate.ts (gone): ');
    expect(results).toContain('- `HEAD_RATIO` (variable) src/tools/truncate.ts (gone): ');
  });

  it('stage: a moved member at its new file, and its name marked where the page names it without a place', async () => {
    const repo = await builtCopy();
    const { read, editAfterNextSync } = await pagesOver(repo);
    editAfterNextSync(() => editNeighbours(repo));
    const security = await read('handbook://stages/security');
    expect(security).toContain(`## Entry points from other stages\n\n- \`maskSecrets\` [${MASK_FILE}:3](../${MASK_FILE}#L3) (moved from src/security/secrets.ts)\n`);
    expect(security).toContain(`- \`maskSecrets\` (function) [${MASK_FILE}:3](../${MASK_FILE}#L3) (moved from src/security/secrets.ts): Masks every known secret in \`text\`.`);
    expect(security).toContain('- `redactValue` (function) [src/security/secrets.ts:21](../src/security/secrets.ts#L21): ');

    editAfterNextSync(() => editAccessors(repo));
    const contextManagement = await read('handbook://stages/context-management');
    expect(contextManagement).toContain(`- \`countHistoryTokens\` (function) [${HISTORY_TOKENS_FILE}:4](../${HISTORY_TOKENS_FILE}#L4) (moved from src/context/tokens.ts): `);
    expect(contextManagement).toContain(`| \`ToolCall.args\` | - | \`countHistoryTokens\` (moved to ${HISTORY_TOKENS_FILE}) |`);

    // A read that meets no edit after its sync: the handbook caught up, and the page is a build's again.
    const synced = await read('handbook://stages/security');
    expect(synced).not.toContain('(moved from');
    expect(synced).toContain(`- \`maskSecrets\` (function) [${MASK_FILE}:3](../${MASK_FILE}#L3): `);
  });

  it('overview: an entry point edited inside is marked changed, and one shifted is linked at its live line', async () => {
    const repo = await builtCopy();
    const { read, editAfterNextSync } = await pagesOver(repo);
    const index = path.join(repo, 'src/index.ts');
    const built = readFileSync(index, 'utf8');
    editAfterNextSync(() => writeFileSync(index, built.replace('  const { task, configPath, resumeId } = parseArgs(argv);\n', '  const { task, configPath, resumeId } = parseArgs(argv);\n  void 0;\n')));
    expect(await read('handbook://overview')).toContain('## Entry points\n\n- `main` [src/index.ts:36](src/index.ts#L36) (changed)\n');
    editAfterNextSync(() => writeFileSync(index, `// one\n// two\n${readFileSync(index, 'utf8')}`));
    expect(await read('handbook://overview')).toContain('## Entry points\n\n- `main` [src/index.ts:38](src/index.ts#L38)\n');
  });
});
