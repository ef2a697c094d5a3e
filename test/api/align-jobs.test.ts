import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  assertErrorBody,
  isTerminal,
  request,
  startTestServer,
  waitForJob,
  type RawResponse,
  type TestServer,
} from '../helpers/server';
import { assertMonotonicCues, parseSrt } from '../helpers/subtitles';
import { installSttModel } from '../helpers/stt-engine';
import { testModel } from '../helpers/test-models';

const DEV = (name: string): string => testModel('audio', 'align-dev', name);
const DURATION = 118.05;

/** POST /align/jobs with real multipart parts, as any HTTP client sends them. */
async function postAlign(
  base: string,
  parts: { file?: Buffer; script?: { name: string; bytes: Buffer }; fields?: Record<string, string>; extra?: string },
): Promise<RawResponse> {
  const form = new FormData();
  if (parts.file) form.append('file', new Blob([parts.file]), 'dev-a.wav');
  if (parts.script) form.append('script', new Blob([parts.script.bytes]), parts.script.name);
  for (const [name, value] of Object.entries(parts.fields ?? {})) form.append(name, value);
  if (parts.extra) form.append(parts.extra, new Blob([Buffer.from('x')]), 'x.txt');
  const response = await fetch(`${base}/align/jobs`, { method: 'POST', body: form });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
    json: () => JSON.parse(body.toString('utf8')),
  };
}

async function align(
  t: TestServer,
  script: { name: string; bytes: Buffer },
  fields: Record<string, string> = {},
): Promise<any> {
  const res = await postAlign(t.base, { file: await readFile(DEV('dev-a.wav')), script, fields });
  assert.equal(res.status, 200, res.body.toString());
  assert.equal(res.json().kind, 'stt');
  return waitForJob(t.base, res.json().id, isTerminal, 300_000);
}

async function segmentsOf(
  t: TestServer,
  id: string,
): Promise<
  Array<{ start: number; end: number; text: string; words: Array<{ start: number; end: number; text: string }> }>
> {
  const res = await request(`${t.base}/jobs/${id}/transcript?format=json-full`);
  assert.equal(res.status, 200, res.body.toString());
  const transcript = res.json();
  assert.equal(transcript.backend, 'espeak-ng-dtw');
  assert.equal(transcript.wordTiming, 'aligned');
  return transcript.segments;
}

/** Cues in order, each inside the media and its words inside it. */
function assertSane(segments: Awaited<ReturnType<typeof segmentsOf>>): void {
  segments.forEach((segment, i) => {
    assert.ok(
      segment.start >= 0 && segment.end <= DURATION + 0.01 && segment.start < segment.end,
      `segment ${i}: ${segment.start}–${segment.end}`,
    );
    if (i > 0) assert.ok(segment.start >= segments[i - 1].end, `segment ${i} starts before segment ${i - 1} ends`);
    assert.ok(segment.words.length > 0, `segment ${i} has words`);
    for (const word of segment.words)
      assert.ok(
        word.start >= segment.start && word.end <= segment.end && word.start <= word.end,
        `segment ${i}: word ${word.text}`,
      );
  });
}

describe('forced alignment through the Local API (no speech-to-text model installed)', () => {
  let t: TestServer;
  const lines = (): Promise<string[]> =>
    readFile(DEV('dev-a.txt'), 'utf8').then((text) => text.split('\n').filter((line) => line.trim() !== ''));
  before(async () => {
    t = await startTestServer();
    await mkdir(path.join(t.dataDir, 'models', 'vad'), { recursive: true });
    await copyFile(
      testModel('vad/ggml-silero-v6.2.0.bin'),
      path.join(t.dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
    );
  });
  after(() => t.dispose());

  it("times a script, one cue a line, keeping every line's text, served in all five formats", async () => {
    const script = await lines();
    const job = await align(t, { name: 'dev-a.txt', bytes: await readFile(DEV('dev-a.txt')) }, { language: 'en' });
    assert.equal(job.status, 'succeeded', job.error);
    assert.equal(job.backend, 'espeak-ng-dtw');
    assert.equal(job.result.aligned, true);
    assert.equal(job.result.matchedCues, script.length);
    assert.deepEqual(job.result.unmatchedCues, []);
    const segments = await segmentsOf(t, job.id);
    assert.deepEqual(
      segments.map((s) => s.text),
      script,
    );
    assertSane(segments);
    for (const format of ['txt', 'srt', 'vtt', 'json-simple', 'json-full']) {
      const res = await request(`${t.base}/jobs/${job.id}/transcript?format=${format}`);
      assert.equal(res.status, 200, `${format}: ${res.body.toString()}`);
    }
    const narrow = parseSrt(
      (await request(`${t.base}/jobs/${job.id}/transcript?format=srt&maxLineChars=20`)).body.toString(),
    );
    assertMonotonicCues(narrow);
    assert.ok(
      narrow.every((cue) => cue.lines.every((line) => line.length <= 20 || !line.includes(' '))),
      "the style's line length is kept",
    );
  });

  it("re-times a drifted SRT, keeping its cues' text", async () => {
    const job = await align(t, { name: 'dev-a-drifted.srt', bytes: await readFile(DEV('dev-a-drifted.srt')) });
    assert.equal(job.status, 'succeeded', job.error);
    const segments = await segmentsOf(t, job.id);
    assert.deepEqual(
      segments.map((s) => s.text),
      await lines(),
    );
    assertSane(segments);
  });

  it('aligns what matches of a script that does not match the audio, and reports the rest', async () => {
    const script = await lines();
    // Two paragraphs the reader never said, and three lines of the reading missing from the script.
    const foreign = [
      'The quarterly budget review has been moved to Thursday afternoon in the large meeting room.',
      'Please remember to bring your laptop charger and the printed copies of the new safety policy.',
    ];
    const edited = [
      ...script.slice(0, 10),
      foreign[0],
      ...script.slice(10, 20),
      ...script.slice(23, 30),
      foreign[1],
      ...script.slice(30),
    ];
    const job = await align(t, { name: 'edited.txt', bytes: Buffer.from(edited.join('\n')) }, { language: 'en' });
    assert.equal(job.status, 'succeeded', job.error);
    const unmatched: Array<{ index: number; text: string }> = job.result.unmatchedCues;
    // Each reported cue is named by its number and text; the first foreign paragraph is among them. Both
    // kinds of mismatch at once are harder than each alone (align-mismatch.test.ts checks each exactly):
    // a neighbour may still be reported, at most one each.
    for (const cue of unmatched) assert.equal(cue.text, edited[cue.index - 1]);
    assert.ok(
      unmatched.some((cue) => cue.text === foreign[0]),
      JSON.stringify(unmatched),
    );
    assert.ok(unmatched.length >= 2 && unmatched.length <= 4, JSON.stringify(unmatched));
    assert.equal(job.result.matchedCues, edited.length - unmatched.length);
    const segments = await segmentsOf(t, job.id);
    const reported = new Set(unmatched.map((cue) => cue.index));
    assert.deepEqual(
      segments.map((s) => s.text),
      edited.filter((_, i) => !reported.has(i + 1)),
    );
    assertSane(segments);
  });

  it('refuses what it cannot align with the documented errors, and the seed STT route still refuses a script', async () => {
    const wav = await readFile(DEV('dev-a.wav'));
    const txt = { name: 'dev-a.txt', bytes: await readFile(DEV('dev-a.txt')) };
    assertErrorBody(await postAlign(t.base, { file: wav }), 422, 'INVALID_REQUEST');
    assertErrorBody(await postAlign(t.base, { script: txt }), 422, 'INVALID_REQUEST');
    assertErrorBody(
      await postAlign(t.base, { file: wav, script: { name: 'notes.pdf', bytes: txt.bytes } }),
      422,
      'INVALID_REQUEST',
    );
    assertErrorBody(
      await postAlign(t.base, { file: wav, script: { name: 'empty.txt', bytes: Buffer.from('\n  \n') } }),
      422,
      'INVALID_REQUEST',
    );
    assertErrorBody(
      await postAlign(t.base, { file: wav, script: { name: 'bad.srt', bytes: Buffer.from('1\nnot a time\nhello\n') } }),
      422,
      'INVALID_REQUEST',
    );
    assertErrorBody(
      await postAlign(t.base, { file: wav, script: txt, fields: { language: 'qq' } }),
      422,
      'INVALID_REQUEST',
    );
    assertErrorBody(
      await postAlign(t.base, { file: wav, script: txt, fields: { cropStartSeconds: '5', cropEndSeconds: '2' } }),
      422,
      'INVALID_REQUEST',
    );
    assertErrorBody(
      await postAlign(t.base, { file: wav, script: txt, fields: { punctuation: 'true' } }),
      422,
      'INVALID_REQUEST',
    );
    assertErrorBody(await postAlign(t.base, { file: wav, script: txt, extra: 'subtitles' }), 422, 'INVALID_REQUEST');
    assertErrorBody(
      await postAlign(t.base, {
        file: wav,
        script: { name: 'big.txt', bytes: Buffer.alloc(5 * 1024 * 1024 + 1, 'a') },
      }),
      413,
      'FILE_TOO_LARGE',
    );
    // The seed's STT route, with a recognizer installed so it gets as far as the parts, still refuses a script.
    await installSttModel(t.dataDir);
    const form = new FormData();
    form.append('file', new Blob([wav]), 'dev-a.wav');
    form.append('script', new Blob([txt.bytes]), 'dev-a.txt');
    const stt = await fetch(`${t.base}/stt/jobs`, { method: 'POST', body: form });
    assert.equal(stt.status, 422);
    assert.equal(((await stt.json()) as { error: { code: string } }).error.code, 'INVALID_REQUEST');
  });

  it("refuses two parts named file with 422, naming no folder of the server's", async () => {
    const wav = await readFile(DEV('dev-a.wav'));
    const form = new FormData();
    form.append('file', new Blob([wav]), 'dev-a.wav');
    form.append('file', new Blob([wav]), 'dev-a.wav');
    form.append('script', new Blob([await readFile(DEV('dev-a.txt'))]), 'dev-a.txt');
    const res = await fetch(`${t.base}/align/jobs`, { method: 'POST', body: form });
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.deepEqual([res.status, body.error.code], [422, 'INVALID_REQUEST'], body.error.message);
    assert.match(body.error.message, /^file: send exactly one file/);
    assert.equal(body.error.message.includes(t.dataDir), false, body.error.message);
  });
});
