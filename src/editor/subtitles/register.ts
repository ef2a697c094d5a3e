/**
 * The subtitle editing features together: the check's diagnostics, their quick fixes, the invented-text
 * hints, the timing shift, "▶ Play" on each cue, the timeline and embedding the file in a video.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { registerCuePlayer } from './cue-play';
import { registerSubtitleDiagnostics } from './diagnostics';
import { registerEmbedSubtitles } from './embed-subtitles';
import { registerInventedText } from './invented-text';
import { registerSubtitleQuickFixes } from './quick-fixes';
import { registerShiftSubtitleTiming } from './shift-timing';
import { registerSubtitleTimeline } from './timeline-view';

export function registerSubtitleEditing(services: Services): vscode.Disposable {
  const cuePlayer = registerCuePlayer(services.context, services.player);
  return vscode.Disposable.from(
    registerSubtitleDiagnostics(),
    registerInventedText(services),
    registerSubtitleQuickFixes(),
    registerShiftSubtitleTiming(services.context, services.player),
    cuePlayer,
    registerSubtitleTimeline(services, cuePlayer),
    registerEmbedSubtitles(services),
  );
}
