/**
 * Export Audiobook… with the ACX preset: one mastered MP3 per chapter, and the notification's compliance
 * report gives the figures ffmpeg measures in each file.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { acxSummary, type ExportAudiobookResult } from '../../src/editor/commands/export-audiobook';
import { test } from './harness';

const BOOK =
  '# Arrival\n\nThe boat came in at dawn, and the gulls followed it.\n\n# Departure\n\nBy noon it went out again.\n';

/** The RMS level of a file, as ffmpeg's astats measures it. */
function rmsDb(file: string): number {
  const run = spawnSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostats',
      '-i',
      file,
      '-af',
      'astats=measure_overall=RMS_level:measure_perchannel=none',
      '-f',
      'null',
      '-',
    ],
    { encoding: 'utf8' },
  );
  const match = /RMS level dB: (-?[\d.]+)/.exec(run.stderr);
  assert.ok(match, run.stderr);
  return Number(match[1]);
}

test('Export Audiobook with the ACX preset masters each chapter and reports the compliance ffmpeg measures', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-acx-'));
  try {
    const input = path.join(dir, 'harbour.md');
    await writeFile(input, BOOK);
    const out = path.join(dir, 'acx');
    const done = await vscode.commands.executeCommand<ExportAudiobookResult>('speechStudio.exportAudiobook', {
      input,
      out,
      perChapter: true,
      master: 'acx',
    });
    assert.equal(done?.status, 'succeeded', done?.error ?? '');
    assert.deepEqual((await readdir(out)).sort(), ['01 Arrival.mp3', '02 Departure.mp3']);
    const reports = done.result?.acx ?? [];
    assert.equal(reports.length, 2);
    for (const report of reports) {
      assert.ok(
        Math.abs(report.measured.rmsDb - rmsDb(report.file)) <= 0.06,
        `${report.measured.rmsDb} against ${rmsDb(report.file)}`,
      );
    }
    const summary = acxSummary(reports);
    assert.match(
      summary,
      /ACX: \d of 2 chapters comply\. 01 Arrival\.mp3: (complies|does not comply) \(RMS -\d+\.\d dB, true peak -?\d+\.\d dB, noise floor/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 240_000);
