/**
 * Where each kind of engine task waits in the engine scheduler: its lane and its rank within the lane. A
 * task's place comes from its kind, never from its caller, so two callers of one kind cannot disagree.
 *
 * - `job`: the work of stored jobs (TTS, STT, alignment, books, translation, dubs, embedding subtitles), and the
 *   long model work that still runs beside them as bare tasks (casting a book's voices, a model's answer, a
 *   speaker's voice print);
 * - `analysis`: the timeline's and the editor's looks at media (waveform, speech regions, shot changes, the
 *   reference clip of a cloned voice), which may borrow the process kept for speech;
 * - `interactive`: what a person waits on now. Read Aloud's sentences and a live session's committed
 *   utterance (rank 0) go before a live session's looks at audio not yet committed (rank 1).
 */
import type { EngineTask, LiveWindowTask } from '../engine-api/protocol';
import type { TaskPlace } from './engine-scheduler';

type Kind = EngineTask['kind'];

const JOB = { lane: 'job', rank: 0 } as const;
const ANALYSIS = { lane: 'analysis', rank: 0 } as const;
const SPEECH = { lane: 'interactive', rank: 0 } as const;
const LIVE_LOOK = { lane: 'interactive', rank: 1 } as const;

/** The lane of every kind: adding a kind to the engine's protocol without a line here fails the type check. */
const LANES: Record<Kind, Omit<TaskPlace, 'label'>> = {
  tts: JOB,
  stt: JOB,
  align: JOB,
  book: JOB,
  translate: JOB,
  dub: JOB,
  // A job's (src/jobs/kinds/embed.ts): it writes the user's file and cannot yield, so it must not borrow speech's process.
  'embed-subtitles': JOB,
  'cast-attribute': JOB,
  'llm-generate': JOB,
  'speaker-embedding': JOB,
  waveform: ANALYSIS,
  'speech-regions': ANALYSIS,
  'shot-changes': ANALYSIS,
  'voice-reference': ANALYSIS,
  speak: SPEECH,
  'live-window': LIVE_LOOK,
};

/** What the place of a task is read from: its kind and, for a live look, whether it decodes a committed utterance. */
export type TaskPlacing = Pick<EngineTask, 'kind'> & Partial<Pick<LiveWindowTask, 'decode' | 'preview'>>;

/** A live look that decodes the words without `preview` is a committed utterance's final decode. */
const isFinalLiveDecode = (task: TaskPlacing): boolean =>
  task.kind === 'live-window' && task.decode === true && task.preview !== true;

/** The place in the engine scheduler of a task of this kind (labelled with the kind, so waiting tasks can be counted by kind). */
export function taskPlace(task: TaskPlacing): TaskPlace {
  const place = isFinalLiveDecode(task) ? SPEECH : LANES[task.kind];
  if (!place) throw new TypeError(`Expected an engine task kind, got ${String(task.kind)}`);
  return { ...place, label: task.kind };
}
