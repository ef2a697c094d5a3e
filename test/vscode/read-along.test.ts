import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ExportAudiobookResult } from '../../src/editor/commands/export-audiobook';
import { makeDocx, makeEpub3 } from '../helpers/book-files';
import { epubcheck, readOverlays } from '../helpers/epubcheck';
import { test } from './harness';
import { ui } from './helpers';

/** A short book with espeak-ng; at a high load average that takes a minute or more. */
const EXPORT_TIMEOUT_MS = 180_000;

test(
  'Export Audiobook on an .epub picks chapters with check boxes and writes a read-along EPUB 3 that passes EPUBCheck',
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-read-along-'));
    try {
      const input = path.join(dir, 'harbour.epub');
      await writeFile(input, makeEpub3());
      const out = path.join(dir, 'harbour-read-along.epub');
      const exporting = Promise.resolve(
        vscode.commands.executeCommand<ExportAudiobookResult>('speechStudio.exportAudiobook', { input, out }),
      );
      const row = (title: string): string => `.quick-input-widget .monaco-list-row:has-text("${title}")`;
      await ui({ action: 'waitFor', selector: row('The Storm') });
      // The body chapters come checked, the cover, copyright page and index not: uncheck The Storm, check the copyright page.
      const checked = await ui({
        action: 'count',
        selector: `${row('')} input[type="checkbox"]:checked, ${row('')} .monaco-custom-toggle.checked`,
      });
      assert.equal(checked.count, 2);
      await ui({ action: 'click', selector: row('The Storm') });
      await ui({ action: 'click', selector: row('Copyright') });
      await ui({ action: 'press', key: 'Enter' });
      const result = await exporting;
      assert.equal(result?.status, 'succeeded', result?.error ?? '');
      assert.deepEqual(
        result.result?.chapters.map((chapter) => chapter.title),
        ['Copyright', 'The Harbour'],
      );
      const check = await epubcheck(out);
      assert.deepEqual(check.errors, [], check.output);
      const book = readOverlays(new Uint8Array(await readFile(out)));
      assert.deepEqual(
        book.clips.map((clip) => clip.id),
        ['ss2-1', 'ss2-2', 'ss3-1', 'ss3-2', 'ss3-3', 'ss3-4', 'ss3-5', 'ss3-6'],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  EXPORT_TIMEOUT_MS,
);

test(
  'Export Audiobook on a .docx picks chapters with check boxes and exports only those, here as a word-level read-along EPUB 3',
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-read-along-docx-'));
    try {
      const input = path.join(dir, 'tales.docx');
      await writeFile(input, makeDocx());
      const out = path.join(dir, 'tales.epub');
      const exporting = Promise.resolve(
        vscode.commands.executeCommand<ExportAudiobookResult>('speechStudio.exportAudiobook', {
          input,
          out,
          overlay: 'word',
        }),
      );
      const row = (title: string): string => `.quick-input-widget .monaco-list-row:has-text("${title}")`;
      const checkedIn = (title: string): string =>
        `${row(title)} input[type="checkbox"]:checked, ${row(title)} .monaco-custom-toggle.checked`;
      await ui({ action: 'waitFor', selector: row('The Storm') });
      // The document's three chapters (the text before its first heading is one, named by its title), all body, all checked.
      assert.equal((await ui({ action: 'count', selector: checkedIn('') })).count, 3);
      await ui({ action: 'click', selector: row('Harbour Tales') });
      await ui({ action: 'click', selector: row('The Harbour') });
      assert.equal((await ui({ action: 'count', selector: checkedIn('') })).count, 1);
      assert.equal((await ui({ action: 'count', selector: checkedIn('The Storm') })).count, 1);
      await ui({ action: 'press', key: 'Enter' });
      const result = await exporting;
      assert.equal(result?.status, 'succeeded', result?.error ?? '');
      assert.deepEqual(
        result.result?.chapters.map((chapter) => chapter.title),
        ['The Storm'],
      );
      const check = await epubcheck(out);
      assert.deepEqual(check.errors, [], check.output);
      const book = readOverlays(new Uint8Array(await readFile(out)));
      assert.deepEqual([...new Set(book.clips.map((clip) => clip.document))], ['EPUB/chapter-001.xhtml']);
      assert.match(
        book.text('EPUB/chapter-001.xhtml'),
        /<span id="c1-s2"><span id="c1-s2w1">The<\/span> <span id="c1-s2w2">wind<\/span>/,
      );
      assert.doesNotMatch(book.text('EPUB/chapter-001.xhtml'), /Koa|foreword/);
      // Word by word: a clip per word of the two sentences (the heading's two words, the paragraph's seven: "&" is none).
      assert.equal(book.clips.length, 9);
      const times = result.result?.wordTimes;
      assert.ok(times, 'the result does not say where the word times came from');
      assert.equal(times.voice + times.estimated, 2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  EXPORT_TIMEOUT_MS,
);
