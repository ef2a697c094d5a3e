/**
 * The timeline's editing rules without VS Code: the edit messages its webview may send, checked, and the
 * text edits each makes — a cue's edges dragged or the cue moved, a start or end set at the playhead, a cue
 * split at the playhead. The timeline (timeline-view.ts) applies them as one WorkspaceEdit each, one undo.
 */
import type { SubtitleStyle } from '../../contract/subtitle-style';
import { retimeCues, splitCueAt, SubtitleEditError, type TextEdit } from '../../subtitles/edits';
import { scanSubtitles, type SubtitleFormat } from '../../subtitles/scan';
import { cueAtTime } from './cue-grid-protocol';

export type TimelineEdit =
  | { type: 'retime'; index: number; start: number; end: number }
  | { type: 'at-playhead'; edge: 'start' | 'end' | 'split'; index: number | null; position: number };

const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1;
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The message if it is an edit the timeline understands, else undefined. */
export function parseTimelineEdit(raw: unknown): TimelineEdit | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const message = raw as Record<string, unknown>;
  if (message.type === 'retime' && isIndex(message.index) && isTime(message.start) && isTime(message.end)) {
    return { type: 'retime', index: message.index, start: message.start, end: message.end };
  }
  if (
    message.type === 'at-playhead' &&
    ['start', 'end', 'split'].includes(message.edge as string) &&
    (message.index === null || isIndex(message.index)) &&
    isTime(message.position)
  ) {
    return {
      type: 'at-playhead',
      edge: message.edge as 'start' | 'end' | 'split',
      index: message.index,
      position: message.position,
    };
  }
  return undefined;
}

const ms = (seconds: number): number => Math.round(seconds * 1000);

/** The text edits a timeline edit makes, or a sentence saying why it makes none. */
export function editsForTimeline(
  source: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
  edit: TimelineEdit,
): TextEdit[] | string {
  const { cues } = scanSubtitles(source, format);
  try {
    if (edit.type === 'retime') {
      const cue = cues[edit.index - 1];
      if (!cue) return `There is no cue ${edit.index}.`;
      if (ms(edit.end) <= ms(edit.start)) return `Cue ${edit.index} would end before it starts.`;
      const times = {
        ...(ms(edit.start) !== ms(cue.start) ? { start: ms(edit.start) } : {}),
        ...(ms(edit.end) !== ms(cue.end) ? { end: ms(edit.end) } : {}),
      };
      return Object.keys(times).length === 0 ? [] : retimeCues(source, format, new Map([[edit.index, times]]));
    }
    if (edit.edge === 'split') {
      const index = cueAtTime(cues, edit.position) ?? edit.index;
      if (index === null) return 'Put the playhead inside a cue to split it.';
      return splitCueAt(source, format, style, index, edit.position);
    }
    if (edit.index === null) return `Put the cursor in a cue (or click one) to set its ${edit.edge} at the playhead.`;
    const cue = cues[edit.index - 1];
    if (!cue) return `There is no cue ${edit.index}.`;
    const start = edit.edge === 'start' ? edit.position : cue.start;
    const end = edit.edge === 'end' ? edit.position : cue.end;
    if (ms(end) <= ms(start))
      return `The playhead (${edit.position.toFixed(3)} s) is ${edit.edge === 'start' ? 'after the end' : 'before the start'} of cue ${edit.index}.`;
    return retimeCues(
      source,
      format,
      new Map([[edit.index, edit.edge === 'start' ? { start: ms(start) } : { end: ms(end) }]]),
    );
  } catch (error) {
    if (error instanceof SubtitleEditError) return `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`;
    throw error;
  }
}
