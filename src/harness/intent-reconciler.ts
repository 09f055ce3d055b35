/**
 * Spots a model turn that announces an action in prose ("I'll fix it now", "Vou corrigir o
 * arquivo") instead of taking it. The harness already rejects a turn without a tool call; this
 * only names what the model promised, so the re-prompt can hold it to its own words. It favours
 * precision: a missed announcement costs a generic re-prompt, a false one quotes back a promise
 * the model never made.
 *
 * Conditionals ("If you want, I will add tests", "Se os testes passarem, vou fazer o commit")
 * do not fire: they are offers or plans that wait on the user or on an outcome, and holding the
 * model to them would push it into work nobody asked for.
 */

export interface AnnouncedIntent {
  /** The sentence that announced it, trimmed, at most 160 chars. */
  sentence: string;
  /** The announced action phrase, e.g. "fix it now", "read the file", "corrigir o arquivo". */
  action: string;
  language: 'en' | 'pt';
}

const MAX_SENTENCE = 160;
const MAX_ACTION = 80;

// "what I'll do is ..." names a plan whose content comes later, not the action itself.
const ENGLISH_TRIGGER = String.raw`(?<!(?<!\p{L})what\s+)i(?:'ll|\s+will|\s+shall|'m\s+going\s+to|\s+am\s+going\s+to|'m\s+gonna|\s+am\s+gonna|'m\s+about\s+to|\s+am\s+about\s+to|\s+need\s+to)|let(?:'s|\s+me|\s+us)`;
// "não vou" denies, "é preciso" is impersonal ("it is necessary"), "mais preciso" is the adjective.
const PORTUGUESE_TRIGGER = String.raw`(?<!(?<!\p{L})(?:não|nao|nunca|jamais)\s+)(?<!(?<!\p{L})(?:é|era|foi|será|seria|seja|fosse|mais|menos|muito|tão|bem)\s+)(?:vou|vamos|irei|iremos|deix[ae]\s+eu|deix[ae]-me|preciso|precisamos)`;
const TRIGGER = new RegExp(
  String.raw`(?<![\p{L}\p{N}_'-])(?:(?<en>${ENGLISH_TRIGGER})|(?<pt>${PORTUGUESE_TRIGGER}))(?![\p{L}\p{N}_'-])`,
  'giu',
);

// Adverbs between the trigger and the verb; they say when, not what.
const ENGLISH_LEAD = /^(?:[\s,]*(?:now|first|then|next|just|also|quickly|immediately|finally|actually|go ahead and|proceed to)(?![\p{L}]))*[\s,]*/iu;
const PORTUGUESE_LEAD =
  /^(?:[\s,]*(?:agora|então|entao|primeiro|já|ja|também|tambem|novamente|rapidamente|logo|em seguida|finalmente|aqui|me|te|se|lhe|lhes|nos)(?![\p{L}]))*[\s,]*/iu;

// Verbs that happen in the reply itself or hand the turn to the user: no tool call is owed.
const ENGLISH_NOT_ACTIONS = new Set([
  'not', 'never', 'no', 'be', 'know', 'explain', 'summarize', 'summarise', 'recap', 'clarify', 'describe',
  'note', 'mention', 'say', 'point', 'think', 'wait', 'ask', 'help', 'stop', 'show', 'need',
]);
const PORTUGUESE_NOT_ACTIONS = new Set([
  'saber', 'explicar', 'resumir', 'esclarecer', 'descrever', 'mencionar', 'dizer', 'falar', 'pensar',
  'aguardar', 'esperar', 'perguntar', 'ajudar', 'ser', 'estar', 'ficar', 'parar', 'mostrar', 'precisar',
]);

// An English verb carries no mark, so only the list above filters it; a Portuguese one does: the
// announced action is an infinitive, possibly with an enclitic pronoun ("corrigi-lo", "concentrar-me").
const PORTUGUESE_INFINITIVE =
  /^(?:(?:\p{L}+(?:ar|er|ir)|\p{L}*pôr|\p{L}+por)(?:-(?:me|te|se|nos|lhe|lhes))?|\p{L}+[áêiô]-(?:lo|la|los|las))$/iu;

const CONDITIONAL_OPENING = /^(?:if|unless|in case|should you|when you|once you|se|caso)(?![\p{L}])/iu;
const CONDITIONAL_PHRASE =
  /(?<![\p{L}])(?:if (?:you|needed|necessary|desired|required|wanted|so|that's|that is)|(?:se|caso) (?:você|voce|quiser|queira|preferir|prefira|desejar|necessário|necessario|precisar)|quando você|se for o caso)(?![\p{L}])/iu;

// Where the action phrase ends: clause punctuation, or a clause that gives the reason or the next step.
const ACTION_END =
  /[,;:!?]|\.+(?=\s|$)|\s[—–-]\s|\s(?:so that|because|since|in order to|and then|but|before|while|until|to (?:understand|see|check|confirm|verify|make sure|ensure|find out|figure out|know|learn)|para (?:entender|ver|verificar|confirmar|garantir|saber|descobrir|checar|compreender)|porque|pois|já que|e depois|e então|mas|antes de|enquanto)(?![\p{L}])/iu;

const LIST_ITEM_AFTER_COLON = /^:[ \t]*\n[ \t]*(?:[-*•]|\d+[.)])[ \t]+/;

/** The first announced-but-future action in a model's text, or undefined. Only call it for turns that made no tool call. */
export function findAnnouncedIntent(text: string): AnnouncedIntent | undefined {
  const original = text.normalize('NFC');
  const masked = maskQuoted(original);
  for (const match of masked.matchAll(TRIGGER)) {
    const language = match.groups?.en === undefined ? 'pt' : 'en';
    const triggerEnd = match.index + match[0].length;
    const sentence = sentenceAround(masked, match.index);
    if (masked[sentence.end - 1] === '?') continue;
    const sentenceText = masked.slice(sentence.start, sentence.end).trim().replace(/^(?:(?:[-*•]|\d+[.)])\s+)?[*_]*/, '');
    if (CONDITIONAL_OPENING.test(sentenceText) || CONDITIONAL_PHRASE.test(sentenceText)) continue;
    const action = actionAfter(original, masked, triggerEnd, sentence.end, language);
    if (action === undefined) continue;
    return { sentence: clip(original.slice(sentence.start, sentence.end).trim(), MAX_SENTENCE), action, language };
  }
  return undefined;
}

/** The re-prompt sent back; always English, since the harness, not the user, reads the model's language. */
export function reconcileMessage(intent: AnnouncedIntent): string {
  return `You said you would ${intent.action} but did not act: act now with a tool call, or declare task_blocked.`;
}

/**
 * Blanks code, quotations and block quotes character for character, so a trigger inside them
 * is not seen and every offset in the result still points at the same place in the text.
 */
function maskQuoted(text: string): string {
  const blank = (span: string): string => '·'.repeat(span.length);
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, (block) => '\n'.repeat(block.length))
    .replace(/`[^`\n]*`/g, blank)
    .replace(/"[^"\n]*"|“[^”\n]*”/g, blank)
    .replace(/^[ \t]*>.*$/gm, (line) => ' '.repeat(line.length))
    .replace(/’/g, "'");
}

/** The sentence holding `index`; `end` is past its closing punctuation, if any. */
function sentenceAround(masked: string, index: number): { start: number; end: number } {
  let start = index;
  while (start > 0 && masked[start - 1] !== '\n' && !(isStop(masked[start - 1]) && isSpace(masked[start]))) start -= 1;
  let end = index;
  while (end < masked.length && masked[end] !== '\n' && !(isStop(masked[end]) && (end + 1 === masked.length || isSpace(masked[end + 1])))) end += 1;
  while (end < masked.length && isStop(masked[end])) end += 1;
  return { start, end };
}

function isStop(char: string | undefined): boolean {
  return char === '.' || char === '!' || char === '?';
}

function isSpace(char: string | undefined): boolean {
  return char !== undefined && /\s/.test(char);
}

function actionAfter(original: string, masked: string, triggerEnd: number, sentenceEnd: number, language: 'en' | 'pt'): string | undefined {
  const lead = language === 'en' ? ENGLISH_LEAD : PORTUGUESE_LEAD;
  let start = triggerEnd + (lead.exec(masked.slice(triggerEnd, sentenceEnd))?.[0].length ?? 0);
  let limit = sentenceEnd;
  // "I will:" followed by a list announces the list's first item.
  const listItem = LIST_ITEM_AFTER_COLON.exec(masked.slice(start));
  if (listItem) {
    start += listItem[0].length;
    const lineEnd = masked.indexOf('\n', start);
    limit = lineEnd < 0 ? masked.length : lineEnd;
  }
  const segment = masked.slice(start, limit);
  const verb = /^\p{L}+(?:-\p{L}+)?/u.exec(segment)?.[0].toLowerCase();
  if (verb === undefined) return undefined;
  if (language === 'en' ? ENGLISH_NOT_ACTIONS.has(verb.split('-')[0]!) : !isPortugueseAction(verb)) return undefined;
  const end = ACTION_END.exec(segment)?.index ?? segment.length;
  const action = original.slice(start, start + end).replace(/\s+/g, ' ').trim();
  return action === '' ? undefined : clipAtWord(action, MAX_ACTION);
}

function isPortugueseAction(word: string): boolean {
  return PORTUGUESE_INFINITIVE.test(word) && !PORTUGUESE_NOT_ACTIONS.has(word.split('-')[0]!);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

function clipAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return text.slice(0, cut > 0 ? cut : max);
}
