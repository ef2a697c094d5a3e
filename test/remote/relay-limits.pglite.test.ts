import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { countRequest } from '../../src/relay/data/rate-windows';
import type { Database } from '../../src/relay/db/database';
import { openDatabase } from '../../src/relay/db/open-database';
import { bucketNameProblem, parseS3Url } from '../../src/relay/storage/s3-location';
import { silentLogger } from '../../src/util/log';
import { tempDir } from '../helpers/server';
import { pgliteDataDir, RELAY_CLI } from './helpers/relay';

const MINUTE = 60_000;

describe("the relay's per-key rate limit is a sliding minute (PGlite)", () => {
  let dir: string;
  let db: Database;
  before(async () => {
    dir = await pgliteDataDir();
    db = await openDatabase({ dataDir: dir, log: silentLogger });
  });
  after(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets no more than the limit through across a minute boundary, and takes refused requests back', async () => {
    const limit = 5;
    const boundary = 1_800_000_000_000; // a whole minute
    const justBefore = boundary - 100;
    for (let n = 1; n <= limit; n++)
      assert.equal((await countRequest(db, 'key-a', justBefore, limit, MINUTE)).refused, false, `request ${n}`);
    const sameSecond = await countRequest(db, 'key-a', justBefore, limit, MINUTE);
    assert.equal(sameSecond.refused, true);
    // A fixed window starts again here and would let another `limit` through: twice the limit in 200 ms.
    const justAfter = await countRequest(db, 'key-a', boundary + 100, limit, MINUTE);
    assert.equal(justAfter.refused, true);
    assert.ok(
      justAfter.retryAfterSeconds >= 59 && justAfter.retryAfterSeconds <= 60,
      String(justAfter.retryAfterSeconds),
    );
    // Knocking all minute long does not push the wait out: refused requests are not counted.
    for (let second = 1; second < 59; second += 7)
      assert.equal((await countRequest(db, 'key-a', boundary + second * 1000, limit, MINUTE)).refused, true);
    const aMinuteLater = justBefore + MINUTE + 1000;
    for (let n = 1; n <= limit; n++)
      assert.equal((await countRequest(db, 'key-a', aMinuteLater, limit, MINUTE)).refused, false, `later request ${n}`);
    assert.equal((await countRequest(db, 'key-a', aMinuteLater, limit, MINUTE)).refused, true);
    assert.equal(
      (await countRequest(db, 'key-b', aMinuteLater, limit, MINUTE)).refused,
      false,
      'each key has its own count',
    );
  });
});

describe("the relay's S3 location: bucket names by S3's rules, in one sentence", () => {
  it('names the rule a bucket name breaks', () => {
    const cases: Array<[string, RegExp]> = [
      ['MyBucket', /upper-case/],
      ['ab', /3 to 63 characters/],
      ['a'.repeat(64), /3 to 63 characters/],
      ['my_bucket', /only lower-case letters, digits, dots and hyphens/],
      ['-bucket', /begin and end with a letter or a digit/],
      ['bucket.', /begin and end/],
      ['my..bucket', /two dots in a row/],
      ['my.-bucket', /dot may not stand next to a hyphen/],
      ['192.168.5.4', /IP address/],
      ['xn--bucket', /may not begin with "xn--"/],
      ['data-s3alias', /may not end with "-s3alias"/],
    ];
    for (const [bucket, rule] of cases) assert.match(bucketNameProblem(bucket) ?? 'accepted', rule, bucket);
    for (const bucket of ['speech-bucket', 'my.bucket.example', '123bucket', 'abc'])
      assert.equal(bucketNameProblem(bucket), undefined, bucket);
    assert.throws(
      () => parseS3Url('s3://MyBucket/relay'),
      /^TypeError: The S3 bucket name "MyBucket" is not valid: it may not hold upper-case letters/,
    );
  });

  it('relay.js serve --storage s3://MyBucket/… refuses with that sentence, and nothing about other options', async () => {
    const dataDir = await tempDir();
    try {
      const failed = await promisify(execFile)(
        process.execPath,
        [RELAY_CLI, 'serve', '--port', '0', '--data-dir', dataDir, '--storage', 's3://MyBucket/relay'],
        {
          env: { ...process.env, AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 'secret', RELAY_ADMIN_PASSWORD: '' },
        },
      ).then(
        () => assert.fail('the relay started'),
        (error: { code: number; stderr: string }) => error,
      );
      assert.equal(failed.code, 2);
      assert.match(failed.stderr, /^The S3 bucket name "MyBucket" is not valid: it may not hold upper-case letters/);
      assert.doesNotMatch(failed.stderr, /password/i);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
