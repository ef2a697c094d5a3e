/** Which walkthrough milestone a job reaches: pure, so it is tested without VS Code. */
import { jobKindOf } from '../../jobs/kinds';
import type { JobRecord } from '../../jobs/types';

/** The walkthrough's milestones; each is the context key `speechStudio.walkthrough.<name>`. */
export type Milestone = 'heard' | 'naturalVoice' | 'sttModel' | 'transcribed' | 'narratedSubtitles' | 'calledApi';

/** The milestone a job's change reaches, if any. */
export function milestoneOfJob(job: JobRecord): Milestone | undefined {
  if (job.origin === 'api') return 'calledApi';
  if (job.status !== 'succeeded' || job.origin !== 'editor') return undefined;
  // An alignment is a transcription to the walkthrough, as it is to the seed's routes.
  if (jobKindOf(job.input.kind).seedKind === 'stt') return 'transcribed';
  if (job.input.kind !== 'tts') return undefined;
  const format = job.input.options.inputFormat ?? 'txt';
  return format === 'txt' ? 'heard' : 'narratedSubtitles';
}
