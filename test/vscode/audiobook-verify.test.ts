/**
 * Export Audiobook… with verified takes: with the test hook that damages every first take, each paragraph
 * is retaken; without retakes the damaged paragraphs stay bad and show in Problems on the manuscript, with
 * a "▶ Play the kept take" quick fix that plays the take.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ExportAudiobookResult } from '../../src/editor/commands/export-audiobook';
import type { PlayerReport } from '../../src/editor/audio-player';
import { PLAY_TAKE_COMMAND } from '../../src/editor/audiobook/take-problems';
import { test } from './harness';
import { screenshot } from './helpers';

const EXPORT_TIMEOUT_MS = 240_000;
const CORRUPT_FIRST_TAKE = 'SPEECH_STUDIO_TEST_CORRUPT_FIRST_TAKE';

const BOOK = `# Harbour

The harbour master counted them from his window, as he had every morning for thirty years.

By noon the market was loud with voices, and the fish were gone before the bells rang one.
`;

const exportBook = (args: Record<string, unknown>): Thenable<ExportAudiobookResult | undefined> =>
  vscode.commands.executeCommand<ExportAudiobookResult>('speechStudio.exportAudiobook', args);

test(
  'Export Audiobook with verified takes retakes damaged takes, and shows the ones still bad in Problems with ▶ play',
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-verify-'));
    // The job core reads the hook in this process (the extension host), where editor exports are admitted.
    process.env[CORRUPT_FIRST_TAKE] = '1';
    try {
      const input = path.join(dir, 'harbour.md');
      await writeFile(input, BOOK);

      const retaken = await exportBook({
        input,
        out: path.join(dir, 'retaken.m4b'),
        verify: { threshold: 0.25, retakes: 1 },
      });
      assert.equal(retaken?.status, 'succeeded', retaken?.error ?? '');
      const verified = retaken.result?.verify;
      assert.ok(verified, 'the result carries the verification');
      assert.equal(verified.paragraphs, 3, 'the heading and two paragraphs');
      // The heading is too short for the aligner to judge; a recognizer judges (and retakes) it too.
      assert.deepEqual(
        verified.retaken.map((paragraph) => paragraph.paragraph).filter((n) => n > 1),
        [2, 3],
        'both paragraphs were retaken',
      );
      for (const paragraph of verified.retaken) {
        assert.equal(paragraph.takes.length, 2);
        assert.ok(paragraph.takes[0].wer > 0.25, `the damaged take is over the threshold: ${paragraph.takes[0].wer}`);
      }
      assert.ok(
        (await stat(verified.textFile)).size > 0 && (await stat(verified.reportFile)).size > 0,
        'the report is beside the book',
      );

      const bad = await exportBook({ input, out: path.join(dir, 'bad.m4b'), verify: { threshold: 0.25, retakes: 0 } });
      assert.equal(bad?.status, 'succeeded', bad?.error ?? '');
      const stillBad = bad.result?.verify?.stillBad ?? [];
      assert.ok(stillBad.length >= 2, `the damaged paragraphs are still bad: ${JSON.stringify(bad.result?.verify)}`);
      const uri = vscode.Uri.file(input);
      const diagnostics = vscode.languages
        .getDiagnostics(uri)
        .filter((diagnostic) => diagnostic.source === 'Speech Studio verified takes');
      assert.equal(diagnostics.length, stillBad.length, 'one problem per still-bad paragraph, on the manuscript');
      const document = await vscode.workspace.openTextDocument(uri);
      const market = diagnostics.find((diagnostic) =>
        document.getText(diagnostic.range).startsWith('By noon the market'),
      );
      assert.ok(
        market,
        `the problem sits on its paragraph: ${diagnostics.map((d) => document.getText(d.range)).join(' | ')}`,
      );
      assert.match(
        market.message,
        /^Chapter 1 "Harbour", paragraph 3 still reads wrong after 1 takes: WER \d+\.\d % in the best\./,
      );
      assert.equal(market.severity, vscode.DiagnosticSeverity.Warning);

      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      await screenshot('audiobook-verified-takes');
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        market.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      const play = actions.find((action) => action.title.startsWith('▶ Play the kept take'));
      assert.equal(play?.command?.command, PLAY_TAKE_COMMAND);
      const report = await vscode.commands.executeCommand<PlayerReport | undefined>(
        play.command.command,
        ...(play.command.arguments ?? []),
      );
      assert.equal(report?.state, 'playing', report?.error ?? 'no playback');
      assert.equal(report.file, stillBad.find((paragraph) => paragraph.paragraph === 3)?.audio);
    } finally {
      delete process.env[CORRUPT_FIRST_TAKE];
      await rm(dir, { recursive: true, force: true });
    }
  },
  EXPORT_TIMEOUT_MS,
);
