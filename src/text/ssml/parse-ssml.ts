/**
 * Reads the SSML subset Speech Studio takes into a plan (ssml-plan.ts). Malformed XML and elements or values
 * it does not take are refused with an SsmlError naming the line and column, so every door can say where.
 *
 * Taken: speak, p, s, break (time|strength), prosody (rate pitch volume), emphasis, say-as, sub, phoneme,
 * voice, lang, audio (with its fallback text), mark; meta, metadata, lexicon and desc are skipped.
 *
 * @example parseSsml('<speak>Hi <break time="500ms"/> there</speak>').steps
 *   // [{ kind: 'speech', text: 'Hi', … }, { kind: 'pause', seconds: 0.5 }, { kind: 'speech', text: 'there', … }]
 */
import { SaxesParser } from 'saxes';
import { SAY_AS_KINDS, sayAs, SayAsError, type SayAsKind } from './say-as';
import {
  DEFAULT_STYLE,
  type Phonemes,
  type SourceRange,
  type SpeechStyle,
  type SsmlPlan,
  type SsmlStep,
} from './ssml-plan';
import {
  BREAK_STRENGTH_SECONDS,
  MAX_BREAK_SECONDS,
  MAX_TOTAL_BREAK_SECONDS,
  parsePitch,
  parseRate,
  parseTime,
  parseVolume,
} from './ssml-values';

/** Malformed or unsupported SSML, with where it is (1-based line and column). */
export class SsmlError extends Error {
  override readonly name = 'SsmlError';
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`SSML line ${line}, column ${column}: ${reason}`);
  }
}

/** Pauses the structure implies: after a sentence and after a paragraph (an explicit break replaces them). */
const SENTENCE_PAUSE = 0.4;
const PARAGRAPH_PAUSE = 0.75;
const MIN_RATE = 0.25;
const MAX_RATE = 4;

const SKIPPED = new Set(['meta', 'metadata', 'lexicon', 'desc']);
const TAKEN = new Set([
  'speak',
  'p',
  's',
  'break',
  'prosody',
  'emphasis',
  'say-as',
  'sub',
  'phoneme',
  'voice',
  'lang',
  'audio',
  'mark',
  ...SKIPPED,
]);

const EMPHASIS: Record<string, { rate: number; volumeDb: number }> = {
  strong: { rate: 0.85, volumeDb: 4 },
  moderate: { rate: 0.92, volumeDb: 2 },
  none: { rate: 1, volumeDb: 0 },
  reduced: { rate: 1.08, volumeDb: -4 },
};

interface Frame {
  name: string;
  style: SpeechStyle;
  line: number;
  column: number;
  attributes: Record<string, string>;
  /** Text of a leaf element (say-as, sub, phoneme, audio), gathered until it closes. */
  text?: string;
  /** Offset of the element's `<` in the source. */
  start: number;
}

type PendingPause = { seconds: number; explicit: boolean };

export function parseSsml(source: string, defaultLanguage = 'en'): SsmlPlan {
  const steps: SsmlStep[] = [];
  const voices: string[] = [];
  const ignored: Record<string, string> = {};
  const stack: Frame[] = [];
  let pending: PendingPause | undefined;
  let tagLine = 1;
  let tagColumn = 1;
  let tagStart = 0;
  /** Offset just past the last tag read: where the next text begins. */
  let markupEnd = 0;
  let sawRoot = false;
  /** Seconds of all explicit breaks so far, against MAX_TOTAL_BREAK_SECONDS. */
  let breakSeconds = 0;
  const parser = new SaxesParser({ position: true });

  const fail = (reason: string, line = tagLine, column = tagColumn): never => {
    throw new SsmlError(line, column, reason);
  };
  const top = (): Frame | undefined => stack[stack.length - 1];
  const languageOf = (style: SpeechStyle): string => style.language ?? defaultLanguage;
  const pause = (seconds: number, explicit: boolean): void => {
    if (!pending) pending = { seconds, explicit };
    else if (explicit)
      pending = pending.explicit ? { seconds: pending.seconds + seconds, explicit } : { seconds, explicit };
    else if (!pending.explicit) pending.seconds = Math.max(pending.seconds, seconds);
  };
  const emit = (step: SsmlStep): void => {
    if (pending && (pending.explicit || steps.length > 0) && pending.seconds > 0)
      steps.push({ kind: 'pause', seconds: pending.seconds });
    pending = undefined;
    const last = steps[steps.length - 1];
    if (
      step.kind === 'speech' &&
      last?.kind === 'speech' &&
      !last.phonemes &&
      !step.phonemes &&
      sameStyle(last.style, step.style)
    ) {
      last.text = `${last.text} ${step.text}`;
      last.at = { start: last.at.start, end: step.at.end };
      return;
    }
    steps.push(step);
  };
  const speak = (text: string, style: SpeechStyle, at: SourceRange, phonemes?: Phonemes): void => {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean === '' && !phonemes) return;
    emit({ kind: 'speech', text: clean, style, at, ...(phonemes ? { phonemes } : {}) });
  };
  const note = (key: string, reason: string): void => {
    ignored[key] ??= reason;
  };

  parser.on('opentagstart', (tag) => {
    // The parser has read the name and the character after it: step back to the `<` (columns from 1).
    tagLine = parser.line;
    tagColumn = parser.column - tag.name.length - 1;
    tagStart = parser.position - tag.name.length - 2;
  });
  parser.on('opentag', (tag) => {
    const name = tag.name;
    // Without namespace processing (the default) every attribute value is a plain string.
    const attributes = tag.attributes as Record<string, string>;
    const parent = top();
    if (!parent) {
      if (name !== 'speak') fail(`the document must start with <speak>, not <${name}>`);
      sawRoot = true;
    } else {
      if (!TAKEN.has(name))
        fail(
          `<${name}> is not an element Speech Studio reads; it takes ${[...TAKEN].filter((n) => !SKIPPED.has(n)).join(', ')}`,
        );
      if (name === 'speak') fail('<speak> cannot stand inside another element');
      if (parent.text !== undefined && parent.name !== 'audio') fail(`<${parent.name}> holds only text, not <${name}>`);
    }
    const style = { ...(parent?.style ?? DEFAULT_STYLE) };
    const frame: Frame = { name, style, line: tagLine, column: tagColumn, attributes, start: tagStart };
    const lang = attributes['xml:lang'];
    if (lang !== undefined) {
      if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang))
        fail(`xml:lang="${lang}" is not a language tag like en-US`);
      style.language = lang;
    }
    switch (name) {
      case 'p':
      case 's':
        pause(name === 'p' ? PARAGRAPH_PAUSE : SENTENCE_PAUSE, false);
        break;
      case 'break': {
        let seconds: number;
        if (attributes.time !== undefined) {
          const time = parseTime(attributes.time);
          if (time === undefined) fail(`<break time="${attributes.time}">: time must be like 500ms or 1.5s`);
          seconds = time!;
        } else if (attributes.strength !== undefined) {
          const strength = BREAK_STRENGTH_SECONDS[attributes.strength];
          if (strength === undefined)
            fail(
              `<break strength="${attributes.strength}">: strength must be one of ${Object.keys(BREAK_STRENGTH_SECONDS).join(', ')}`,
            );
          seconds = strength!;
        } else {
          seconds = BREAK_STRENGTH_SECONDS.medium;
        }
        if (seconds > MAX_BREAK_SECONDS) fail(`<break time="${attributes.time}">: at most ${MAX_BREAK_SECONDS}s`);
        breakSeconds += seconds;
        if (breakSeconds > MAX_TOTAL_BREAK_SECONDS)
          fail(
            `the breaks of a document add up to at most ${MAX_TOTAL_BREAK_SECONDS / 60} minutes; this one passes that`,
          );
        pause(seconds, true);
        break;
      }
      case 'prosody':
        applyProsody(style, attributes, fail, note);
        break;
      case 'emphasis': {
        const level = attributes.level ?? 'moderate';
        const effect = EMPHASIS[level];
        if (!effect) fail(`<emphasis level="${level}">: level must be one of ${Object.keys(EMPHASIS).join(', ')}`);
        style.rate = clampRate(style.rate * effect.rate);
        style.volumeDb += effect.volumeDb;
        break;
      }
      case 'say-as': {
        const kind = attributes['interpret-as'];
        if (!SAY_AS_KINDS.includes(kind as SayAsKind))
          fail(`<say-as interpret-as="${kind ?? ''}">: interpret-as must be one of ${SAY_AS_KINDS.join(', ')}`);
        frame.text = '';
        break;
      }
      case 'sub':
        if (attributes.alias === undefined) fail('<sub> needs an alias attribute: the text to say');
        frame.text = '';
        break;
      case 'phoneme': {
        const alphabet = attributes.alphabet ?? 'ipa';
        if (alphabet !== 'ipa' && alphabet !== 'x-sampa')
          fail(`<phoneme alphabet="${alphabet}">: alphabet must be ipa or x-sampa`);
        if (!attributes.ph?.trim()) fail('<phoneme> needs a ph attribute: the pronunciation');
        frame.text = '';
        break;
      }
      case 'voice':
        if (!attributes.name?.trim()) {
          if (lang === undefined) fail('<voice> needs a name attribute: a voice id or name from the voice library');
        } else {
          style.voice = attributes.name.trim();
          if (!voices.includes(style.voice)) voices.push(style.voice);
        }
        break;
      case 'lang':
        if (lang === undefined) fail('<lang> needs an xml:lang attribute');
        break;
      case 'audio':
        if (!attributes.src?.trim()) fail('<audio> needs a src attribute: a file in the workspace or the data folder');
        if (/^[a-z][a-z0-9+.-]*:\/\//i.test(attributes.src))
          fail(`<audio src="${attributes.src}">: only local files are played, not URLs`);
        frame.text = '';
        break;
      case 'meta':
      case 'metadata':
      case 'lexicon':
        note(name, `<${name}> is not used: pronunciations come from the lexicon (docs/ssml.md)`);
        frame.text = '';
        break;
      case 'desc':
        frame.text = '';
        break;
    }
    stack.push(frame);
    markupEnd = parser.position;
  });
  parser.on('text', (text) => {
    const frame = top();
    if (!frame) {
      if (text.trim() !== '') fail(sawRoot ? 'text after </speak>' : 'text before <speak>', parser.line, parser.column);
      return;
    }
    if (frame.text !== undefined) frame.text += text;
    // The text event comes once the parser has read the `<` after the text.
    else speak(text, frame.style, trimmedRange(source, markupEnd, parser.position - 1));
  });
  parser.on('closetag', () => {
    const frame = stack.pop()!;
    const { attributes, style } = frame;
    const text = frame.text ?? '';
    const at = { start: frame.start, end: parser.position };
    markupEnd = parser.position;
    try {
      switch (frame.name) {
        case 'say-as':
          speak(sayAs(text, attributes['interpret-as'] as SayAsKind, attributes.format, languageOf(style)), style, at);
          break;
        case 'sub':
          speak(attributes.alias, style, at);
          break;
        case 'phoneme':
          speak(text, style, at, {
            alphabet: (attributes.alphabet ?? 'ipa') as Phonemes['alphabet'],
            ph: attributes.ph.trim(),
          });
          break;
        case 'audio':
          emit({
            kind: 'audio',
            src: attributes.src.trim(),
            fallback: text.replace(/\s+/g, ' ').trim(),
            style,
            line: frame.line,
            column: frame.column,
            at,
          });
          break;
        case 'desc': {
          const parent = top();
          if (parent?.name !== 'audio') fail('<desc> stands only inside <audio>', frame.line, frame.column);
          break;
        }
        case 'p':
        case 's':
          pause(frame.name === 'p' ? PARAGRAPH_PAUSE : SENTENCE_PAUSE, false);
          break;
      }
    } catch (error) {
      if (error instanceof SayAsError) fail(`<say-as> ${error.message}`, frame.line, frame.column);
      throw error;
    }
  });
  parser.on('error', (error) => {
    // saxes says "line:column: message"; the column it gives is 0-based.
    const match = /^(?:[^:]*:)?(\d+):(\d+): ([\s\S]*)$/.exec(error.message);
    if (match) fail(match[3], Number(match[1]), Number(match[2]) + 1);
    fail(error.message, parser.line, parser.column + 1);
  });

  parser.write(source).close();
  if (!sawRoot) fail('the document has no <speak> element', 1, 1);
  if (pending?.explicit && pending.seconds > 0) steps.push({ kind: 'pause', seconds: pending.seconds });
  return { steps, voices, ignored };
}

function applyProsody(
  style: SpeechStyle,
  attributes: Record<string, string>,
  fail: (reason: string) => never,
  note: (key: string, reason: string) => void,
): void {
  if (attributes.rate !== undefined) {
    const rate = parseRate(attributes.rate);
    if (rate === undefined || rate <= 0)
      fail(
        `<prosody rate="${attributes.rate}">: rate must be x-slow…x-fast, a percentage like 80% or +10%, or a factor like 1.2`,
      );
    style.rate = clampRate(style.rate * rate);
  }
  if (attributes.pitch !== undefined) {
    const pitch = parsePitch(attributes.pitch);
    if (pitch === undefined) {
      if (/hz\s*$/i.test(attributes.pitch))
        note(
          'prosody pitch',
          `pitch="${attributes.pitch}": absolute pitch in Hz is not taken; use a relative value like +10% or -2st`,
        );
      else fail(`<prosody pitch="${attributes.pitch}">: pitch must be x-low…x-high, a change like +10% or -2st`);
    } else {
      style.pitch *= Math.min(2, Math.max(0.5, pitch));
    }
  }
  if (attributes.volume !== undefined) {
    const volume = parseVolume(attributes.volume);
    if (volume === undefined)
      fail(`<prosody volume="${attributes.volume}">: volume must be silent, x-soft…x-loud or a change like +6dB`);
    style.volumeDb += volume;
  }
  for (const other of ['contour', 'range', 'duration']) {
    if (attributes[other] !== undefined) note(`prosody ${other}`, `${other} is not taken by any engine here`);
  }
}

/** `[start, end)` of the source without the whitespace at its edges. */
function trimmedRange(source: string, start: number, end: number): SourceRange {
  while (start < end && /\s/.test(source[start])) start++;
  while (end > start && /\s/.test(source[end - 1])) end--;
  return { start, end };
}

const clampRate = (rate: number): number => Math.min(MAX_RATE, Math.max(MIN_RATE, rate));

function sameStyle(a: SpeechStyle, b: SpeechStyle): boolean {
  return (
    a.rate === b.rate &&
    a.pitch === b.pitch &&
    a.volumeDb === b.volumeDb &&
    a.voice === b.voice &&
    a.language === b.language
  );
}
