import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLiveFile } from '../../src/analyze/parse-live-file.js';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { liveResolverOf, liveSourceOf, sourceDiscoveryOf } from '../../src/api/live-resolution.js';
import { openHandbook, type Handbook } from '../../src/api/open-handbook.js';
import { LiveResolver } from '../../src/locate/live-resolver.js';
import { shortHash } from '../../src/graph/content-hash.js';
import { skipReasonOf } from '../../src/analyze/discover-files.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

const SHELL = 'src/tools/shell.ts';
const RENAMED = 'src/tools/shellTool.ts';

/** A built copy of the fixture, after `edit` changed its files. */
async function builtThenEdited(edit: (repo: string) => void): Promise<Handbook> {
  const repo = copyOfFixture();
  await buildHandbook(repo);
  edit(repo);
  return openHandbook(repo, { withUnresolved: false });
}

const renameShellTool = (repo: string): void => renameSync(path.join(repo, SHELL), path.join(repo, RENAMED));

describe('the live resolver follows moved code', () => {
  it('reports a unit of a renamed file as moved, at its lines in the new file', async () => {
    const handbook = await builtThenEdited(renameShellTool);
    const unit = handbook.graph.getUnitOrThrow(`${SHELL}#runShellTool`);
    const resolved = await liveResolverOf(handbook).resolve(unit);
    expect(resolved).toEqual({
      status: 'moved',
      line: 27,
      endLine: 39,
      hash: unit.hash,
      reason: `${SHELL} no longer exists; the same code is now ${RENAMED}#runShellTool`,
      movedTo: { file: RENAMED, symbol: 'runShellTool' },
    });
  });

  it('keeps a unit frozen when its exact code stands in two places', async () => {
    const handbook = await builtThenEdited((repo) => {
      renameShellTool(repo);
      copyFileSync(path.join(repo, RENAMED), path.join(repo, 'src/tools/shellCopy.ts'));
    });
    const resolved = await liveResolverOf(handbook).resolve(handbook.graph.getUnitOrThrow(`${SHELL}#runShellTool`));
    expect(resolved).toEqual({ status: 'frozen', line: 27, endLine: 39, reason: `${SHELL} no longer exists` });
  });

  it('says a file still there is now skipped, not gone, and follows its code to where it moved', async () => {
    const handbook = await builtThenEdited((repo) => {
      copyFileSync(path.join(repo, SHELL), path.join(repo, RENAMED));
      // Its bytes still parse to the same units, but a sync leaves a file holding a NUL out.
      writeFileSync(path.join(repo, SHELL), Buffer.concat([Buffer.from([0x00]), readFileSync(path.join(repo, SHELL))]));
    });
    const unit = handbook.graph.getUnitOrThrow(`${SHELL}#runShellTool`);
    const resolved = await liveResolverOf(handbook).resolve(unit);
    expect(resolved).toEqual({
      status: 'moved',
      line: 27,
      endLine: 39,
      hash: unit.hash,
      reason: `${SHELL} is now skipped as binary; the same code is now ${RENAMED}#runShellTool`,
      movedTo: { file: RENAMED, symbol: 'runShellTool' },
    });
  });

  describe('judges a file replaced by a symlink as discovery does', () => {
    /** Replaces the shell tool with a link to `target(repo)`, holding `bytes` (its own by default). */
    const linkedTo = (target: (repo: string) => string, bytes?: (original: Buffer) => Buffer) => (repo: string) => {
      const original = readFileSync(path.join(repo, SHELL));
      const at = target(repo);
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(at, bytes ? bytes(original) : original);
      rmSync(path.join(repo, SHELL));
      symlinkSync(at, path.join(repo, SHELL));
    };
    const cases = [
      { name: 'a link to the same code inside the repository is read through, as a build reads it', edit: linkedTo((repo) => path.join(repo, 'shared/shell.ts')), expected: { status: 'fresh', line: 27, endLine: 39 } },
      {
        name: 'a link out of the repository is skipped, as discovery skips it',
        edit: linkedTo(() => path.join(scratchDirectory(), 'shell.ts')),
        expected: { status: 'frozen', line: 27, endLine: 39, reason: `${SHELL} (a symlink) is now skipped as symlink-outside` },
      },
      {
        name: 'a link to a binary file inside the repository is skipped as binary',
        edit: linkedTo((repo) => path.join(repo, 'shared/shell.ts'), (original) => Buffer.concat([Buffer.from([0x00]), original])),
        expected: { status: 'frozen', line: 27, endLine: 39, reason: `${SHELL} (a symlink) is now skipped as binary` },
      },
      {
        name: 'a link to nothing is skipped as discovery counts it',
        edit: (repo: string) => {
          rmSync(path.join(repo, SHELL));
          symlinkSync(path.join(repo, 'nowhere.ts'), path.join(repo, SHELL));
        },
        expected: { status: 'frozen', line: 27, endLine: 39, reason: `${SHELL} (a symlink) is now skipped as symlink-loop` },
      },
    ];
    for (const { name, edit, expected } of cases) {
      it(name, async () => {
        const handbook = await builtThenEdited(edit);
        const unit = handbook.graph.getUnitOrThrow(`${SHELL}#runShellTool`);
        const resolved = await liveResolverOf(handbook).resolve(unit);
        // Code found live comes with its hash, the stored one where it is the same code.
        expect(resolved).toEqual(expected.status === 'frozen' ? expected : { ...expected, hash: unit.hash });
        // The same verdict as a build's: analyzed when discovery lists the file, else skipped for the reason it records.
        const discovery = sourceDiscoveryOf(handbook)();
        const reason = skipReasonOf(discovery, SHELL);
        expect(discovery.files.some((file) => file.path === SHELL)).toBe(expected.status === 'fresh');
        if (expected.status !== 'fresh') expect(expected.reason).toBe(`${SHELL} (a symlink) is now skipped as ${reason}`);
      });
    }
  });

  it('walks the tree only when a unit is gone, and then once', async () => {
    const handbook = await builtThenEdited((repo) => {
      const secrets = path.join(repo, 'src/security/secrets.ts');
      writeFileSync(secrets, `// shifted\n${readFileSync(secrets, 'utf8')}`);
    });
    const shifted = countingWalks(handbook);
    for (const unit of handbook.graph.units.filter((unit) => unit.kind !== 'file')) expect((await shifted.resolver.resolve(unit)).status).toBe('fresh');
    expect(shifted.walks()).toBe(0);

    renameShellTool(handbook.root);
    const renamed = countingWalks(handbook);
    const gone = handbook.graph.unitsOfFile(SHELL).filter((unit) => unit.kind !== 'file');
    const statuses = await Promise.all(gone.map(async (unit) => (await renamed.resolver.resolve(unit)).status));
    expect(statuses).toEqual(gone.map(() => 'moved'));
    expect(renamed.walks()).toBe(1);
  });
});

describe("the live resolver places a file's own unit", () => {
  const SECRETS = 'src/security/secrets.ts';

  it('as changed when its file was edited, over the lines the file has now and with the hash a build would record', async () => {
    const handbook = await builtThenEdited((repo) => {
      const secrets = path.join(repo, SECRETS);
      writeFileSync(secrets, `// one\n// two\n${readFileSync(secrets, 'utf8')}`);
    });
    const unit = handbook.graph.getUnitOrThrow(SECRETS);
    expect(unit.kind).toBe('file');
    const bytes = readFileSync(path.join(handbook.root, SECRETS));
    expect(await liveResolverOf(handbook).resolve(unit)).toEqual({
      status: 'changed',
      line: 1,
      endLine: unit.endLine + 2,
      hash: shortHash(bytes),
      reason: `${SECRETS} changed since the build`,
    });
  });

  it('as frozen when its file is gone', async () => {
    const handbook = await builtThenEdited(renameShellTool);
    const unit = handbook.graph.getUnitOrThrow(SHELL);
    expect(await liveResolverOf(handbook).resolve(unit)).toEqual({ status: 'frozen', line: 1, endLine: unit.endLine, reason: `${SHELL} no longer exists` });
  });
});

describe('the live resolver judges a file unchanged without parsing it', () => {
  it('reads an unchanged file once, parses none, and resolves its units fresh as stored; an edited file is parsed when resolved', async () => {
    const handbook = await builtThenEdited((repo) => {
      const secrets = path.join(repo, 'src/security/secrets.ts');
      writeFileSync(secrets, `// shifted\n${readFileSync(secrets, 'utf8')}`);
    });
    const reads: string[] = [];
    const parsed: string[] = [];
    const read = liveSourceOf(handbook);
    const resolver = new LiveResolver(
      handbook.graph.toData().files,
      (file) => {
        reads.push(file);
        return read(file);
      },
      (file, text) => {
        parsed.push(file);
        return parseLiveFile(file, text);
      },
      () => [],
    );
    expect(resolver.unchangedSinceBuild(SHELL)).toBe(true);
    expect(resolver.unchangedSinceBuild(SHELL)).toBe(true);
    const unit = handbook.graph.getUnitOrThrow(`${SHELL}#runShellTool`);
    expect(await resolver.resolve(unit)).toEqual({ status: 'fresh', line: unit.startLine, endLine: unit.endLine, hash: unit.hash });
    expect(await resolver.editedSinceBuild(SHELL)).toBe(false);
    expect({ reads, parsed }).toEqual({ reads: [SHELL], parsed: [] });

    expect(resolver.unchangedSinceBuild('src/security/secrets.ts')).toBe(false);
    const shifted = handbook.graph.getUnitOrThrow('src/security/secrets.ts#maskSecrets');
    expect(await resolver.resolve(shifted)).toMatchObject({ status: 'fresh', line: shifted.startLine + 1 });
    expect(resolver.unchangedSinceBuild('src/security/secrets.ts')).toBe(false);
    expect(parsed).toEqual(['src/security/secrets.ts']);
  });
});

describe('the live resolver tells an edit from a reformat', () => {
  /** The shell tool's verdict after `edit` rewrote its file's text. */
  const shellToolAfter = async (edit: (text: string) => string) => {
    const handbook = await builtThenEdited((repo) => writeFileSync(path.join(repo, SHELL), edit(readFileSync(path.join(repo, SHELL), 'utf8'))));
    return liveResolverOf(handbook).resolve(handbook.graph.getUnitOrThrow(`${SHELL}#runShellTool`));
  };
  const once = (text: string, from: string, to: string): string => {
    expect(text.split(from)).toHaveLength(2);
    return text.replace(from, to);
  };

  it('reports a unit changed when whitespace inside one of its strings changes', async () => {
    expect(await shellToolAfter((text) => once(text, `'[killed: timeout]'`, `'[killed:  timeout]'`))).toMatchObject({ status: 'changed', line: 27, endLine: 39 });
  });

  it('reports a unit changed when whitespace in the text of one of its template literals changes', async () => {
    expect(await shellToolAfter((text) => once(text, '`[exit code ${exitCode}]`', '`[exit  code ${exitCode}]`'))).toMatchObject({ status: 'changed', line: 27, endLine: 39 });
  });

  it('keeps a re-indented, reflowed unit fresh', async () => {
    const reformatted = (text: string): string => {
      const body = once(text, 'const cwd = typeof args.cwd', 'const cwd =\n      typeof args.cwd').split('\n');
      // Lines 27 to 40 are now the shell tool: indented by a tab more, with a space before a `;`.
      return [...body.slice(0, 26), ...body.slice(26, 40).map((line) => `\t${line.replace('args.command);', 'args.command) ;')}`), ...body.slice(40)].join('\n');
    };
    expect(await shellToolAfter(reformatted)).toEqual({ status: 'fresh', line: 27, endLine: 40, hash: expect.any(String) });
  });
});

/** A resolver over the tree as a build would see it, counting how often it asks for that tree. */
function countingWalks(handbook: Handbook): { resolver: LiveResolver; walks: () => number } {
  let walks = 0;
  const resolver = new LiveResolver(handbook.graph.toData().files, liveSourceOf(handbook), parseLiveFile, () => {
    walks += 1;
    return sourceDiscoveryOf(handbook)().files.map((file) => file.path);
  });
  return { resolver, walks: () => walks };
}
