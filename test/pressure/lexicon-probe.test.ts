/**
 * Outside probe of the lexicon: documents of the wrong shape, hostile entry text (regular-expression
 * characters, markup, NUL, long and unicode strings), concurrent writers racing readers, and a lexicon file
 * that is a link out of the data directory. Every request answers without a 5xx, the file is always one of
 * the documents written, and nothing outside the data directory changes.
 */
import assert from 'node:assert/strict';
import { readdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { isTerminal, request, waitForJob, type RawResponse } from '../helpers/server';
import { englishVoiceId } from '../helpers/voices';
import { baitPaths, probeEnds, useProbeServer } from './probe-kit';

describe('outside probe: the lexicon', () => {
  const probe = useProbeServer('lexicon');
  const { tally } = probe;
  let voiceId: string;
  before(async () => {
    voiceId = await englishVoiceId(probe.t.base);
  });

  const put = (what: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> =>
    tally.probe(
      `PUT ${what}`,
      () =>
        request(`${probe.t.base}/lexicon`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      (r) => r.status,
    );

  it('refuses documents of the wrong shape with 422 INVALID_REQUEST naming the place', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['entries null', { entries: null }, /entries/],
      ['entries an object', { entries: { text: 'a', say: 'b' } }, /entries/],
      ['entry a string', { entries: ['GIF'] }, /entries\[0\]/],
      ['text a number', { entries: [{ text: 42, say: 'forty two' }] }, /entries\[0\]\.text/],
      ['say an array', { entries: [{ text: 'GIF', say: ['jif'] }] }, /entries\[0\]\.say/],
      ['text only a NUL', { entries: [{ text: '\u0000', say: 'nothing' }] }, /entries\[0\]\.text/],
      ['text only punctuation', { entries: [{ text: '.*+?()[]', say: 'regex' }] }, /entries\[0\]\.text/],
      ['caseSensitive a string', { entries: [{ text: 'NASA', say: 'nasa', caseSensitive: 'yes' }] }, /caseSensitive/],
      ['alphabet unknown', { entries: [{ text: 'tomato', phonemes: 'təˈmɑːtoʊ', alphabet: 'klingon' }] }, /alphabet/],
      ['language a path', { entries: [{ text: 'tomato', say: 'tomahto', language: '../../etc' }] }, /language/],
      ['unknown entry field', { entries: [{ text: 'a1', say: 'b', file: '/etc/passwd' }] }, /entries\[0\]/],
      [
        'same text twice, different case',
        {
          entries: [
            { text: 'Koa', say: 'ko a' },
            { text: 'KOA', say: 'ko ah' },
          ],
        },
        /entries\[1\]\.text/,
      ],
    ];
    for (const [what, body, field] of cases) {
      const res = await put(what, body);
      assert.equal(res.status, 422, `${what}: ${res.status} ${res.body.toString().slice(0, 200)}`);
      assert.equal(res.json().error.code, 'INVALID_REQUEST');
      assert.match(res.json().error.message, field, what);
    }
    for (const [what, body] of [
      ['array root', '[]'],
      ['truncated', '{"entries":[{"text":"a'],
      ['string root', '"entries"'],
      ['empty body', ''],
    ] as const) {
      const res = await put(what, body);
      assert.equal(res.status, 422, `${what}: ${res.status}`);
    }
    assert.equal((await put('as text/plain', { entries: [] }, { 'Content-Type': 'text/plain' })).status, 422);
  });

  it('keeps entries whose text is made of regex and markup characters literal, and a job using them succeeds', async () => {
    const document = {
      entries: [
        { text: 'a.b*c', say: 'dot star' },
        { text: 'C++', say: 'see plus plus' },
        { text: '(x|y)', say: 'x or y' },
        { text: '<break time="9999s"/>', say: 'markup' },
        { text: '名前', say: 'namae' },
        { text: 'e\u0301t\u00e9', say: 'summer' },
        { text: 'x'.repeat(200), say: 'long' },
      ],
    };
    const res = await put('regex and markup entries', document);
    assert.equal(res.status, 200, res.body.toString().slice(0, 300));
    const text = 'Try a.b*c with C++ and (x|y), then <break time="9999s"/> and 名前 and aaaa.';
    const created = await tally.probe(
      'POST /tts/jobs with the hostile lexicon',
      () =>
        request(`${probe.t.base}/tts/jobs`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ voiceId, text }),
        }),
      (r) => r.status,
    );
    assert.equal(created.status, 200, created.body.toString().slice(0, 300));
    const job = await waitForJob(probe.t.base, created.json().id, isTerminal, 60_000);
    assert.equal(job.status, 'succeeded', job.error);
  });

  it('lets 20 writers race 20 readers: every answer is 200 and the file ends as one of the documents', async () => {
    const documents = Array.from({ length: 20 }, (_, i) => ({
      entries: [{ text: `word${i}`, say: `say ${i} ${'ü'.repeat(i * 5)}`, caseSensitive: false }],
    }));
    const answers = await Promise.all([
      ...documents.map((doc, i) => put(`concurrent writer ${i}`, doc)),
      ...documents.map((_, i) =>
        tally.probe(
          `GET concurrent reader ${i}`,
          () => request(`${probe.t.base}/lexicon`),
          (r) => r.status,
        ),
      ),
    ]);
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
    );
    const final = JSON.parse(await readFile(path.join(probe.t.dataDir, 'lexicon.json'), 'utf8'));
    assert.ok(
      documents.some((doc) => JSON.stringify(doc) === JSON.stringify(final)),
      `the file is one of the writes: ${JSON.stringify(final).slice(0, 200)}`,
    );
    assert.deepEqual(
      (await readdir(probe.t.dataDir)).filter((name) => name.includes('lexicon') && name !== 'lexicon.json'),
      [],
      'no temporary file left',
    );
  });

  it('replaces a lexicon file that is a link out of the data directory, never writing through it', async () => {
    const file = path.join(probe.t.dataDir, 'lexicon.json');
    await rm(file, { force: true });
    await symlink(baitPaths(probe.box).secret, file);
    // docs/decisions.md: a lexicon file that is not a lexicon is the documented 500 naming the file and the
    // way out (never a job that silently speaks without it); outside the tally, which counts the undocumented.
    const read = await request(`${probe.t.base}/lexicon`);
    assert.equal(read.status, 500);
    assert.match(
      read.json().error.message,
      /lexicon\.json is not JSON: correct the file, or replace it with PUT \/lexicon/,
    );
    const res = await put('over a link to the secret', { entries: [{ text: 'safe', say: 'safe' }] });
    assert.equal(res.status, 200);
    assert.equal(await readFile(baitPaths(probe.box).secret, 'utf8'), 'do not touch\n');
  });

  probeEnds(probe, 'answered everything, and wrote nothing outside the data directory');
});
