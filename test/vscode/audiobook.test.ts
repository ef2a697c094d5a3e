import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { ExportAudiobookResult } from '../../src/editor/commands/export-audiobook';
import { test } from './harness';

const BOOK = '---\ntitle: Harbour\nauthor: A. Writer\n---\n\n# Arrival\n\nThe boat came in.\n\n# Departure\n\nThe boat went out.\n';

async function chapterTitles(file: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ffprobe', ['-v', 'error', '-show_chapters', '-of', 'json', file]);
  return (JSON.parse(stdout) as { chapters: Array<{ tags: { title: string } }> }).chapters.map((chapter) => chapter.tags.title);
}

test('Export Audiobook writes an M4B with a chapter per heading, and a re-export comes from the cache', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-audiobook-'));
  try {
    const input = path.join(dir, 'harbour.md');
    await writeFile(input, BOOK);
    const out = path.join(dir, 'harbour.m4b');
    const first = await vscode.commands.executeCommand<ExportAudiobookResult>('speechStudio.exportAudiobook', { input, out });
    assert.equal(first?.exitCode, 0, first?.lines.join('\n'));
    assert.deepEqual(await chapterTitles(out), ['Arrival', 'Departure']);
    assert.ok(first.lines.some((line) => /^Chapter 2\/2 "Departure": done/.test(line)), first.lines.join('\n'));
    const again = await vscode.commands.executeCommand<ExportAudiobookResult>('speechStudio.exportAudiobook', { input, out });
    assert.equal(again?.exitCode, 0);
    assert.ok(again.lines.includes('0 paragraphs synthesized, 4 from the cache.'), again.lines.join('\n'));
    const chapters = path.join(dir, 'chapters');
    const split = await vscode.commands.executeCommand<ExportAudiobookResult>('speechStudio.exportAudiobook', { input, out: chapters, perChapter: true });
    assert.equal(split?.exitCode, 0, split?.lines.join('\n'));
    assert.deepEqual((await readdir(chapters)).sort(), ['01 Arrival.mp3', '02 Departure.mp3']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
