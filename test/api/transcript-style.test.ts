import assert from 'node:assert/strict';
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkSubtitles } from '../../src/subtitles/check';
import { HALLUCINATION_FLAGS, hallucinationFlags } from '../../src/subtitles/hallucination-flags';
import { resolveStyle, type SubtitleStyle } from '../../src/contract/subtitle-style';
import type { Transcript } from '../../src/subtitles/types';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, isTerminal, request, startTestServer, waitForJob, type TestServer } from '../helpers/server';
import { assertMonotonicCues, parseSrt, parseVtt } from '../helpers/subtitles';
import { testModel } from '../helpers/test-models';

/** Words of a talk as the recognizer stored them: 60 words, a sentence of ten every 5.5 s. */
function storedTranscript(base: Transcript): Transcript {
  const vocabulary = ['subtitles', 'follow', 'the', 'speaker', 'closely', 'and', 'stay', 'readable', 'for', 'viewers.'];
  const segments = Array.from({ length: 6 }, (_, s) => {
    const start = 1 + s * 5.5;
    const words = vocabulary.map((text, i) => ({
      text,
      start: start + i * 0.4,
      end: start + i * 0.4 + 0.35,
      probability: null,
    }));
    return { start, end: words[words.length - 1].end, text: vocabulary.join(' '), words };
  });
  return { ...base, segments, text: segments.map((s) => s.text).join(' '), wordTiming: 'recognizer' };
}

describe('GET /jobs/{id}/transcript lays out SRT and WebVTT cues with a subtitle style', () => {
  let t: TestServer;
  let jobId = '';
  let transcriptFile = '';
  let recognized: Transcript;

  before(async () => {
    t = await startTestServer();
    await mkdir(path.join(t.dataDir, 'models', 'whisper'), { recursive: true });
    await mkdir(path.join(t.dataDir, 'models', 'vad'), { recursive: true });
    await symlink(
      testModel('whisper/ggml-synthetic-random.bin'),
      path.join(t.dataDir, 'models', 'whisper', 'ggml-synthetic-random.bin'),
    );
    await copyFile(
      testModel('vad/ggml-silero-v6.2.0.bin'),
      path.join(t.dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
    );
    const file = testModel('audio/jfk.wav');
    const res = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'false' },
      { source: file, filename: 'jfk.wav' },
    );
    assert.equal(res.status, 200, res.body.toString());
    const job = await waitForJob(t.base, res.json().id, isTerminal, 60_000);
    assert.equal(job.status, 'succeeded', job.error);
    jobId = job.id;
    recognized = (await request(`${t.base}/jobs/${jobId}/transcript?format=json-full`)).json();
    transcriptFile = path.join(t.dataDir, 'jobs', jobId, 'transcript.json');
  });

  after(async () => {
    await t.dispose();
  });

  const get = (query: string) => request(`${t.base}/jobs/${jobId}/transcript?${query}`);

  it('marks in json-full the segments the recognizer may have invented, as the flags of their stored text and times say', () => {
    const recomputed = hallucinationFlags(recognized.segments);
    console.log(
      `      (flags of the synthetic model's segments: ${JSON.stringify(recognized.segments.map((segment) => segment.flags ?? []))})`,
    );
    recognized.segments.forEach((segment, i) => {
      assert.ok(
        segment.flags === undefined || segment.flags.length > 0,
        'a segment without flags has no `flags` field',
      );
      const flags = segment.flags ?? [];
      assert.ok(
        flags.every((flag) => HALLUCINATION_FLAGS.includes(flag)),
        JSON.stringify(flags),
      );
      // `no-speech` needs the VAD's speech, which only the engine saw; every other flag follows from the segment.
      assert.deepEqual(
        flags.filter((flag) => flag !== 'no-speech'),
        recomputed[i],
        `segment ${i}: ${segment.text}`,
      );
    });
  });

  it('stores words timed by the recognizer, and lays cues out from them with any style', async () => {
    assert.equal(recognized.wordTiming, 'recognizer');
    const res = await get('format=srt&maxLines=1&maxLineChars=10');
    assert.equal(res.status, 200);
    const cues = parseSrt(res.body.toString());
    assertMonotonicCues(cues);
    const longWordCues = String(res.headers['subtitle-long-word-cues'] ?? '')
      .split(', ')
      .filter(Boolean)
      .map(Number);
    cues.forEach((cue, i) => {
      assert.equal(cue.lines.length, 1);
      if (!longWordCues.includes(i + 1)) assert.ok(cue.lines[0].length <= 10, `cue ${i + 1}: ${cue.lines[0]}`);
    });
  });

  describe('with the stored words of a longer talk', () => {
    before(async () => {
      await writeFile(transcriptFile, JSON.stringify(storedTranscript(recognized)));
    });

    const problems = (body: string, format: 'srt' | 'vtt', style: SubtitleStyle) => checkSubtitles(body, format, style);

    it('re-lays the same words under each style, without running the job again, and each result passes its own check', async () => {
      const before = (await request(`${t.base}/jobs/${jobId}`)).json();
      const bodies = new Map<string, string>();
      const cases: Array<[string, SubtitleStyle]> = [
        ['', resolveStyle()],
        ['&style=bbc', resolveStyle('bbc')],
        ['&maxLineChars=20&maxLines=1', resolveStyle('default', { maxLineChars: 20, maxLines: 1 })],
        [
          '&style=netflix-en&maxDurationSeconds=3&minDurationSeconds=1.5',
          resolveStyle('netflix-en', { maxDurationSeconds: 3, minDurationSeconds: 1.5 }),
        ],
        ['&maxCharsPerSecond=8', resolveStyle('default', { maxCharsPerSecond: 8 })],
      ];
      for (const format of ['srt', 'vtt'] as const) {
        for (const [query, style] of cases) {
          const res = await get(`format=${format}${query}`);
          assert.equal(res.status, 200, res.body.toString());
          const body = res.body.toString();
          const cues = (format === 'srt' ? parseSrt : parseVtt)(body);
          // A cue that still reads too fast must have been kept up as long as the next cue (or the longest
          // duration) allows: the speaker was faster than the style.
          const keptUpToLimit = (n: number): boolean => {
            const cue = cues[n - 1];
            const next = cues[n];
            const limit = Math.min(
              cue.start + style.maxDurationSeconds,
              next ? next.start - style.minGapSeconds : Infinity,
            );
            return Math.abs(cue.end - limit) < 0.0015;
          };
          const found = problems(body, format, style).filter(
            (p) => !(p.kind === 'reading-speed' && keptUpToLimit(p.cue)),
          );
          assert.deepEqual(found, [], `${format}${query}`);
          bodies.set(`${format}${query}`, body);
        }
      }
      assert.equal(new Set(bodies.values()).size, bodies.size, 'every style lays the words out differently');
      const oneLine = parseSrt(bodies.get('srt&maxLineChars=20&maxLines=1') ?? '');
      assert.ok(oneLine.length > parseSrt(bodies.get('srt') ?? '').length, 'narrower cues make more of them');
      assert.deepEqual((await request(`${t.base}/jobs/${jobId}`)).json(), before, 'the job itself did not change');
    });

    it('keeps a cue up longer to bring its reading speed down, as far as the next cue leaves room', async () => {
      const fast = parseSrt((await get('format=srt&maxCharsPerSecond=40')).body.toString());
      const slow = parseSrt((await get('format=srt&maxCharsPerSecond=8')).body.toString());
      const shown = (cues: typeof fast) => cues.reduce((sum, cue) => sum + cue.end - cue.start, 0);
      assert.ok(shown(slow) > shown(fast) + 1, `${shown(slow)} > ${shown(fast)}`);
    });

    it('reports a word longer than a line, the one limit the words may force past', async () => {
      const long = storedTranscript(recognized);
      long.segments[0].words[3].text = 'https://example.com/an/address/longer/than/a/line';
      long.segments[0].text = long.segments[0].words.map((w) => w.text).join(' ');
      await writeFile(transcriptFile, JSON.stringify(long));
      const res = await get('format=vtt&maxLineChars=30');
      assert.equal(res.status, 200);
      const cues = parseVtt(res.body.toString());
      const numbers = String(res.headers['subtitle-long-word-cues']).split(', ').map(Number);
      assert.deepEqual(
        numbers.map((n) => cues[n - 1]?.lines),
        [['https://example.com/an/address/longer/than/a/line']],
      );
      await writeFile(transcriptFile, JSON.stringify(storedTranscript(recognized)));
    });
  });

  it('answers 422 naming the parameter that is out of range or does not apply', async () => {
    const cases: Array<[string, RegExp]> = [
      ['format=srt&maxLineChars=5', /^maxLineChars: must be from 10 to 200$/],
      ['format=srt&maxLineChars=500', /^maxLineChars: must be from 10 to 200$/],
      ['format=vtt&maxLines=0', /^maxLines: must be from 1 to 5$/],
      ['format=vtt&maxLines=1.5', /^maxLines: must be integer/],
      ['format=srt&maxCharsPerSecond=fast', /^maxCharsPerSecond: must be number/],
      ['format=srt&maxCharsPerSecond=2', /^maxCharsPerSecond: must be from 5 to 60$/],
      ['format=srt&minDurationSeconds=-1', /^minDurationSeconds: must be from 0 to 10$/],
      ['format=srt&maxDurationSeconds=61', /^maxDurationSeconds: must be from 0.5 to 60$/],
      [
        'format=srt&minDurationSeconds=5&maxDurationSeconds=2',
        /^minDurationSeconds: the minimum duration \(5 s\) must not exceed the maximum \(2 s\)$/,
      ],
      ['format=srt&style=cinema', /^style: must be one of "default", "netflix-en", /],
      ['format=txt&maxLines=1', /^maxLines: applies only to format srt or vtt$/],
      ['style=bbc', /^style: applies only to format srt or vtt$/],
      ['format=srt&minGapSeconds=1', /^minGapSeconds: is not a known parameter$/],
    ];
    for (const [query, message] of cases) {
      assert.match(assertErrorBody(await get(query), 422, 'INVALID_REQUEST').error.message, message, query);
    }
  });

  it('describes the style parameters in the OpenAPI document', async () => {
    const doc = (await request(`${t.base}/openapi.json`)).json();
    const parameters = doc.paths['/jobs/{id}/transcript'].get.parameters as Array<{
      name: string;
      schema: Record<string, unknown>;
    }>;
    const byName = Object.fromEntries(parameters.map((p) => [p.name, p.schema]));
    assert.deepEqual(byName.maxLineChars, { type: 'integer', minimum: 10, maximum: 200 });
    assert.deepEqual(byName.maxCharsPerSecond, { type: 'number', minimum: 5, maximum: 60 });
    assert.ok((byName.style.enum as string[]).includes('netflix-en'));
    for (const name of ['maxLines', 'minDurationSeconds', 'maxDurationSeconds']) assert.ok(byName[name], name);
  });
});
