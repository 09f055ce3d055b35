import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsInputsNow, settingsInputsOf } from '../../src/analyze/settings-inputs.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function repository(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'settings-inputs-'));
  roots.push(root);
  writeFileSync(path.join(root, 'tsconfig.json'), '{ "compilerOptions": { "strict": true } }\n');
  return root;
}

describe('the inputs compiler settings are read from', () => {
  it('match while the files read and the compiler are the same', () => {
    const root = repository();
    const config = path.join(root, 'tsconfig.json');
    const recorded = settingsInputsOf(root, [config], new Map([[config, '{ "compilerOptions": { "strict": true } }\n']]));
    expect(settingsInputsNow(root, recorded.files)).toEqual(recorded);
  });

  // Another compiler release may read the same files into other settings, so it must not pass for unchanged ones.
  it('differ for another compiler release reading the same files', () => {
    const root = repository();
    const config = path.join(root, 'tsconfig.json');
    const read = new Map([[config, '{ "compilerOptions": { "strict": true } }\n']]);
    expect(settingsInputsOf(root, [config], read, '0.0.1').digest).not.toBe(settingsInputsOf(root, [config], read).digest);
  });

  it('differ when a file read changed or a config file appeared', () => {
    const root = repository();
    const config = path.join(root, 'tsconfig.json');
    const recorded = settingsInputsNow(root, ['tsconfig.json']);
    writeFileSync(config, '{ "compilerOptions": { "strict": false } }\n');
    const edited = settingsInputsNow(root, ['tsconfig.json']);
    expect(edited.digest).not.toBe(recorded.digest);
    writeFileSync(path.join(root, 'package.json'), '{}\n');
    expect(settingsInputsNow(root, ['tsconfig.json']).digest).not.toBe(edited.digest);
  });
});
