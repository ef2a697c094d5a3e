/** The upload sink of the relay: a job's input goes straight into the blob store. */
import type { UploadSink } from '../../http/upload/upload-sink';
import { jobBlobKey, type BlobStore } from './blob-store';

export interface JobBlobSink extends UploadSink {
  /** The blob key an upload stored under `name` has. */
  keyOf(name: string): string;
}

/** Stores each upload as the blob `jobs/<jobId>/<name>`. */
export function jobBlobSink(blobs: BlobStore, jobId: string): JobBlobSink {
  const keyOf = (name: string): string => jobBlobKey(jobId, name);
  return {
    keyOf,
    write: async (name, source) => void (await blobs.put(keyOf(name), source)),
    remove: (name) => blobs.delete(keyOf(name)),
  };
}
