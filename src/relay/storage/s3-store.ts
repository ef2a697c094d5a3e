/** The relay's blobs as objects of an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), streamed both ways. */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { finished, type Readable } from 'node:stream';
import { describeThrown } from '../../util/log';
import { BlobStoreError, BlobTooLargeError, byteCounter, checkBlobKey, type BlobStore } from './blob-store';
import { S3_TIMEOUTS, type S3StoreConfig, type S3Timeouts } from './s3-location';

/**
 * Multipart parts of 5 MiB (S3's smallest), at most two in flight: an upload holds about 15 MiB of memory
 * however large it is (a 512 MB one included).
 */
export const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

const statusOf = (error: unknown): number | undefined =>
  error instanceof S3ServiceException
    ? error.$metadata.httpStatusCode
    : (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;

const isMissing = (error: unknown): boolean =>
  (error as { name?: string })?.name === 'NoSuchKey' ||
  (error as { name?: string })?.name === 'NotFound' ||
  statusOf(error) === 404;

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly where: string;
  private readonly timeouts: S3Timeouts;

  constructor(readonly config: S3StoreConfig) {
    this.timeouts = { ...S3_TIMEOUTS, ...config.timeouts };
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // MinIO-like servers reject the CRC trailers the SDK adds by default since 2025; S3 needs none of them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      // A download holds its connection while a slow client reads: leave room for many. No idle timeout on the
      // socket for the same reason (a paused download is idle); the request timeout ends at the answer's headers.
      requestHandler: {
        httpAgent: { keepAlive: true, maxSockets: 256 },
        httpsAgent: { keepAlive: true, maxSockets: 256 },
        connectionTimeout: this.timeouts.connectMs,
        requestTimeout: this.timeouts.requestMs,
        throwOnRequestTimeout: true,
      },
    });
    this.where = `bucket "${config.bucket}"${config.endpoint ? ` at ${config.endpoint}` : ` in ${config.region}`}`;
  }

  private objectKey(key: string): string {
    checkBlobKey(key);
    return this.config.prefix === '' ? key : `${this.config.prefix}/${key}`;
  }

  private failure(what: string, key: string, error: unknown): BlobStoreError {
    const status = statusOf(error);
    const reason = `${this.describe(error)}${status ? ` (HTTP ${status})` : ''}`;
    return new BlobStoreError(`The relay's object storage (${this.where}) failed to ${what} ${key}: ${reason}`, {
      cause: error,
    });
  }

  /** The SDK's words for a timeout name its own package and option: say what happened instead. */
  private describe(error: unknown): string {
    const { name, message } = (error ?? {}) as { name?: string; message?: string };
    if (name === 'TimeoutError' || name === 'AbortError') {
      if (message?.includes('connection'))
        return `no connection within ${this.timeouts.connectMs / 1000} s (is the endpoint right and reachable?)`;
      return `no answer within ${this.timeouts.requestMs / 1000} s (the endpoint accepted the connection but did not answer)`;
    }
    return describeThrown(error) || name || 'unknown error';
  }

  /** Checks at start that the bucket exists and the credentials may use it; throws one readable sentence. */
  async verify(): Promise<void> {
    const { startupMs } = this.timeouts;
    const deadline = AbortSignal.timeout(startupMs);
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }), { abortSignal: deadline });
    } catch (error) {
      if (deadline.aborted)
        throw new BlobStoreError(
          `The S3 ${this.where} did not answer the start-up check within ${startupMs / 1000} s: check --s3-endpoint and that the storage server is up.`,
        );
      const status = statusOf(error);
      if (status === 404)
        throw new BlobStoreError(
          `The S3 bucket "${this.config.bucket}" does not exist${this.config.endpoint ? ` at ${this.config.endpoint}` : ` in ${this.config.region}`}: create it, or correct --storage.`,
        );
      if (status === 401 || status === 403) {
        throw new BlobStoreError(
          `The S3 ${this.where} refused the credentials (HTTP ${status}): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or --s3-access-key-id and --s3-secret-access-key) and the bucket's policy.`,
        );
      }
      if (status === 301 || status === 400) {
        throw new BlobStoreError(
          `The S3 ${this.where} answered HTTP ${status}: check --s3-region (the bucket's region) and --s3-path-style.`,
        );
      }
      throw new BlobStoreError(`Could not reach the S3 ${this.where}: ${this.describe(error)}.`);
    }
  }

  /** A multipart upload from the stream; past `maxBytes`, or on any failure, it is aborted and no object appears. */
  async put(key: string, source: Readable, options: { maxBytes?: number } = {}): Promise<number> {
    const objectKey = this.objectKey(key);
    const counter = byteCounter(options.maxBytes);
    // The source fails first when the sender goes away: that error, not the storage's, is what happened.
    // (pipe, not pipeline: a failed upload must leave the source to the caller, who may still answer on it.)
    // A source destroyed before its end (no error) counts as failed too, or the upload would wait forever.
    let sourceError: unknown;
    finished(source, { writable: false }, (error) => {
      if (error) counter.stream.destroy((sourceError ??= error) as Error);
    });
    source.pipe(counter.stream);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: objectKey, Body: counter.stream },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
      return counter.bytes();
    } catch (error) {
      const cause = sourceError;
      source.unpipe(counter.stream);
      counter.stream.destroy();
      await upload.abort().catch(() => undefined);
      if (options.maxBytes !== undefined && counter.bytes() > options.maxBytes)
        throw new BlobTooLargeError(options.maxBytes);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the source stream's own error, handed on as it was
      if (cause !== undefined) throw cause;
      throw this.failure('store', key, error);
    }
  }

  async get(key: string): Promise<{ stream: Readable; bytes: number } | undefined> {
    const objectKey = this.objectKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: objectKey }));
      const stream = object.Body as Readable;
      const bytes =
        object.ContentLength ??
        (await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: objectKey }))).ContentLength ??
        0;
      return { stream, bytes };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw this.failure('read', key, error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      if (!isMissing(error)) throw this.failure('delete', key, error);
    }
  }

  /** Closes the client's idle connections. */
  close(): void {
    this.client.destroy();
  }
}

/** A store on the bucket, checked: resolves only when the bucket exists and the credentials may use it. */
export async function openS3BlobStore(config: S3StoreConfig): Promise<S3BlobStore> {
  const store = new S3BlobStore(config);
  try {
    await store.verify();
    return store;
  } catch (error) {
    store.close();
    throw error;
  }
}
