/**
 * The editor's TTS jobs with a workspace lexicon (src/editor/editor-jobs.ts, no VS Code needed) on a real
 * Local API: the server's entries and the workspace's merged, the workspace winning for the same word.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import type { LexiconEntry } from '../../src/contract/types';
import { EditorJobs } from '../../src/editor/editor-jobs';
import { JOB_LEXICON_FILE } from '../../src/jobs/job-files';
import { createVoiceLibrary } from '../../src/voices/library';
import { isTerminal, request, waitFor, useTestServer } from '../helpers/server';
import { englishVoiceId } from '../helpers/voices';

/** The server's lexicon as stored (PUT fills in the defaults). */
const SERVER = [
  { text: 'Koa', say: 'koh ah', caseSensitive: false },
  { text: 'GIF', say: 'jif', caseSensitive: false },
];

describe('editor TTS jobs use the server lexicon merged with the workspace lexicon', () => {
  const t = useTestServer();
  let editor: EditorJobs;
  let workspace: LexiconEntry[] = [];
  before(async () => {
    const voiceId = await englishVoiceId(t.base);
    editor = new EditorJobs({
      server: async () => t.server,
      voices: createVoiceLibrary({ dataDir: t.dataDir }),
      dataDir: () => t.dataDir,
      defaultVoiceId: () => voiceId,
      preferredSttModel: () => undefined,
      editorLanguage: () => 'en',
      workspaceLexicon: async () => workspace,
    });
    const put = await request(`${t.base}/lexicon`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ entries: SERVER }),
    });
    assert.equal(put.status, 200);
  });

  /** The entries a job speaks with, as the job service kept them: in the job's folder, not the store. */
  const stored = async (id: string): Promise<LexiconEntry[]> =>
    JSON.parse(await readFile(t.server.jobs.files.file(id, JOB_LEXICON_FILE), 'utf8')) as LexiconEntry[];

  async function run(text: string, lexicon?: LexiconEntry[]): Promise<any> {
    const created = await editor.createTts({ text, ...(lexicon ? { lexicon } : {}) });
    // Editor jobs are not the Local API's: read them from the server's job service.
    const job: any = await waitFor(
      `editor job ${created.id}`,
      async () => t.server.jobs.get(created.id)!,
      isTerminal,
      60_000,
    );
    assert.equal(job.status, 'succeeded', job.error);
    return { created, job };
  }

  it("without a workspace lexicon the server's entries apply", async () => {
    workspace = [];
    const { created, job } = await run('Koa and GIF.');
    assert.deepEqual(await stored(created.id), SERVER);
    assert.deepEqual(job.result.lexicon, { applied: ['Koa', 'GIF'], skipped: [] });
  });

  it("the workspace entry replaces the server's for the same word; the server's others still apply", async () => {
    workspace = [
      { text: 'koa', say: 'ko wah' },
      { text: 'Nguyen', say: 'win' },
    ];
    const { created, job } = await run('Koa, GIF and Nguyen.');
    assert.deepEqual(await stored(created.id), [...workspace, SERVER[1]]);
    assert.deepEqual([...job.result.lexicon.applied].sort(), ['GIF', 'Nguyen', 'koa']);
  });

  it("a preview's own entry wins over the workspace's", async () => {
    workspace = [{ text: 'Koa', say: 'ko wah' }];
    const { created } = await run('Koa.', [{ text: 'Koa', say: 'kwah' }]);
    assert.deepEqual(await stored(created.id), [{ text: 'Koa', say: 'kwah' }]);
  });

  it("Read Aloud's lexicon (spokenLexicon) is the one a job of the same moment speaks with", async () => {
    workspace = [
      { text: 'koa', say: 'ko wah' },
      { text: 'Nguyen', say: 'win' },
    ];
    // A job keeps the entries its text uses: this one uses them all.
    const { created } = await run('Koa, GIF and Nguyen.');
    assert.deepEqual(await editor.spokenLexicon(), await stored(created.id));
    workspace = [];
    assert.deepEqual(await editor.spokenLexicon(), SERVER, 'read again at each call: the workspace entries are gone');
  });
});
