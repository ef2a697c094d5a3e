import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveStyle } from '../../src/contract/subtitle-style';
import { charactersThatFit, readingSpeed, translateCues, type SourceCue } from '../../src/translate/translate-cues';
import {
  answerSchema,
  cueInContext,
  languageName,
  MalformedAnswerError,
  MAX_ANSWER_CHARS,
  parseAnswer,
  shorteningPrompt,
  translationPrompt,
  translationRoom,
  type AnswerSchema,
  type ChatPrompt,
} from '../../src/translate/translate-prompt';

const style = resolveStyle('default');

describe('translation prompts', () => {
  it('names the languages and gives the neighbouring cues as context only', () => {
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const cue = cueInContext(texts, 2);
    assert.deepEqual(cue, { before: ['one', 'two'], text: 'three', after: ['four', 'five'] });
    const prompt = translationPrompt(cue, 'de', 'en');
    assert.match(prompt.system, /into German/);
    assert.match(prompt.user, /from English into German:\n\n"three"/);
    assert.match(prompt.user, /just before it \(context only, do not translate\):\n- "one"\n- "two"/);
    assert.match(prompt.user, /just after it \(context only, do not translate\):\n- "four"\n- "five"/);
  });

  it('leaves out context that is not there, and an unknown source language', () => {
    const prompt = translationPrompt(cueInContext(['only'], 0), 'pt-BR');
    assert.doesNotMatch(prompt.user, /context only/);
    assert.match(prompt.user, /from its original language into Brazilian Portuguese/);
    assert.equal(languageName('zz-unknownxx'), 'zz-unknownxx');
  });

  it('quotes cue text as JSON, so a quote in a cue cannot end the instruction', () => {
    const prompt = translationPrompt(cueInContext(['He said "stop" and left.'], 0), 'fr');
    assert.match(prompt.user, /"He said \\"stop\\" and left\."/);
  });

  it('asks a shortening with the character budget', () => {
    const prompt = shorteningPrompt('Das ist eine sehr lange Übersetzung', 20, 'de');
    assert.match(prompt.user, /at most 20 characters/);
    assert.match(prompt.system, /German subtitles/);
  });

  it('bounds every answer schema, never empty, never past the global bound', () => {
    assert.deepEqual(answerSchema(30).properties.translation, { type: 'string', minLength: 1, maxLength: 30 });
    assert.equal(answerSchema(0).properties.translation.maxLength, 1);
    assert.equal(answerSchema(10_000).properties.translation.maxLength, MAX_ANSWER_CHARS);
    assert.equal(translationRoom('abc'), 46);
    assert.equal(translationRoom('x'.repeat(1000)), MAX_ANSWER_CHARS);
  });
});

describe('parseAnswer', () => {
  it('reads the translation, its whitespace and control characters made single spaces', () => {
    assert.equal(parseAnswer('{"translation": "  Hallo\\nWelt\\b, wie  geht\'s? "}'), "Hallo Welt , wie geht's?");
  });

  it('refuses what the grammar would never let through, naming what is wrong', () => {
    assert.throws(() => parseAnswer('{"translation": "cut off'), MalformedAnswerError);
    assert.throws(() => parseAnswer('["x"]'), /not a JSON object/);
    assert.throws(() => parseAnswer('{"text": "x"}'), /no "translation" string/);
    assert.throws(() => parseAnswer('{"translation": 3}'), /no "translation" string/);
  });
});

/** A model that answers from a script, recording what it was asked: the unit under test is the orchestration. */
function scriptedModel(answers: (prompt: ChatPrompt, schema: AnswerSchema) => string) {
  const asked: Array<{ prompt: ChatPrompt; schema: AnswerSchema }> = [];
  return {
    asked,
    ask: async (prompt: ChatPrompt, schema: AnswerSchema) => {
      asked.push({ prompt, schema });
      return JSON.stringify({ translation: answers(prompt, schema) });
    },
  };
}

describe('translateCues', () => {
  const cues: SourceCue[] = [
    { start: 1, end: 4, text: 'Good morning,' },
    { start: 4.1, end: 5, text: 'everyone here today.', speaker: 'Ann' },
    { start: 5.2, end: 5.7, text: 'Thanks for coming to this very long meeting.' },
  ];

  it('keeps every cue and its times, lays out lines by the style, shortens a cue that reads too fast', async () => {
    const model = scriptedModel((prompt, schema) => {
      if (prompt.user.startsWith('Say this')) return 'Kurz.'.slice(0, schema.properties.translation.maxLength);
      // The cue asked about is the JSON string after the first blank line; the others are context.
      const subject = JSON.parse(prompt.user.split('\n\n')[1]) as string;
      if (subject === 'Good morning,') return 'Guten Morgen,';
      if (subject === 'everyone here today.') return 'alle, die heute hier sind.';
      return 'Danke, dass Sie zu dieser sehr langen Besprechung gekommen sind, wirklich.';
    });
    const progress: number[] = [];
    const result = await translateCues(cues, {
      to: 'de',
      style,
      ask: model.ask,
      onProgress: (done) => progress.push(done),
    });
    assert.deepEqual(
      result.cues.map((cue) => [cue.start, cue.end]),
      cues.map((cue) => [cue.start, cue.end]),
    );
    assert.deepEqual(result.cues[0].lines, ['Guten Morgen,']);
    assert.equal(result.cues[1].speaker, 'Ann');
    // Cue 2 holds 26 characters in 0.9 s (28.9/s > 17/s), and 15 fit: above half, so it is rewritten once.
    assert.deepEqual(result.shortened, [2]);
    const rewrite = model.asked.find((a) => a.prompt.user.startsWith('Say this'))!;
    assert.equal(rewrite.schema.properties.translation.maxLength, charactersThatFit(4.1, 5, style));
    assert.deepEqual(result.cues[1].lines, ['Kurz.']);
    // Cue 3: 8 characters fit in 0.5 s, less than half its translation: flagged, not rewritten.
    assert.equal(result.flagged.length, 1);
    assert.equal(result.flagged[0].index, 3);
    assert.ok(result.flagged[0].charsPerSecond > style.maxCharsPerSecond);
    assert.ok(result.cues[2].lines.length <= style.maxLines);
    assert.ok(result.cues[2].lines.every((line) => line.length <= style.maxLineChars));
    assert.deepEqual(progress, [1 / 3, 2 / 3, 1]);
  });

  it('does not ask the model about an empty cue', async () => {
    const model = scriptedModel(() => 'x');
    const result = await translateCues([{ start: 0, end: 2, text: '  ' }], { to: 'de', style, ask: model.ask });
    assert.equal(model.asked.length, 0);
    assert.deepEqual(result.cues[0].lines, []);
  });

  it('measures reading speed in characters per second', () => {
    assert.equal(readingSpeed('abcdefghij', 0, 2), 5);
    assert.equal(charactersThatFit(0, 2, style), 34);
  });
});
