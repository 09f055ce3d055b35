import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unitFileName, unitIdOfFileName } from '../../src/serve/unit-file-name.js';

describe('unitFileName', () => {
  it('keeps lowercase letters, digits, dots and hyphens, and escapes every other byte as _xx', () => {
    expect(unitFileName('src/agent/agentLoop.ts#AgentLoop.run')).toBe('src_2fagent_2fagent_4coop.ts_23_41gent_4coop.run');
    expect(unitFileName('src/a_b.ts#Class.id~2')).toBe('src_2fa_5fb.ts_23_43lass.id_7e2');
    expect(unitFileName('src/ü.ts#π')).toBe('src_2f_c3_bc.ts_23_cf_80');
  });

  it('is reversible, safe as a file name and a URL path segment, and apart for names that differ only in case', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (id) => {
        const name = unitFileName(id);
        expect(name).toMatch(/^[a-z0-9._~-]*$/);
        expect(encodeURIComponent(name)).toBe(name);
        expect(name.length).toBeLessThanOrEqual(200);
        // Names short enough to keep whole go back to their id; shortened ones end in ~ and a hash.
        if (name.includes('~')) expect(name).toMatch(/^[a-z0-9._-]{183}~[0-9a-f]{16}$/);
        else expect(unitIdOfFileName(name)).toBe(id);
      }),
    );
    // A case-insensitive file system sees names as equal once lowercased: distinct ids must stay distinct even then.
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => a === b || unitFileName(a).toLowerCase() !== unitFileName(b).toLowerCase()));
    fc.assert(fc.property(fc.string(), (id) => id.toUpperCase() === id || unitFileName(id.toUpperCase()) !== unitFileName(id)));
  });

  it('keeps file names of ids with many capitals under the file-system limit, and apart', () => {
    const deep = `packages/${'VeryLongFolderName/'.repeat(8)}ToolConfirmationMessage.tsx#ToolConfirmationMessage.RenderConfirmationDetails`;
    const name = unitFileName(deep);
    expect(name.length).toBe(200);
    expect(name.startsWith('packages_2f_56ery_4cong_46older_4eame_2f')).toBe(true);
    expect(unitIdOfFileName(name)).toBeUndefined();
    expect(unitFileName(`${deep}2`)).not.toBe(name);
    expect(unitFileName(deep.replace('ToolConfirmationMessage.RenderConfirmationDetails', 'ToolConfirmationMessage.renderConfirmationDetails'))).not.toBe(name);
  });
});
