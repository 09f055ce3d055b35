import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../src/route/request-terms.js';

const ownWords = (request: string) => [...parseRequest(request).terms].filter(([, weight]) => weight === 1).map(([term]) => term);

describe('the words of a request', () => {
  it('leaves out the harness named as a whole, and keeps agents named as parts of it', () => {
    expect(ownWords("where does the agent wait before the agent's next retry?")).not.toContain('agent');
    expect(ownWords('where does the harness mask secrets?')).toEqual(['mask', 'secret']);
    expect(ownWords('how does a helper agent report progress?')).toContain('agent');
    expect(ownWords('where does the agent-to-agent server restore a checkpoint?')).toContain('agent');
    expect(ownWords('which tools do subagents get?')).toContain('subagent');
  });

  it('still reads a request about every place as cross-cutting', () => {
    expect(parseRequest('mask secrets in every place the agent captures output').crossCutting).toBe(true);
  });
});
