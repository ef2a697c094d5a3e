/**
 * The audio of a live TTS job as it is written: the engine appends to `<output>.partial` while it speaks
 * (TtsTask.live) and renames it when done, so reading the open file until the job ends yields every byte
 * once, in order, long before the job finishes. The engine encodes every format OpenAI names (opus and pcm
 * too); the one shape left for the way out is WAV's streaming header.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { JobService } from '../jobs/job-service';
import { isActive, type JobRecord } from '../jobs/types';

/** How often the file of a running job is looked at between job events (a chunk of speech takes far longer). */
const POLL_MS = 20;
const READ_BYTES = 64 * 1024;
const WAV_HEADER_BYTES = 44;

/** The job ended without succeeding; `job` says how. */
export class JobEndedError extends Error {
  constructor(readonly job: JobRecord) {
    super(job.error ?? `The job was ${job.status}.`);
    this.name = 'JobEndedError';
  }
}

/** Resolves on the job's next change or after `ms` (when given), whichever comes first. */
function nextChange(jobs: Pick<JobService, 'on' | 'off'>, id: string, ms: number | null): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      if (timer) clearTimeout(timer);
      jobs.off('change', onChange);
      resolve();
    };
    const onChange = (job: JobRecord): void => {
      if (job.id === id) done();
    };
    const timer = ms === null ? undefined : setTimeout(done, ms);
    jobs.on('change', onChange);
  });
}

/** Every byte of a live TTS job's output, as it is written; throws JobEndedError when the job fails. */
export async function* tailJobOutput(jobs: JobService, id: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const job = jobs.get(id);
  if (!job) throw new Error(`Job ${id} is not in the store.`);
  const output = jobs.files.finishedOutputFile(job);
  if (!output) throw new Error(`Job ${id} keeps no output in its folder.`);
  const final = jobs.files.file(id, output);
  let handle: FileHandle | undefined;
  let position = 0;
  try {
    while (!signal?.aborted) {
      // The state is read before the file: bytes written before the job ended are all there when it has.
      const latest = jobs.get(id) ?? job;
      const ended = !isActive(latest.status);
      if (ended && latest.status !== 'succeeded') throw new JobEndedError(latest);
      handle ??=
        (await open(`${final}.partial`, 'r').catch(() => undefined)) ?? (await open(final, 'r').catch(() => undefined));
      if (handle) {
        for (;;) {
          const buffer = Buffer.alloc(READ_BYTES);
          const { bytesRead } = await handle.read(buffer, 0, READ_BYTES, position);
          if (bytesRead === 0) break;
          position += bytesRead;
          yield buffer.subarray(0, bytesRead);
        }
      }
      if (ended) {
        if (!handle)
          throw new JobEndedError({ ...latest, error: 'The output file of this job is gone from the data directory.' });
        return;
      }
      // A queued job writes nothing until it starts, which is a change: its request waits for that, without
      // looking at the file system (49 queued requests polling every 20 ms held /health up to 2.4 s).
      await nextChange(jobs, id, latest.status === 'queued' ? null : POLL_MS);
    }
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * A WAV stream whose header says "length unknown" (0xFFFFFFFF), as streaming WAV does: the writer patches
 * the real sizes only at the end, after these bytes have left.
 */
export async function* streamingWav(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let head = Buffer.alloc(0);
  let passed = false;
  for await (const chunk of source) {
    if (passed) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < WAV_HEADER_BYTES) continue;
    head.writeUInt32LE(0xffffffff, 4);
    head.writeUInt32LE(0xffffffff, 40);
    passed = true;
    yield head;
  }
}
