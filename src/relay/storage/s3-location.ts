/** Where an S3 store keeps the relay's blobs: parsed from `--storage s3://bucket/prefix`, without loading the SDK. */
import { checkBlobKey } from './blob-store';

export interface S3StoreConfig {
  bucket: string;
  /** Prepended to every key, without leading or trailing slashes; '' for none. */
  prefix: string;
  /** e.g. `http://127.0.0.1:9000` for MinIO; undefined: AWS's endpoint for the region. */
  endpoint?: string;
  region: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`, as MinIO-like servers want. */
  forcePathStyle: boolean;
  /** Always given: the SDK's default chain would otherwise ask the EC2 metadata service over the network. */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** How long to wait for the endpoint; by default S3_TIMEOUTS. */
  timeouts?: Partial<S3Timeouts>;
}

export interface S3Timeouts {
  /** To open a TCP connection. */
  connectMs: number;
  /** From sending a request (a 5 MiB part's body included) to the first byte of its answer. */
  requestMs: number;
  /** The start-up check in all, retries included: past it the relay exits with a sentence. */
  startupMs: number;
}

/**
 * An endpoint that accepts connections and never answers must fail a request readably in bounded time, not
 * hold it until the operating system gives up on the socket. A part of 5 MiB needs well under 30 s on any link
 * a relay should use; two attempts bound a call at about a minute.
 */
export const S3_TIMEOUTS: S3Timeouts = { connectMs: 5_000, requestMs: 30_000, startupMs: 20_000 };

const RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];

/**
 * What breaks S3's rules for general-purpose bucket names, in one clause, or undefined when it keeps them.
 * @example bucketNameProblem('MyBucket') // 'it may hold only lower-case letters, digits, dots and hyphens'
 */
export function bucketNameProblem(bucket: string): string | undefined {
  if (bucket.length < 3 || bucket.length > 63) return `it must be 3 to 63 characters long, not ${bucket.length}`;
  if (/[A-Z]/.test(bucket)) return 'it may not hold upper-case letters (S3 bucket names are lower-case)';
  if (!/^[a-z0-9.-]+$/.test(bucket)) return 'it may hold only lower-case letters, digits, dots and hyphens';
  if (!/^[a-z0-9]/.test(bucket) || !/[a-z0-9]$/.test(bucket)) return 'it must begin and end with a letter or a digit';
  if (bucket.includes('..')) return 'it may not hold two dots in a row';
  if (bucket.includes('.-') || bucket.includes('-.')) return 'a dot may not stand next to a hyphen';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(bucket)) return 'it may not be formatted as an IP address';
  const prefix = RESERVED_PREFIXES.find((reserved) => bucket.startsWith(reserved));
  if (prefix) return `it may not begin with "${prefix}", which S3 reserves`;
  const suffix = RESERVED_SUFFIXES.find((reserved) => bucket.endsWith(reserved));
  if (suffix) return `it may not end with "${suffix}", which S3 reserves`;
  return undefined;
}

/** `s3://bucket/some/prefix` → its bucket and prefix; a TypeError names what is wrong. */
export function parseS3Url(text: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/?#]+)(\/[^?#]*)?$/.exec(text);
  if (!match) throw new TypeError(`Expected --storage s3://bucket/prefix, got ${JSON.stringify(text)}.`);
  const [, bucket, path = ''] = match;
  const broken = bucketNameProblem(bucket);
  if (broken)
    throw new TypeError(
      `The S3 bucket name ${JSON.stringify(bucket)} is not valid: ${broken} (S3's bucket naming rules).`,
    );
  const prefix = path.split('/').filter(Boolean).join('/');
  if (prefix !== '') checkBlobKey(prefix);
  return { bucket, prefix };
}
