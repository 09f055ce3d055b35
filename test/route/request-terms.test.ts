import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../src/route/request-terms.js';
import { splitWords } from '../../src/text/identifier-words.js';

const ownWords = (request: string) => [...parseRequest(request).terms].filter(([, weight]) => weight === 1).map(([term]) => term);

describe('the words of a request', () => {
  it('leaves out the harness named as a whole, and keeps agents named as parts of it', () => {
    expect(ownWords("when does the agent save the agent's notes?")).not.toContain('agent');
    expect(ownWords('where does the harness mask secrets?')).toEqual(['mask', 'secret']);
    expect(ownWords('how does an agent it spawns report progress?')).toContain('agent');
    expect(ownWords('which multi-agent protocol does the server speak?')).toContain('agent');
    expect(ownWords('which tools do subagents get?')).toContain('subagent');
  });

  it('still reads a request about every place as cross-cutting', () => {
    expect(parseRequest('mask secrets in every place the agent captures output').crossCutting).toBe(true);
  });

  it('keeps letters of any script in their word, composed or not, and splits their camel case', () => {
    expect(ownWords('where is the größe of a Café computed?')).toEqual(expect.arrayContaining(['größe', 'café', 'comput']));
    expect(ownWords('na\u0069\u0308ve')).toEqual(['naïve']);
    expect(splitWords('berechneGrößeÜberAlles')).toEqual(['berechne', 'größe', 'über', 'alles']);
    expect(splitWords('loadДанныеFast')).toEqual(['load', 'данные', 'fast']);
  });
});

