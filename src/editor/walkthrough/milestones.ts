/** Which walkthrough milestone a job reaches: pure, so it is tested without VS Code. */
import type { JobRecord } from '../../jobs/types';

/** The walkthrough's milestones; each is the context key `speechStudio.walkthrough.<name>`. */
export type Milestone = 'heard' | 'naturalVoice' | 'sttModel' | 'transcribed' | 'narratedSubtitles' | 'calledApi';

/** The milestone a job's change reaches, if any. */
export function milestoneOfJob(job: JobRecord): Milestone | undefined {
  if (job.origin === 'api') return 'calledApi';
  if (job.status !== 'succeeded' || job.origin !== 'editor') return undefined;
  if (job.input.kind === 'stt') return 'transcribed';
  if (job.input.kind === 'book' || job.input.kind === 'translate' || job.input.kind === 'dub') return undefined;
  const format = job.input.options.inputFormat ?? 'txt';
  return format === 'txt' ? 'heard' : 'narratedSubtitles';
}
