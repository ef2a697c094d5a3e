import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cardinalWords, moneyWords, ordinalWords, yearWords } from '../../src/text/english-numbers';
import { markdownToSpeech } from '../../src/text/markdown';
import { normalizeText } from '../../src/text/normalize';
import { speakUrl } from '../../src/text/urls';

describe('English number words', () => {
  it('reads cardinals, ordinals and years as people say them', () => {
    assert.equal(cardinalWords(0), 'zero');
    assert.equal(cardinalWords(1_234_567), 'one million two hundred thirty-four thousand five hundred sixty-seven');
    assert.equal(cardinalWords(-40), 'minus forty');
    assert.deepEqual([1, 2, 3, 12, 21, 40, 101].map(ordinalWords), [
      'first',
      'second',
      'third',
      'twelfth',
      'twenty-first',
      'fortieth',
      'one hundred first',
    ]);
    assert.deepEqual([1999, 1900, 2005, 2024, 1066].map(yearWords), [
      'nineteen ninety-nine',
      'nineteen hundred',
      'two thousand five',
      'twenty twenty-four',
      'ten sixty-six',
    ]);
  });

  it('reads money with its currency and cents', () => {
    assert.equal(moneyWords('$', '1,234.56'), 'one thousand two hundred thirty-four dollars and fifty-six cents');
    assert.equal(moneyWords('€', '1'), 'one euro');
    assert.equal(moneyWords('£', '0.50'), 'fifty pence');
    assert.equal(moneyWords('$', '2.5', 'million'), 'two point five million dollars');
  });
});

describe('normalizeText (preprocessPrompt)', () => {
  it('turns numbers, money, percentages, dates, times and units into English words', () => {
    assert.equal(
      normalizeText('It cost $12.50 on 2024-03-15 at 10:30 am.', 'en-US'),
      'It cost twelve dollars and fifty cents on March fifteenth, twenty twenty-four at ten thirty A M.',
    );
    assert.equal(
      normalizeText('In 1999, 1,234 users (45%) ran 5 km; pages 10-20; -5 °C.', 'en-US'),
      'In nineteen ninety-nine, one thousand two hundred thirty-four users (forty-five percent) ran five kilometers; pages ten to twenty; minus five degrees Celsius.',
    );
    assert.equal(
      normalizeText('She came 21st at 9:05 and 12:00.', 'en'),
      "She came twenty-first at nine oh five and twelve o'clock.",
    );
  });

  it('reads phone numbers digit by digit, decades, rates and times with seconds, and leaves codes like 3D alone', () => {
    assert.equal(
      normalizeText('Call 555-1234 or +1 (555) 123-4567.', 'en-US'),
      'Call five five five, one two three four or plus one, five five five, one two three, four five six seven.',
    );
    assert.equal(normalizeText('The 1990s and the 80s.', 'en'), 'The nineteen nineties and the eighties.');
    assert.equal(
      normalizeText('Only $5.99/month, #1 in 3D at 10:30:15.', 'en'),
      'Only five dollars and ninety-nine cents per month, number one in 3D at ten thirty and fifteen seconds.',
    );
    assert.equal(normalizeText('Version 1.2.3 on 192.168.1.1', 'en'), 'Version 1.2.3 on 192.168.1.1');
  });

  it('reads dates day first outside the United States', () => {
    assert.equal(normalizeText('3/4/2024', 'en-US'), 'March fourth, twenty twenty-four');
    assert.equal(normalizeText('3/4/2024', 'en-GB'), 'April third, twenty twenty-four');
  });

  it('expands common abbreviations', () => {
    assert.equal(
      normalizeText('Dr. Smith vs. Mr. Jones, e.g. today, etc.', 'en-US'),
      'Doctor Smith versus Mister Jones, for example today, et cetera',
    );
  });

  it('reads web and e-mail addresses instead of spelling their symbols', () => {
    assert.equal(
      speakUrl('https://www.example.com/docs/getting-started.html?x=1#top'),
      'example dot com slash docs slash getting started dot html',
    );
    assert.equal(
      normalizeText('Write to ana.b@example.org or see https://example.com/a.', 'en-US'),
      'Write to ana dot b at example dot org or see example dot com slash a.',
    );
    assert.equal(normalizeText('Voir https://exemple.fr/page', 'fr-FR'), 'Voir exemple point fr slash page');
  });

  it('leaves numbers to the engine in other languages', () => {
    assert.equal(normalizeText('Il a 21 ans et 3,5 kg.', 'fr-FR'), 'Il a 21 ans et 3,5 kg.');
  });
});

describe('markdownToSpeech', () => {
  it('keeps the words of Markdown and drops its symbols', () => {
    const markdown = [
      '# Release notes',
      '',
      'Some **bold**, _italic_ and ~~old~~ text with `inline_code()` and a [link](https://example.com "t").',
      '',
      '- first item',
      '1. numbered item!',
      '> quoted',
      '',
      '![diagram of the flow](img.png)',
      '',
      '---',
      '[ref]: https://example.com',
    ].join('\n');
    assert.equal(
      markdownToSpeech(markdown),
      'Release notes.\n\nSome bold, italic and old text with inline code and a link.\n\nfirst item.\nnumbered item!\nquoted\n\ndiagram of the flow\n\n',
    );
  });

  it('does not read fenced code symbol by symbol', () => {
    const text = 'Run this:\n```ts\nconst x = { a: [1, 2] };\n```\nDone.';
    assert.equal(markdownToSpeech(text, 'en-US'), 'Run this:\nCode block omitted.\n\nDone.');
    assert.equal(markdownToSpeech(text, 'de-DE'), 'Run this:\n\nDone.');
    assert.equal(markdownToSpeech('~~~\nunclosed fence\nstill code'), 'Code block omitted.\n');
  });

  it('reads table rows as lists and skips their separator rows', () => {
    assert.equal(markdownToSpeech('| Name | Age |\n|---|:---:|\n| Ana | 7 |'), 'Name, Age.\nAna, 7.');
  });

  it('leaves plain comparisons alone', () => {
    assert.equal(markdownToSpeech('if a < b and c > d'), 'if a < b and c > d');
  });
});
