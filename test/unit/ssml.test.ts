/** The SSML reader: every element of the subset into plan steps, say-as expansions, and refusals with positions. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSsml, SsmlError } from '../../src/text/ssml/parse-ssml';
import { sayAs } from '../../src/text/ssml/say-as';
import { looksLikeSsml, type SsmlStep } from '../../src/text/ssml/ssml-plan';

const speech = (steps: SsmlStep[]) => steps.filter((step) => step.kind === 'speech');

function refusal(source: string): SsmlError {
  try {
    parseSsml(source);
  } catch (error) {
    assert.ok(error instanceof SsmlError, `expected an SsmlError, got ${String(error)}`);
    return error;
  }
  assert.fail('the SSML was accepted');
}

describe('say-as expansions (English)', () => {
  it('reads a cardinal or ordinal of more than 15 digits digit by digit, where Number() is inexact or Infinity', () => {
    assert.equal(
      sayAs('1234567890123456', 'cardinal', undefined, 'en'),
      'one two three four five six seven eight nine zero one two three four five six',
    );
    assert.equal(sayAs(`-${'9'.repeat(80)}`, 'cardinal', undefined, 'en'), `minus ${'nine '.repeat(80).trim()}`);
    assert.equal(sayAs('7'.repeat(400), 'ordinal', undefined, 'en'), 'seven '.repeat(400).trim());
    assert.equal(sayAs('123456789012345', 'cardinal', undefined, 'en').split(' ')[0], 'one');
  });

  it('spells characters and spell-out letter by letter', () => {
    assert.equal(sayAs('NASA', 'characters', undefined, 'en'), 'N A S A');
    assert.equal(sayAs('ab 1', 'spell-out', undefined, 'en-US'), 'a b 1');
  });
  it('reads cardinals and decimals', () => {
    assert.equal(sayAs('1,234', 'cardinal', undefined, 'en'), 'one thousand two hundred thirty-four');
    assert.equal(sayAs('-3.05', 'cardinal', undefined, 'en'), 'minus three point zero five');
  });
  it('reads ordinals, with or without a suffix', () => {
    assert.equal(sayAs('3', 'ordinal', undefined, 'en'), 'third');
    assert.equal(sayAs('21st', 'ordinal', undefined, 'en'), 'twenty-first');
  });
  it('reads dates in the order of their format, ISO dates without one', () => {
    assert.equal(sayAs('2024-03-15', 'date', undefined, 'en'), 'March fifteenth, twenty twenty-four');
    assert.equal(sayAs('15/03/1999', 'date', 'dmy', 'en'), 'March fifteenth, nineteen ninety-nine');
    assert.equal(sayAs('12-25', 'date', 'md', 'en'), 'December twenty-fifth');
    assert.equal(sayAs('2005', 'date', 'y', 'en'), 'two thousand five');
  });
  it('reads times in 24 and 12 hours', () => {
    assert.equal(sayAs('14:30', 'time', undefined, 'en'), 'fourteen thirty');
    assert.equal(sayAs('09:05', 'time', undefined, 'en'), 'oh nine oh five');
    assert.equal(sayAs('2:30 pm', 'time', undefined, 'en'), 'two thirty P M');
    assert.equal(sayAs('14:00', 'time', 'hms12', 'en'), "two o'clock P M");
  });
  it('reads telephone numbers digit by digit in groups', () => {
    assert.equal(sayAs('+1 555-0123', 'telephone', undefined, 'en'), 'plus one, five five five, zero one two three');
  });
  it('leaves digits to the voice in other languages, shaped for it', () => {
    assert.equal(sayAs('3', 'ordinal', undefined, 'de'), '3.');
    assert.equal(sayAs('2024-03-15', 'date', undefined, 'fr-FR'), '15.3.2024');
    assert.equal(sayAs('1,234', 'cardinal', undefined, 'de'), '1234');
  });
  it('refuses text that is not what it claims to be', () => {
    assert.throws(() => sayAs('abc', 'cardinal', undefined, 'en'), /not a number/);
    assert.throws(() => sayAs('13/45', 'date', 'md', 'en'), /month 13/);
    assert.throws(() => sayAs('25:00', 'time', undefined, 'en'), /not a time of day/);
  });
});

describe('parseSsml', () => {
  it('tells SSML from plain text by its <speak> root', () => {
    assert.equal(looksLikeSsml('  <speak>Hi</speak>'), true);
    assert.equal(looksLikeSsml('<?xml version="1.0"?>\n<speak version="1.1">Hi</speak>'), true);
    assert.equal(looksLikeSsml('Say <speak> please'), false);
    assert.equal(looksLikeSsml('<speaker>'), false);
  });

  it('turns breaks into exact pauses, and time wins over strength', () => {
    const plan = parseSsml(
      '<speak>One <break time="700ms"/> two <break strength="strong"/> three <break time="1.5s" strength="weak"/> four</speak>',
    );
    assert.deepEqual(
      plan.steps.map((step) => (step.kind === 'pause' ? step.seconds : step.kind === 'speech' ? step.text : step.kind)),
      ['One', 0.7, 'two', 0.75, 'three', 1.5, 'four'],
    );
  });

  it('puts implied pauses between sentences and paragraphs, replaced by an explicit break', () => {
    const plan = parseSsml(
      '<speak><p><s>First.</s><s>Second.</s></p><p>Third.</p><break time="200ms"/><p>Fourth.</p></speak>',
    );
    const shape = plan.steps.map((step) =>
      step.kind === 'pause' ? step.seconds : step.kind === 'speech' ? step.text : '',
    );
    assert.deepEqual(shape, ['First.', 0.4, 'Second.', 0.75, 'Third.', 0.2, 'Fourth.']);
  });

  it('multiplies nested prosody rates and adds volumes; pitch in percent and semitones', () => {
    const plan = parseSsml(
      '<speak><prosody rate="50%" volume="-6dB"><prosody rate="fast" pitch="+12st" volume="loud">x</prosody></prosody><prosody pitch="-10%">y</prosody></speak>',
    );
    const [x, y] = speech(plan.steps);
    assert.deepEqual([x.style.rate, x.style.volumeDb, x.style.pitch], [0.625, 0, 2]);
    assert.equal(y.style.pitch, 0.9);
  });

  it('emphasis slows and raises the voice', () => {
    const [plain, strong] = speech(parseSsml('<speak>a <emphasis level="strong">b</emphasis></speak>').steps);
    assert.ok(strong.style.rate < plain.style.rate && strong.style.volumeDb > plain.style.volumeDb);
  });

  it('expands say-as, replaces sub by its alias, keeps phonemes beside the written word', () => {
    const source =
      '<speak><say-as interpret-as="ordinal">2</say-as> <sub alias="World Wide Web">WWW</sub> <phoneme alphabet="ipa" ph="təˈmɑːtəʊ">tomato</phoneme></speak>';
    const steps = speech(parseSsml(source).steps);
    assert.equal(steps[0].text, 'second World Wide Web');
    assert.equal(
      source.slice(steps[0].at.start, steps[0].at.end),
      '<say-as interpret-as="ordinal">2</say-as> <sub alias="World Wide Web">WWW</sub>',
      'a merged run is written from its first element to its last',
    );
    const phoneme = { start: source.indexOf('<phoneme'), end: source.indexOf('</speak>') };
    assert.deepEqual(steps[1], {
      kind: 'speech',
      text: 'tomato',
      style: steps[1].style,
      phonemes: { alphabet: 'ipa', ph: 'təˈmɑːtəʊ' },
      at: phoneme,
    });
  });

  it('say-as follows the language of the element around it', () => {
    const [step] = speech(parseSsml('<speak xml:lang="de-DE"><say-as interpret-as="ordinal">3</say-as></speak>').steps);
    assert.equal(step.text, '3.');
    assert.equal(step.style.language, 'de-DE');
  });

  it('records voices and languages on the speech they cover', () => {
    const plan = parseSsml('<speak>a<voice name="Alice">b<lang xml:lang="fr">c</lang></voice></speak>');
    const [a, b, c] = speech(plan.steps);
    assert.deepEqual(
      [a.style.voice, b.style.voice, c.style.voice, c.style.language],
      [undefined, 'Alice', 'Alice', 'fr'],
    );
    assert.deepEqual(plan.voices, ['Alice']);
  });

  it('keeps audio inserts with their fallback text and position', () => {
    const plan = parseSsml('<speak>Hear\n  <audio src="chime.wav"><desc>a bell</desc>ding</audio></speak>');
    const audio = plan.steps.find((step) => step.kind === 'audio');
    assert.deepEqual(audio && { src: audio.src, fallback: audio.fallback, line: audio.line, column: audio.column }, {
      src: 'chime.wav',
      fallback: 'ding',
      line: 2,
      column: 3,
    });
  });

  it('notes what it reads but does not use', () => {
    const plan = parseSsml('<speak><prosody contour="(0%,+20Hz)" pitch="200Hz">x</prosody><mark name="m1"/></speak>');
    assert.deepEqual(Object.keys(plan.ignored).sort(), ['prosody contour', 'prosody pitch']);
  });

  it('decodes entities in text', () => {
    assert.equal(speech(parseSsml('<speak>Tom &amp; Jerry &lt;3</speak>').steps)[0].text, 'Tom & Jerry <3');
  });

  it('refuses malformed XML naming line and column', () => {
    const error = refusal('<speak>\n  Hello <break time="1s">\n</speak>');
    assert.equal(error.line, 3);
    assert.match(error.message, /^SSML line 3, column \d+: /);
  });

  it('refuses unknown elements and bad values at the element', () => {
    const unknown = refusal('<speak>\nHi <blink>x</blink></speak>');
    assert.deepEqual([unknown.line, unknown.column], [2, 4]);
    assert.match(unknown.reason, /<blink> is not an element/);
    assert.match(refusal('<speak><break time="soon"/></speak>').reason, /time must be like 500ms/);
    assert.match(refusal('<speak><prosody rate="zippy">x</prosody></speak>').reason, /rate must be/);
    assert.match(
      refusal('<speak><say-as interpret-as="verbatim">x</say-as></speak>').reason,
      /interpret-as must be one of/,
    );
    assert.match(refusal('<speak><say-as interpret-as="cardinal">lots</say-as></speak>').reason, /not a number/);
    assert.match(refusal('<speak><sub>x</sub></speak>').reason, /alias/);
    assert.match(refusal('<speak><audio src="https://example.com/a.mp3"/></speak>').reason, /not URLs/);
    assert.match(refusal('<p>Hi</p>').reason, /must start with <speak>/);
    assert.match(
      refusal('<speak><say-as interpret-as="cardinal"><emphasis>1</emphasis></say-as></speak>').reason,
      /holds only text/,
    );
  });
});
