import { describe, expect, it } from 'vitest';
import { describingParagraph } from '../../src/organize/overview.js';

const BANNER = `<!-- WEEKEND_START -->
# Weekend notice

Issue tracking is closed through Monday, and new issues are closed on arrival meanwhile.
<!-- WEEKEND_END -->

<p align="center"><img src="logo.svg"></p>

# Pi Monorepo

> **Looking for the agent?** See the coding-agent package.

Tools for building AI agents and managing LLM deployments.
`;

describe('the README paragraph that describes a project', () => {
  it('takes the prose under the heading that names the project, past a banner before it', () => {
    expect(describingParagraph(BANNER, 'pi-monorepo')).toBe('Tools for building AI agents and managing LLM deployments.');
  });

  it('takes the first prose anywhere when no heading names the project, and never carries a comment marker', () => {
    const paragraph = describingParagraph(BANNER, 'something-else');
    expect(paragraph).toBe('Issue tracking is closed through Monday, and new issues are closed on arrival meanwhile.');
    expect(describingParagraph('An unclosed <!-- comment in a long first paragraph of the readme text here.\n', 'x')).not.toMatch(/<!--|-->/);
  });

  it('names a scoped package by its own name, and keeps links as their text', () => {
    const readme = '# Banner\n\nA first paragraph that is long enough to be taken as prose.\n\n# Tool\n\nThe [tool](https://example.com) runs coding agents against local repositories.\n';
    expect(describingParagraph(readme, '@acme/tool')).toBe('The tool runs coding agents against local repositories.');
  });
});
