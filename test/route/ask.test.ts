import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { askHandbook } from '../../src/api/ask-handbook.js';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { handbookStatus } from '../../src/api/handbook-status.js';
import { openHandbook } from '../../src/api/open-handbook.js';
import { HandbookError } from '../../src/errors.js';
import { resolveLocator } from '../../src/mcp/resolve-locator.js';
import { copyOfFixture, FIXTURE, scratchDirectory } from '../helpers/paths.js';

let database: string;
beforeAll(async () => {
  database = path.join(scratchDirectory(), 'handbook.db');
  await buildHandbook(FIXTURE, { database });
});

async function ask(request: string, limit = 10) {
  const result = await askHandbook(FIXTURE, request, { database, limit });
  return { result, symbols: result.locations.map((location) => location.symbol) };
}

async function errorOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
  } catch (error) {
    if (HandbookError.isInstance(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
}

describe('ask on the fixture harness, in a maintainer’s words', () => {
  it('finds secret masking and every place that calls it, above unrelated code', async () => {
    const { result, symbols } = await ask('where are credentials redacted before they are written anywhere?');
    expect(symbols.slice(0, 3)).toContain('maskSecrets');
    expect(symbols).toEqual(expect.arrayContaining(['Logger.write', 'SessionStore.save', 'runShellTool']));
    expect(symbols).not.toContain('validateConfig');
    expect(result.router).toBe('offline');
    expect(result.stager).toEqual({ kind: 'offline' });
    const mask = result.locations.find((location) => location.symbol === 'maskSecrets')!;
    expect(mask).toMatchObject({ file: 'src/security/secrets.ts', line: 27, stage: 'security', status: 'fresh' });
    expect(mask.why).toMatch(/security/);
  });

  it('maps "too long" to compaction', async () => {
    const { symbols } = await ask('what decides that the conversation has grown too long?');
    expect(symbols.slice(0, 5)).toEqual(expect.arrayContaining(['compactHistory', 'shouldCompact']));
  });

  it('maps "wait and try again" to the retry helpers', async () => {
    const { symbols } = await ask('where do we wait and try again when the provider is rate limited?', 5);
    expect(symbols).toEqual(expect.arrayContaining(['computeBackoff', 'isRetryableStatus']));
  });

  it('returns every capture path of a cross-cutting request, including the one behind a callback registration', async () => {
    const { symbols } = await ask('hide secrets in every place that captures tool output', 15);
    expect(symbols).toEqual(expect.arrayContaining(['runShellTool', 'webFetchTool', 'readFileTool', 'maskSecrets']));
  });

  it('returns both implementations of an interface for a request about every provider', async () => {
    const { symbols } = await ask('make every model provider retry when the server is overloaded', 10);
    expect(symbols).toEqual(expect.arrayContaining(['AnthropicProvider.complete', 'OpenAIProvider.complete']));
  });

  it('explains its routing when asked: the words searched, the stages picked, the seeds expanded, the files and folders about it', async () => {
    const result = await askHandbook(FIXTURE, 'mask secrets in every capture path', { database, limit: 5, explain: true });
    const trace = result.explain!;
    expect(trace.terms).toContainEqual({ term: 'mask', weight: 1, source: 'request' });
    expect(trace.terms).toContainEqual(expect.objectContaining({ term: 'redact', source: 'thesaurus' }));
    expect(trace.stages).toContain('security');
    expect(trace.crossCutting).toBe(true);
    expect(trace.seeds).toContain('src/security/secrets.ts#maskSecrets');
    const masking = (await askHandbook(FIXTURE, 'where are secrets masked?', { database, explain: true })).explain!;
    expect(masking.files[0]).toBe('src/security/secrets.ts');
    expect(masking.folders[0]).toBe('src/security');
    expect((await askHandbook(FIXTURE, 'mask secrets', { database })).explain).toBeUndefined();
  });

  it('searches again with the words its best matches share, except for a cross-cutting request', async () => {
    const crossCutting = await askHandbook(FIXTURE, 'mask secrets in every capture path', { database, limit: 5, explain: true });
    expect(crossCutting.explain!.crossCutting).toBe(true);
    expect(crossCutting.explain!.terms.filter((term) => term.source === 'feedback')).toEqual([]);
    const focused = await askHandbook(FIXTURE, 'where do we wait and try again when the provider is rate limited?', { database, limit: 5, explain: true });
    const feedback = focused.explain!.terms.filter((term) => term.source === 'feedback');
    expect(feedback.length).toBeGreaterThan(0);
    expect(feedback.map((term) => term.term)).toContain('retryable');
    for (const term of feedback) expect(term.weight).toBeLessThanOrEqual(0.3);
  });

  it('gives each location the hash the handbook stored for its unit while the code is as built', async () => {
    const { result } = await ask('where are credentials redacted before they are written anywhere?');
    const { graph } = openHandbook(FIXTURE, { database });
    expect(result.locations.length).toBeGreaterThan(0);
    for (const location of result.locations) expect(location.hash).toBe(graph.getUnitOrThrow(`${location.file}#${location.symbol}`).hash);
  });

  it('gives the same answer twice', async () => {
    const first = await ask('where is the approval prompt shown to the user?');
    const second = await ask('where is the approval prompt shown to the user?');
    expect(second.result).toEqual(first.result);
  });
});

describe('ask against the live code', () => {
  it('follows a unit that moved down its file, reports a changed one, and never shows a deleted one as fresh', async () => {
    const repo = copyOfFixture();
    const db = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database: db });
    const file = path.join(repo, 'src/security/secrets.ts');
    const original = readFileSync(file, 'utf8');

    writeFileSync(file, `// a new header line\n// and another\n${original}`);
    let result = await askHandbook(repo, 'where are secrets masked?', { database: db });
    expect(result.locations.find((location) => location.symbol === 'maskSecrets')).toMatchObject({ line: 29, status: 'fresh' });

    writeFileSync(file, original.replace('export function maskSecrets(', 'export function maskSecrets(/* touched */ '));
    result = await askHandbook(repo, 'where are secrets masked?', { database: db });
    expect(result.locations.find((location) => location.symbol === 'maskSecrets')).toMatchObject({ status: 'changed' });

    writeFileSync(file, original.replace(/export function maskSecrets\([\s\S]*$/, ''));
    result = await askHandbook(repo, 'where are secrets masked?', { database: db });
    expect(result.locations.map((location) => location.symbol)).not.toContain('maskSecrets');
    expect(result.frozen).toBeGreaterThanOrEqual(1);
    expect(result.locations.every((location) => location.status === 'fresh' || location.status === 'changed')).toBe(true);
  });

  it('gives an edited unit the hash of its code as it stands now, which resolve takes back as fresh, not the stored one', async () => {
    const repo = copyOfFixture();
    const db = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database: db });
    const handbook = openHandbook(repo, { database: db });
    const stored = handbook.graph.getUnitOrThrow('src/security/secrets.ts#maskSecrets').hash;
    const file = path.join(repo, 'src/security/secrets.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('let masked = text;', 'let masked = text.trim();'));

    const result = await askHandbook(repo, 'where are secrets masked?', { database: db });
    const mask = result.locations.find((location) => location.symbol === 'maskSecrets')!;
    expect(mask).toMatchObject({ file: 'src/security/secrets.ts', line: 27, endLine: 37, status: 'changed' });
    expect(mask.hash).not.toBe(stored);
    const { file: at, symbol, hash } = mask;
    expect(await resolveLocator(handbook, { file: at, symbol })).toMatchObject({ status: 'fresh', hash });
    expect(await resolveLocator(handbook, { file: at, symbol, hash })).toMatchObject({ status: 'fresh', line: 27, endLine: 37 });
    expect(await resolveLocator(handbook, { file: at, symbol, hash: stored })).toMatchObject({ status: 'changed' });
    // The units around it kept their code, so they keep the stored hash.
    const redact = result.locations.find((location) => location.symbol === 'redactValue')!;
    expect(redact).toMatchObject({ status: 'fresh', hash: handbook.graph.getUnitOrThrow('src/security/secrets.ts#redactValue').hash });
  });

  it('shows code whose file was renamed at its new place, as moved, agreeing with status; code copied to two places stays frozen', async () => {
    const repo = copyOfFixture();
    const db = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database: db });
    renameSync(path.join(repo, 'src/tools/shell.ts'), path.join(repo, 'src/tools/shellTool.ts'));

    const moved = await askHandbook(repo, 'run shell command', { database: db });
    expect(moved.frozen).toBe(0);
    expect(moved.locations.find((location) => location.symbol === 'runShellTool')).toMatchObject({
      file: 'src/tools/shellTool.ts',
      line: 27,
      endLine: 39,
      status: 'moved',
      why: expect.stringMatching(/\(moved since the build from src\/tools\/shell\.ts#runShellTool\)$/),
    });
    expect(moved.locations.filter((location) => location.file === 'src/tools/shell.ts')).toEqual([]);
    // Moved code is the same code: the stored hash, which resolve finds fresh at the new place.
    const handbook = openHandbook(repo, { database: db });
    const shell = moved.locations.find((location) => location.symbol === 'runShellTool')!;
    expect(shell.hash).toBe(handbook.graph.getUnitOrThrow('src/tools/shell.ts#runShellTool').hash);
    expect(await resolveLocator(handbook, { file: shell.file, symbol: shell.symbol, hash: shell.hash })).toMatchObject({ status: 'fresh', line: 27, endLine: 39 });
    expect((await handbookStatus(repo, { database: db })).counts).toMatchObject({ moved: 6, frozen: 0 });

    copyFileSync(path.join(repo, 'src/tools/shellTool.ts'), path.join(repo, 'src/tools/shellCopy.ts'));
    const ambiguous = await askHandbook(repo, 'run shell command', { database: db });
    expect(ambiguous.locations.map((location) => location.symbol)).not.toContain('runShellTool');
    expect(ambiguous.frozen).toBeGreaterThanOrEqual(1);
    expect(ambiguous.locations.every((location) => location.status !== 'moved')).toBe(true);
    expect((await handbookStatus(repo, { database: db })).counts).toMatchObject({ moved: 0, frozen: 6 });
  });
});

describe('ask in code written with other scripts', () => {
  it('matches words with letters outside ASCII whole, not cut at each such letter', async () => {
    const repo = scratchDirectory();
    mkdirSync(path.join(repo, 'src'), { recursive: true });
    writeFileSync(path.join(repo, 'src/größe.ts'), 'export function berechneGröße(breite: number): number {\n  return breite * 2;\n}\n');
    writeFileSync(path.join(repo, 'src/cafe.ts'), 'export class Café {\n  serve(): string {\n    return "ok";\n  }\n}\n');
    writeFileSync(path.join(repo, 'src/other.ts'), 'export function grVe(): number {\n  return 1;\n}\nexport function caf(): number {\n  return 2;\n}\n');
    await buildHandbook(repo);
    const answer = await askHandbook(repo, 'where is the größe computed?', { limit: 3 });
    expect(answer.locations[0]).toMatchObject({ file: 'src/größe.ts', symbol: 'berechneGröße' });
    expect(answer.locations.map((location) => location.symbol)).not.toContain('grVe');
    expect((await askHandbook(repo, 'the café', { limit: 3 })).locations[0]).toMatchObject({ file: 'src/cafe.ts', symbol: 'Café' });
  });
});

describe('bad input to ask', () => {
  it('refuses an empty and a 100 KB request in one line', async () => {
    expect(await errorOf(() => askHandbook(FIXTURE, '   ', { database }))).toMatch(/^INVALID_INPUT: the request is empty/);
    expect(await errorOf(() => askHandbook(FIXTURE, 'mask '.repeat(20_000), { database }))).toMatch(/^INVALID_INPUT: the request is 99999 characters long/);
  });

  it('answers a request of stop words or in another language with nothing, and says why', async () => {
    const stopWords = await askHandbook(FIXTURE, 'where is the of and to it', { database });
    expect(stopWords.locations).toEqual([]);
    expect(stopWords.note).toMatch(/no words the handbook can match/);
    // Asked to explain, it says what it searched: nothing.
    expect((await askHandbook(FIXTURE, 'where is the of and to it', { database, explain: true })).explain).toMatchObject({ terms: [], seeds: [] });
    const other = await askHandbook(FIXTURE, '秘密情報はどこで隠されますか', { database });
    expect(other.locations).toEqual([]);
    expect(other.note).toBeDefined();
  });

  it('tells the user to build first, and refuses a corrupt database', async () => {
    expect(await errorOf(() => askHandbook(copyOfFixture(), 'where are secrets masked?'))).toMatch(/^NO_HANDBOOK/);
    const corrupt = path.join(scratchDirectory(), 'bad.db');
    writeFileSync(corrupt, 'garbage'.repeat(1000));
    expect(await errorOf(() => askHandbook(FIXTURE, 'where are secrets masked?', { database: corrupt }))).toMatch(/^DATABASE_CORRUPT/);
  });
});
