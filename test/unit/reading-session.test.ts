import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReadingSession, type SentenceAudio, type SentencePlayer } from '../../src/read-aloud/reading-session';
import { estimateWordTimes, wordAt } from '../../src/read-aloud/word-timing';
import type { ReadingSentence } from '../../src/text/reading-sentences';

const sentences = (count: number): ReadingSentence[] =>
  Array.from({ length: count }, (_, i) => ({
    start: i * 10,
    end: i * 10 + 9,
    text: `Sentence ${i}.`,
    wordStarts: [i * 10, i * 10 + 9],
  }));

/** Syntheses that wait until the test answers them, so each step of the pipeline is visible. */
class ScriptedSynth {
  readonly asked: { text: string; speed: number; signal: AbortSignal; answer(): void; fail(error: Error): void }[] = [];
  readonly synthesize = (text: string, speed: number, signal: AbortSignal): Promise<SentenceAudio> =>
    new Promise((resolve, reject) => {
      const audio: SentenceAudio = { sampleRate: 1000, pcm: '', durationSeconds: 1, words: null };
      this.asked.push({ text, speed, signal, answer: () => resolve(audio), fail: reject });
    });
  /** Answers the oldest open request and lets the session handle it. */
  async answer(): Promise<void> {
    this.asked.shift()!.answer();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A player that records what it was told; the test plays the part of the audio clock. */
class RecordingPlayer implements SentencePlayer {
  readonly calls: string[] = [];
  enqueue(index: number, _audio: SentenceAudio, pauseSeconds: number): void {
    this.calls.push(`enqueue ${index} after ${pauseSeconds}`);
  }
  drop(fromIndex: number): void {
    this.calls.push(`drop ${fromIndex}`);
  }
  pause(): void {
    this.calls.push('pause');
  }
  resume(): void {
    this.calls.push('resume');
  }
  stop(): void {
    this.calls.push('stop');
  }
}

function reading(count = 4, options: { speed?: number } = {}) {
  const synth = new ScriptedSynth();
  const player = new RecordingPlayer();
  const session = new ReadingSession(sentences(count), {
    synthesize: synth.synthesize,
    player,
    pauseSeconds: 0.3,
    lookahead: 1,
    ...options,
  });
  const states: string[] = [];
  const spoken: number[] = [];
  session.on('state', (state) => states.push(state));
  session.on('sentence', (index) => spoken.push(index));
  return { synth, player, session, states, spoken };
}

describe('Read Aloud session: the state machine and its pipeline', () => {
  it('synthesizes the next sentence while one plays, and finishes after the last', async () => {
    const { synth, player, session, states, spoken } = reading(3);
    session.start();
    assert.equal(session.state, 'loading');
    assert.deepEqual(
      synth.asked.map((a) => a.text),
      ['Sentence 0.'],
      'one synthesis at a time',
    );
    await synth.answer();
    assert.deepEqual(player.calls, ['drop 0', 'enqueue 0 after 0'], 'the first sentence plays without a pause');
    assert.deepEqual(
      synth.asked.map((a) => a.text),
      ['Sentence 1.'],
      'sentence 1 is made before sentence 0 has even started',
    );
    await synth.answer();
    assert.equal(player.calls.at(-1), 'enqueue 1 after 0.3');
    assert.equal(synth.asked.length, 0, 'no further than the lookahead');
    session.onPlayerStarted(0);
    assert.equal(session.state, 'playing');
    assert.equal(synth.asked.length, 0, 'sentence 1 is ready: nothing more is made yet');
    session.onPlayerEnded(0);
    session.onPlayerStarted(1);
    assert.deepEqual(
      synth.asked.map((a) => a.text),
      ['Sentence 2.'],
      'sentence 2 is made while sentence 1 plays',
    );
    await synth.answer();
    session.onPlayerEnded(1);
    session.onPlayerStarted(2);
    session.onPlayerEnded(2);
    assert.deepEqual(spoken, [0, 1, 2]);
    assert.deepEqual(states, ['playing', 'finished']);
    assert.ok(session.isOver);
  });

  it('waits for the engine (loading) when the player runs out, and plays on when the sentence comes', async () => {
    const { synth, session, states } = reading(3, {});
    session.start();
    await synth.answer();
    session.onPlayerStarted(0);
    session.onPlayerEnded(0);
    assert.deepEqual(states, ['playing', 'loading']);
    await synth.answer();
    session.onPlayerStarted(1);
    assert.deepEqual(states, ['playing', 'loading', 'playing']);
  });

  it('pauses and resumes the player; commands after the end change nothing', async () => {
    const { synth, player, session, states } = reading(2);
    session.start();
    await synth.answer();
    session.onPlayerStarted(0);
    session.pause();
    session.pause();
    assert.equal(session.state, 'paused');
    session.togglePause();
    assert.equal(session.state, 'playing');
    assert.deepEqual(
      player.calls.filter((c) => c === 'pause' || c === 'resume'),
      ['pause', 'resume'],
    );
    session.stop();
    session.resume();
    session.next();
    session.faster();
    assert.deepEqual(states, ['playing', 'paused', 'playing', 'stopped']);
    assert.equal(player.calls.at(-1), 'stop');
    assert.ok(
      synth.asked.every((a) => a.signal.aborted),
      'what was asked of the engine is stale',
    );
  });

  it('next and previous drop what the player holds and read from the new sentence; stale syntheses are ignored', async () => {
    const { synth, player, session, spoken } = reading(5);
    session.start();
    await synth.answer();
    session.onPlayerStarted(0);
    const stale = synth.asked.shift()!; // sentence 1, still in the engine
    session.next();
    assert.equal(session.current, 1);
    assert.ok(stale.signal.aborted);
    assert.equal(player.calls.at(-1), 'drop 0');
    stale.answer();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(!player.calls.some((c) => c.startsWith('enqueue 1 after 0.3')), 'the stale answer is not played');
    assert.equal(synth.asked.at(-1)?.text, 'Sentence 1.');
    await synth.answer();
    assert.equal(player.calls.at(-1), 'enqueue 1 after 0', 'after a jump the sentence plays at once');
    session.onPlayerStarted(1);
    session.previous();
    assert.equal(session.current, 0);
    while (synth.asked.length > 0 && synth.asked[0].signal.aborted) synth.asked.shift();
    await synth.answer();
    session.onPlayerStarted(0);
    assert.deepEqual(spoken, [0, 1, 0]);
  });

  it('a new speed applies from the next sentence: the playing one is kept, the ones made ahead are made again', async () => {
    const { synth, player, session } = reading(4);
    session.start();
    await synth.answer();
    await synth.answer(); // sentence 1 queued ahead at speed 1
    session.onPlayerStarted(0);
    session.faster();
    assert.equal(session.speed, 1.1);
    assert.equal(player.calls.at(-1), 'drop 1', 'sentence 0 keeps playing');
    const remade = synth.asked.filter((a) => !a.signal.aborted);
    assert.deepEqual(
      remade.map((a) => [a.text, a.speed]),
      [['Sentence 1.', 1.1]],
    );
    session.slower();
    session.slower();
    assert.equal(session.speed, 0.9);
  });

  it('an update after an edit keeps the sentence playing and the unchanged audio, and re-makes the changed sentences', async () => {
    const { synth, player, session, spoken, states } = reading(4);
    session.start();
    await synth.answer();
    await synth.answer(); // sentence 1 made ahead
    session.onPlayerStarted(0);
    const edited = [
      ...session.sentences.slice(0, 2),
      { start: 20, end: 29, text: 'Changed 2.', wordStarts: [20] },
      ...session.sentences.slice(3),
    ];
    session.update(edited, 2);
    assert.ok(!player.calls.includes('drop 2'), 'nothing was made from sentence 2 on: nothing to drop');
    assert.equal(session.sentences[2].text, 'Changed 2.');
    session.onPlayerEnded(0);
    session.onPlayerStarted(1);
    assert.deepEqual(
      synth.asked.filter((a) => !a.signal.aborted).map((a) => a.text),
      ['Changed 2.'],
      'the edited text is read',
    );
    await synth.answer();
    session.update([...edited.slice(0, 3), { start: 30, end: 40, text: 'Inserted.', wordStarts: [30] }, edited[3]], 1);
    assert.equal(player.calls.at(-1), 'drop 2', 'sentence 1 plays on; what was made after it is dropped');
    assert.deepEqual(
      synth.asked.filter((a) => !a.signal.aborted).map((a) => a.text),
      ['Changed 2.'],
    );
    await synth.answer();
    session.onPlayerEnded(1);
    session.onPlayerStarted(2);
    assert.equal(synth.asked.at(-1)?.text, 'Inserted.');
    await synth.answer();
    session.onPlayerEnded(2);
    session.onPlayerStarted(3);
    await synth.answer();
    session.onPlayerEnded(3);
    session.onPlayerStarted(4);
    session.onPlayerEnded(4);
    assert.deepEqual(spoken, [0, 1, 2, 3, 4]);
    assert.equal(states.at(-1), 'finished', 'the reading ends after the last sentence of the edited text');
  });

  it('an update that removes the sentences after one that ended finishes the reading', async () => {
    const { synth, session, states } = reading(3);
    session.start();
    await synth.answer();
    session.onPlayerStarted(0);
    session.onPlayerEnded(0); // sentence 1 is still in the engine
    assert.equal(session.state, 'loading');
    const stale = synth.asked[0];
    session.update(session.sentences.slice(0, 1), 1);
    assert.ok(stale.signal.aborted, 'the removed sentence is not made');
    assert.equal(session.state, 'finished');
    assert.deepEqual(states, ['playing', 'loading', 'finished']);
  });

  it('an engine failure stops the reading with the error', async () => {
    const { synth, session } = reading(2);
    let reported: unknown;
    session.on('state', (state, error) => state === 'stopped' && (reported = error));
    session.start();
    synth.asked[0].fail(new Error('the voice is gone'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(session.state, 'stopped');
    assert.match(String(reported), /the voice is gone/);
  });

  it('reports each word as the player reaches it, from estimated times when the engine gives none', async () => {
    const { synth, session } = reading(1);
    const words: number[] = [];
    session.on('word', (_index, word) => words.push(word.start));
    session.start();
    await synth.answer();
    session.onPlayerStarted(0);
    session.onPlayerTime(0, 0.2);
    session.onPlayerTime(0, 0.9);
    session.onPlayerTime(0, 0.95);
    assert.deepEqual(words, [0, 9], 'each word once, in order');
  });
});

describe('word timing', () => {
  it('spreads a sentence over its words by their length', () => {
    const words = estimateWordTimes('Hi there, reader.', 1.8);
    assert.deepEqual(
      words.map((w) => [w.start, w.end]),
      [
        [0, 2],
        [3, 8],
        [10, 16],
      ],
    );
    assert.deepEqual(
      words.map((w) => w.startSeconds),
      [0, 0.338, 1.013],
      'weights 3, 6 and 7 (letters and a space)',
    );
    assert.equal(wordAt(words, 0.5), 1);
    assert.equal(wordAt(words, -1), -1);
  });
});
