import { describe, expect, it } from 'vitest';
import { findAnnouncedIntent, reconcileMessage } from '../../src/harness/intent-reconciler.js';

describe('findAnnouncedIntent', () => {
  it.each([
    ['I found it: the parser drops the last token. I\'ll fix it now.', 'fix it now'],
    ['Let me read the file to understand the structure.', 'read the file'],
    ['The config loader looks fine. Next, I will run the tests to confirm nothing else broke.', 'run the tests'],
    ["I'm going to update `src/config.ts` so the default port comes from the environment.", 'update `src/config.ts` so the default port comes from the environment'],
    ['Now I’ll add a regression test for the empty-input case.', 'add a regression test for the empty-input case'],
    ['I am about to refactor the retry logic into its own module.', 'refactor the retry logic into its own module'],
    ["Let's run the linter and see what else breaks.", 'run the linter and see what else breaks'],
    ['I need to check how the CLI parses `--out.dir` before changing it.', 'check how the CLI parses `--out.dir`'],
    ['i will go ahead and delete the stale snapshot', 'delete the stale snapshot'],
    ['Plan for this step.\n\nI will:\n1. Read `package.json`\n2. Update the build script', 'Read `package.json`'],
  ])('fires on the English %j', (text, action) => {
    expect(findAnnouncedIntent(text)).toMatchObject({ action, language: 'en' });
  });

  it.each([
    ['Vou corrigir o arquivo.', 'corrigir o arquivo'],
    ['Encontrei o erro no parser. Agora vou editar o `parser.ts` para tratar a lista vazia.', 'editar o `parser.ts` para tratar a lista vazia'],
    ['Vamos rodar os testes para verificar se tudo passa.', 'rodar os testes'],
    ['Deixe-me ler o arquivo de configuração primeiro.', 'ler o arquivo de configuração primeiro'],
    ['Irei adicionar um teste de regressão para esse caso.', 'adicionar um teste de regressão para esse caso'],
    ['Preciso verificar como o CLI trata a opção --out.', 'verificar como o CLI trata a opção --out'],
    ['Já sei o que é. Vou corrigi-lo agora.', 'corrigi-lo agora'],
    ['Então vamos primeiro executar o build', 'executar o build'],
    ['Agora vou editar o arquivo...', 'editar o arquivo'],
    ['DEIXA EU CONFERIR O LOG DE ERROS.', 'CONFERIR O LOG DE ERROS'],
  ])('fires on the Portuguese %j', (text, action) => {
    expect(findAnnouncedIntent(text)).toMatchObject({ action, language: 'pt' });
  });

  it('reads decomposed (NFD) accents like composed ones', () => {
    const intent = findAnnouncedIntent('Vou pôr o log de volta no módulo.'.normalize('NFD'));
    expect(intent?.action).toBe('pôr o log de volta no módulo');
    expect(intent?.action.normalize('NFC')).toBe(intent?.action);
  });

  it('quotes the announcing sentence, not the whole text', () => {
    expect(findAnnouncedIntent('The failing test expects a trailing newline. Let me read the fixture. Then I can compare.')?.sentence).toBe(
      'Let me read the fixture.',
    );
  });

  it('clips a long announcing sentence to 160 characters', () => {
    const sentence = findAnnouncedIntent(`I'll rewrite ${'the very long and winding '.repeat(10)}loader.`)?.sentence;
    expect(sentence).toHaveLength(160);
    expect(sentence?.endsWith('…')).toBe(true);
  });

  it('returns the first announcement, skipping code fences before it', () => {
    const text = 'Here is the current code:\n```ts\n// I will remove this later\nexport const legacy = true;\n```\nI\'ll now rewrite the export above. Then I will run the tests.';
    expect(findAnnouncedIntent(text)).toMatchObject({ action: 'rewrite the export above', sentence: "I'll now rewrite the export above." });
  });

  it.each([
    ['a past-tense report', 'I fixed the bug in `parser.ts` and all 42 tests pass.'],
    ['a Portuguese past-tense report', 'Eu corrigi o arquivo e rodei os testes; está tudo verde.'],
    ['a description of code', 'This function will return null when the key is missing, so callers must check it.'],
    ['a description of a test', 'The test will fail if the fixture directory does not exist.'],
    ['a Portuguese description of a test', 'O teste irá falhar se o diretório não existir.'],
    ['a question to the user', 'Should I run the full test suite, or only the parser tests?'],
    ['an announcement phrased as a question', "I'll run the migration on production, is that OK?"],
    ['a Portuguese announcement phrased as a question', 'Vou rodar as migrações em produção, pode ser?'],
    ['an announcement inside a code fence', 'Here is the fix:\n```ts\n// I\'ll remove this once the API is stable\nexport const legacy = true;\n```'],
    ['an announcement inside inline code', 'The log line reads `I will retry in 5s` and the retry succeeded.'],
    ['an announcement inside a quotation', 'The user wrote "I will deploy tomorrow", so the deadline is Friday.'],
    ['an announcement inside a block quote', '> Vou cuidar do deploy sozinho.\nO usuário cuida do deploy, então a mudança está completa.'],
    ['an offer conditioned on the user', 'If you want, I will also add a test for the empty case.'],
    ['an offer with a trailing condition', "I'll add a benchmark too if you'd like."],
    ['a Portuguese offer', 'Se quiser, vou adicionar testes para o caso vazio.'],
    ['a plan that waits on an outcome', "If the build passes on CI, I'll tag the release."],
    ['a Portuguese plan that waits on an outcome', 'Se os testes passarem, vou fazer o commit.'],
    ['a relative clause about later work', 'Everything requested is done; the list below is what I will leave for a follow-up PR.'],
    ['a Portuguese denial', 'Não vou alterar a API pública; a mudança fica restrita ao parser.'],
    ['a final answer handing over to the user', 'Done. The parser now handles empty input and the README documents the flag. Let me know if you need anything else.'],
    ['an explanation in the reply itself', 'Let me explain what changed: the cache key now includes the model name.'],
    ['a Portuguese final answer', 'Pronto! Corrigi o bug e atualizei o README. Vou ficar no aguardo de novas instruções.'],
    ['an impersonal Portuguese necessity', 'É preciso rodar `npm run build` antes de publicar.'],
    ['a Portuguese interjection', 'Vamos lá: o problema era o timeout, e já está resolvido.'],
    ['a past plan', 'I was going to refactor the loader, but it turned out to be unnecessary.'],
    ['empty text', ''],
  ])('does not fire on %s', (_, text) => {
    expect(findAnnouncedIntent(text)).toBeUndefined();
  });
});

describe('reconcileMessage', () => {
  it('holds the model to the action it announced, in English whatever its language', () => {
    const intent = findAnnouncedIntent('Vou corrigir o arquivo.');
    expect(intent).toBeDefined();
    expect(reconcileMessage(intent!)).toBe('You said you would corrigir o arquivo but did not act: act now with a tool call, or declare task_blocked.');
  });
});
