/**
 * The subtitle editing features together: the check's diagnostics, their quick fixes and Fix Common
 * Problems, the invented-text hints, the shot-change check, the timing shift, Name This Speaker, "▶ Play" on
 * each cue, the timeline, the cue grid and embedding the file in a video.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { registerCueGrid } from './cue-grid';
import { registerCuePlayer } from './cue-play';
import { registerSubtitleDiagnostics } from './diagnostics';
import { registerEmbedSubtitles } from './embed-subtitles';
import { registerFixCommonProblems } from './fix-common-problems';
import { registerInventedText } from './invented-text';
import { registerNameSpeaker } from './name-speaker';
import { registerSubtitleQuickFixes } from './quick-fixes';
import { registerShiftSubtitleTiming } from './shift-timing';
import { registerShotChanges } from './shot-changes';
import { registerSubtitleTimeline } from './timeline-view';

export function registerSubtitleEditing(services: Services): vscode.Disposable {
  const cuePlayer = registerCuePlayer(services.context, services.player);
  return vscode.Disposable.from(
    registerSubtitleDiagnostics(),
    registerInventedText(services),
    registerNameSpeaker(services),
    registerSubtitleQuickFixes(),
    registerFixCommonProblems(services),
    registerShotChanges(services),
    registerShiftSubtitleTiming(services.context, services.player),
    cuePlayer,
    registerSubtitleTimeline(services, cuePlayer),
    registerCueGrid(services),
    registerEmbedSubtitles(services),
  );
}
