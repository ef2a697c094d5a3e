import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hallucinationFlags, isStockPhrase, loops, tooFast } from '../../src/subtitles/hallucination-flags';
import { checkInventedText, removeCueEdit } from '../../src/subtitles/invented-text';
import { flagSegments } from '../../src/engine/stt/flag-segments';

const at = (start: number, end: number, text: string) => ({ start, end, text });

describe('hallucination flags', () => {
  it('flags a phrase looping inside a segment, not a word said twice or thrice', () => {
    assert.equal(loops('I think we should go, we should go, we should go, we should go.'), true);
    assert.equal(loops('the the the the the end'), true);
    assert.equal(loops('No, no, no! Not that one.'), false);
    assert.equal(loops('We should go. Yes, we should go now.'), false);
  });

  it('flags a segment repeating the one before: at once for a sentence, on the third time for a short answer', () => {
    const flags = hallucinationFlags([
      at(0, 2, 'We will be right back after this.'),
      at(2, 4, 'We will be right back after this.'),
      at(4, 5, 'Yes.'),
      at(5, 6, 'Yes.'),
      at(6, 7, 'yes'),
    ]);
    assert.deepEqual(flags, [[], ['repetition'], [], [], ['repetition']]);
  });

  it('flags stock phrases in at least ten languages, folded for case, width and punctuation, when they make up the segment', () => {
    const stock = [
      'Thanks for watching!',
      'Vielen Dank fürs Zuschauen.',
      "Merci d'avoir regardé.",
      'Gracias por ver el video.',
      'Grazie per la visione!',
      'Obrigado por assistir.',
      'Bedankt voor het kijken.',
      'Dziękuję za uwagę.',
      'Спасибо за просмотр!',
      'İzlediğiniz için teşekkürler.',
      'ご視聴ありがとうございました',
      '谢谢观看',
      '시청해 주셔서 감사합니다.',
      'Untertitel der Amara.org-Community',
      'ＴＨＡＮＫＳ ＦＯＲ ＷＡＴＣＨＩＮＧ',
    ];
    for (const text of stock) assert.equal(isStockPhrase(text), true, text);
    assert.equal(
      isStockPhrase('Thanks for watching the game with me yesterday, it was a long and wonderful afternoon.'),
      false,
      'part of a real sentence',
    );
    assert.equal(isStockPhrase('And so my fellow Americans, ask not what your country can do for you.'), false);
  });

  it('flags text over a span voice activity detection calls silence, only when detection ran', () => {
    const segments = [at(0, 4, 'Ask not what your country can do for you.'), at(10, 13, 'Thank you.')];
    const speech = [
      { start: 0.3, end: 3.8 },
      { start: 12.9, end: 13 },
    ];
    assert.deepEqual(hallucinationFlags(segments, { speech }), [[], ['no-speech']]);
    assert.deepEqual(hallucinationFlags(segments), [[], []]);
  });

  it('flags reading speeds no speaker reaches, for words and for CJK characters', () => {
    assert.equal(tooFast(at(0, 1, 'one two three four five six seven eight nine ten')), true);
    assert.equal(tooFast(at(0, 3, 'one two three four five six seven eight nine ten')), false);
    assert.equal(tooFast(at(0, 1, '今天天气很好我们去公园散步吧然后吃饭')), true);
    assert.equal(tooFast(at(0, 3, '今天天气很好我们去公园散步吧')), false);
    assert.equal(tooFast(at(2, 2, 'Hello')), true, 'text in no time at all');
  });

  it('leaves empty segments and ordinary speech unflagged, and lists several flags together', () => {
    const flags = hallucinationFlags([
      at(0, 0.5, ''),
      at(0, 5, 'And so, my fellow Americans.'),
      at(5, 5.2, 'Thanks for watching, thanks for watching, thanks for watching'),
    ]);
    assert.deepEqual(flags, [[], [], ['repetition', 'stock-phrase', 'too-fast']]);
  });
});

describe('invented text in a subtitle file', () => {
  const SRT = [
    '1',
    '00:00:00,000 --> 00:00:03,000',
    'Ask not what your country can do for you.',
    '',
    '2',
    '00:00:03,500 --> 00:00:06,000',
    '<i>Thanks for watching!</i>',
    '',
    '3',
    '00:00:06,500 --> 00:00:07,000',
    'one two three four five six seven eight nine ten',
    '',
    '4',
    '00:00:20,000 --> 00:00:22,000',
    'Ask what you can do.',
    '',
  ].join('\n');

  it('names each flagged cue on its timing line, with tags ignored, and text over silence once speech is known', () => {
    assert.deepEqual(
      checkInventedText(SRT, 'srt').map(({ flag, cue, line }) => `${cue}:${line}:${flag}`),
      ['2:6:stock-phrase', '3:10:too-fast'],
    );
    const speech = [{ start: 0, end: 7 }];
    assert.deepEqual(
      checkInventedText(SRT, 'srt', speech).map(({ flag, cue }) => `${cue}:${flag}`),
      ['2:stock-phrase', '3:too-fast', '4:no-speech'],
    );
    assert.match(checkInventedText(SRT, 'srt')[1].message, /cue 3 holds more words than anyone says in 0\.5 s/);
  });

  it('removes a cue with its number and the blank line after it, in SRT and WebVTT', () => {
    const apply = (source: string, edit: { start: number; end: number; text: string } | undefined): string => {
      assert.ok(edit);
      return source.slice(0, edit.start) + edit.text + source.slice(edit.end);
    };
    const without2 = apply(SRT, removeCueEdit(SRT, 'srt', 2));
    assert.doesNotMatch(without2, /Thanks for watching/);
    assert.deepEqual(
      checkInventedText(without2, 'srt').map(({ cue, flag }) => `${cue}:${flag}`),
      ['2:too-fast'],
    );
    assert.match(without2, /do for you\.\n\n3\n00:00:06,500/);
    const vtt =
      'WEBVTT\n\n00:00.000 --> 00:03.000\nHello there.\n\nintro\n00:03.500 --> 00:06.000\nThanks for watching!\n';
    assert.equal(apply(vtt, removeCueEdit(vtt, 'vtt', 2)), 'WEBVTT\n\n00:00.000 --> 00:03.000\nHello there.\n\n');
    assert.equal(
      apply(vtt, removeCueEdit(vtt, 'vtt', 1)),
      'WEBVTT\n\nintro\n00:03.500 --> 00:06.000\nThanks for watching!\n',
    );
    assert.equal(removeCueEdit(vtt, 'vtt', 3), undefined);
  });
});

describe('the engine flags transcript segments', () => {
  const segment = (start: number, end: number, text: string) => ({ start, end, text, words: [] });

  it('judges speech in media time: VAD ranges of a cropped decode are moved by the crop start', () => {
    // Decoded from 60 s on: VAD heard 0–2 s of it, which is 60–62 s of the media.
    const segments = [segment(60.2, 61.8, 'Hello there, how are you?'), segment(63, 64, 'Goodbye now.')];
    const flagged = flagSegments(segments, [{ start: 0, end: 2 }], 60);
    assert.equal(flagged[0].flags, undefined, 'no empty list');
    assert.deepEqual(flagged[1].flags, ['no-speech']);
    assert.deepEqual(
      flagSegments(segments, undefined, 60).map((s) => s.flags),
      [undefined, undefined],
      'no VAD, no no-speech',
    );
  });
});
