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
}

/** `s3://bucket/some/prefix` → its bucket and prefix; a TypeError names what is wrong. */
export function parseS3Url(text: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/?#]+)(\/[^?#]*)?$/.exec(text);
  if (!match) throw new TypeError(`Expected --storage s3://bucket/prefix, got ${JSON.stringify(text)}.`);
  const [, bucket, path = ''] = match;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new TypeError(`Expected an S3 bucket name of 3 to 63 lower-case letters, digits, dots and hyphens, got ${JSON.stringify(bucket)}.`);
  }
  const prefix = path.split('/').filter(Boolean).join('/');
  if (prefix !== '') checkBlobKey(prefix);
  return { bucket, prefix };
}
