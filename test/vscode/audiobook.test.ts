import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { ExportAudiobookResult } from '../../src/editor/commands/export-audiobook';
import { test } from './harness';
import { setting, ui, waitFor, workspaceFile } from './helpers';

/** Each test exports a few books with espeak-ng; at a load average of 30 that takes minutes. */
const EXPORT_TIMEOUT_MS = 180_000;

const BOOK =
  '---\ntitle: Harbour\nauthor: A. Writer\n---\n\n# Arrival\n\nThe boat came in.\n\n# Departure\n\nThe boat went out.\n';

async function chapterTitles(file: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ffprobe', ['-v', 'error', '-show_chapters', '-of', 'json', file]);
  return (JSON.parse(stdout) as { chapters: Array<{ tags: { title: string } }> }).chapters.map(
    (chapter) => chapter.tags.title,
  );
}

const exportBook = (args: {
  input: string;
  out: string;
  perChapter?: boolean;
}): Thenable<ExportAudiobookResult | undefined> =>
  vscode.commands.executeCommand<ExportAudiobookResult>('speechStudio.exportAudiobook', args);

/** The id of the book job writing `out`, found by its plan in the data directory's job folders. */
async function bookJobWriting(out: string): Promise<string | undefined> {
  const root = path.join(setting<string>('dataDirectory'), 'jobs');
  for (const id of await readdir(root).catch(() => [] as string[])) {
    const plan = await readFile(path.join(root, id, 'book.json'), 'utf8').catch(() => undefined);
    if (plan && (JSON.parse(plan) as { out: string }).out === out) return id;
  }
  return undefined;
}

test(
  'Export Audiobook writes an M4B with a chapter per heading, and a re-export comes from the cache',
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-audiobook-'));
    try {
      const input = path.join(dir, 'harbour.md');
      await writeFile(input, BOOK);
      const out = path.join(dir, 'harbour.m4b');
      const first = await exportBook({ input, out });
      assert.equal(first?.status, 'succeeded', first?.error ?? '');
      assert.deepEqual(await chapterTitles(out), ['Arrival', 'Departure']);
      assert.deepEqual(
        first.result?.chapters.map((chapter) => chapter.title),
        ['Arrival', 'Departure'],
      );
      const again = await exportBook({ input, out });
      assert.equal(again?.status, 'succeeded');
      assert.deepEqual([again.result?.synthesized, again.result?.reused], [0, 4]);
      const chapters = path.join(dir, 'chapters');
      const split = await exportBook({ input, out: chapters, perChapter: true });
      assert.equal(split?.status, 'succeeded', split?.error ?? '');
      assert.deepEqual((await readdir(chapters)).sort(), ['01 Arrival.mp3', '02 Departure.mp3']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  EXPORT_TIMEOUT_MS,
);

test(
  'Export Audiobook is a job: the Jobs view shows it with its progress, and cancelling it there leaves no book',
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-audiobook-'));
    try {
      const input = path.join(dir, 'voyage.md');
      const long = Array.from({ length: 300 }, (_, i) => `The boat sailed on through day ${i + 1} of the voyage.`).join(
        ' ',
      );
      await writeFile(input, `# Voyage\n\n${long}\n\n# Home\n\nNever read.\n`);
      const out = path.join(dir, 'voyage.m4b');
      await vscode.commands.executeCommand('speechStudio.jobs.focus');
      const exporting = exportBook({ input, out });
      const id = await waitFor('the book job', () => bookJobWriting(out), 30_000);
      const row = '.pane-body .monaco-list-row:has-text("Audiobook voyage.md")';
      await ui({ action: 'waitFor', selector: `${row}:has-text("%")` }, 60_000);
      await vscode.commands.executeCommand('speechStudio.job.cancel', id);
      const ended = await exporting;
      assert.equal(ended?.jobId, id);
      assert.equal(ended?.status, 'cancelled');
      await ui({ action: 'waitFor', selector: `${row}:has-text("cancelled")` });
      assert.deepEqual(await readdir(dir), ['voyage.md'], 'no book and no partial file');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  EXPORT_TIMEOUT_MS,
);

test(
  'Export Audiobook speaks with the workspace lexicon (.speech/lexicon.json)',
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-audiobook-'));
    const lexicon = workspaceFile('.speech', 'lexicon.json');
    try {
      const input = path.join(dir, 'koa.md');
      await writeFile(input, '# Koa\n\nKoa waved from the pier.\n');
      const seconds = async (out: string): Promise<number> => {
        const done = await exportBook({ input, out });
        assert.equal(done?.status, 'succeeded', done?.error ?? '');
        return done.result!.chapters.reduce((sum, chapter) => sum + chapter.seconds, 0);
      };
      const plain = await seconds(path.join(dir, 'plain.m4b'));
      const entries = [
        { text: 'Koa', say: 'the very famous and extremely well travelled Koa of the northern harbour' },
      ];
      await vscode.workspace.fs.writeFile(lexicon, Buffer.from(JSON.stringify({ entries })));
      const spoken = await seconds(path.join(dir, 'lexicon.m4b'));
      assert.ok(spoken > plain + 2, `with the workspace entry ${spoken} s, without ${plain} s`);
    } finally {
      await vscode.workspace.fs
        .delete(workspaceFile('.speech'), { recursive: true, useTrash: false })
        .then(undefined, () => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  },
  EXPORT_TIMEOUT_MS,
);
