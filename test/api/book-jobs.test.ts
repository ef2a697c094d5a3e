/**
 * An audiobook export is a job of the job core (src/jobs/book-export.ts), made here as the editor makes it
 * (src/editor/editor-jobs.ts, no VS Code needed) against a real server, engine and ffmpeg: it is listed
 * with the other jobs and reports progress while the engine process reads it, it is cancelled like any job
 * and then leaves no book, and it speaks with the editor's workspace lexicon. The Local API, whose seed
 * contract knows only tts and stt jobs, never shows it.
 */
import assert from 'node:assert/strict';
import { access, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LexiconEntry } from '../../src/contract/types';
import { EditorJobs } from '../../src/editor/editor-jobs';
import type { JobRecord } from '../../src/jobs/types';
import { createVoiceLibrary } from '../../src/voices/library';
import { voiceIdFor } from '../../src/voices/voice-id';
import { request, startTestServer, tempDir, waitFor, type TestServer } from '../helpers/server';
import { LONG_TEXT } from '../helpers/voices';

const VOICE = voiceIdFor('espeak-ng', 'gmw/en-US');

describe('an audiobook export is a book job', () => {
  let t: TestServer;
  let workspaceLexicon: LexiconEntry[] = [];
  let editor: EditorJobs;
  let dir: string;
  before(async () => {
    t = await startTestServer();
    dir = await tempDir();
    editor = new EditorJobs({
      server: async () => t.server,
      voices: createVoiceLibrary({ dataDir: t.dataDir }),
      dataDir: () => t.dataDir,
      defaultVoiceId: () => VOICE,
      preferredSttModel: () => undefined,
      editorLanguage: () => 'en',
      workspaceLexicon: async () => workspaceLexicon,
    });
  });
  after(async () => {
    await t.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'is listed with its progress while it runs, cancels, and leaves no book; the Local API answers 404',
    { timeout: 300_000 },
    async () => {
      const input = path.join(dir, 'long.md');
      await writeFile(input, `# Long\n\n${LONG_TEXT}\n\n# Later\n\nNever read.\n`);
      const out = path.join(dir, 'long.m4b');
      const seen: JobRecord[] = [];
      const onChange = (job: JobRecord): void => void seen.push(job);
      t.server.jobs.on('change', onChange);
      const job = await editor.createBook({ input, out, format: 'm4b' });
      assert.equal(job.kind, 'book');
      assert.equal(job.origin, 'editor');
      assert.ok(
        t.server.jobs.list().some((listed) => listed.id === job.id),
        'the job service lists it',
      );
      // The engine's first paragraph starts espeak-ng; with other suites running beside it that took over 60 s once.
      const running = await waitFor(
        'progress from the engine',
        async () => seen.find((j) => j.id === job.id && j.status === 'processing' && j.progress > 0),
        Boolean,
        240_000,
      );
      assert.equal(running?.phase, 'synthesizing');
      assert.equal(running?.backend, 'audiobook');

      // An editor job, as the seed's tts/stt-only contract needs: the Local API answers 404, as for any editor job.
      assert.equal((await request(`${t.base}/jobs/${job.id}`)).status, 404);
      assert.equal((await request(`${t.base}/jobs/${job.id}/cancel`, { method: 'POST' })).status, 404);
      assert.equal(t.server.jobs.get(job.id)?.status, 'processing', 'the refused API cancel left it running');

      const finished = editor.finishBook(job);
      const cancelled = await t.server.jobs.cancel(job.id);
      assert.equal(cancelled.status, 'cancelled');
      const { job: ended, result } = await finished;
      t.server.jobs.off('change', onChange);
      assert.equal(ended.status, 'cancelled');
      assert.equal(result, null);
      assert.deepEqual(
        (await readdir(dir)).filter((name) => name.startsWith('long.m4b')),
        [],
        'no book and no partial file',
      );
      // The engine ended mid-paragraph; the next book job runs in a fresh one.
      assert.deepEqual(
        await readdir(t.server.jobs.files.dir(job.id)),
        ['job.json'],
        'the job folder holds nothing but its record',
      );
    },
  );

  it('speaks with the workspace lexicon: an entry that says a word at length makes the book longer', async () => {
    const input = path.join(dir, 'short.md');
    await writeFile(input, '# Koa\n\nKoa waved.\n');
    const seconds = async (out: string): Promise<number> => {
      const { job, result } = await editor.finishBook(await editor.createBook({ input, out, format: 'm4b' }));
      assert.equal(job.status, 'succeeded', job.error ?? '');
      await access(out);
      return result!.chapters.reduce((sum, chapter) => sum + chapter.seconds, 0);
    };
    workspaceLexicon = [];
    const plain = await seconds(path.join(dir, 'plain.m4b'));
    workspaceLexicon = [
      { text: 'Koa', say: 'the very famous and extremely well travelled Koa of the northern harbour' },
    ];
    const spelled = await seconds(path.join(dir, 'spelled.m4b'));
    assert.ok(spelled > plain + 2, `with the lexicon ${spelled} s, without ${plain} s`);
  });

  it('refuses a manuscript that is not there, before any job exists', async () => {
    const before = t.server.jobs.list().length;
    await assert.rejects(
      editor.createBook({ input: path.join(dir, 'nothing.md'), out: path.join(dir, 'x.m4b'), format: 'm4b' }),
      /There is no manuscript at .*nothing\.md\./,
    );
    assert.equal(t.server.jobs.list().length, before);
  });
});
