/**
 * Outside probe of the relay's S3 options and of the device link: bucket names S3 refuses (other than the
 * ones the issue listed), endpoints that are not URLs or point at a closed port, and a device whose relay
 * is unreachable or not a URL. Each process either refuses within its deadline with one readable sentence
 * (no stack trace) or starts and answers without a 5xx it cannot explain; none hangs, none writes outside.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { before, describe, it } from 'node:test';
import { startCli } from '../helpers/cli';
import { CLI, request } from '../helpers/server';
import { ADMIN_PASSWORD, pgliteDataDir, RELAY_CLI } from '../remote/helpers/relay';
import { probeEnds, useProbeSandbox } from './probe-kit';

/** A token of the right shape that no relay knows. */
const WELL_FORMED_TOKEN = `ssd_${'a'.repeat(40)}`;

interface Ended {
  code: number | string;
  output: string;
}

/** A port nothing listens on: bound, read, closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs a command that should refuse to start: resolves with its exit, or with 'listening' once it listens. */
function runUntilExitOrListen(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  listening: RegExp,
): { ended: Promise<Ended | 'listening'>; kill(): void } {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ended = new Promise<Ended | 'listening'>((resolve) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (listening.test(output)) resolve('listening');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => resolve({ code: code ?? signal ?? -1, output }));
  });
  return { ended, kill: () => child.kill('SIGKILL') };
}

describe('outside probe: relay S3 options and the device link', () => {
  const probe = useProbeSandbox('relay');
  const { tally } = probe;
  let relayData: string;
  before(async () => {
    relayData = await pgliteDataDir();
  });

  const refusesToStart = async (
    what: string,
    script: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    listening: RegExp,
    message: RegExp,
  ): Promise<void> => {
    const run = runUntilExitOrListen(script, args, env, listening);
    try {
      const ended = await tally.probe(
        what,
        () => run.ended,
        (e) => (e === 'listening' ? 200 : /\n\s+at .*:\d+:\d+/.test(e.output) ? 500 : 400),
        60_000,
      );
      assert.notEqual(ended, 'listening', `${what}: started`);
      const { code, output } = ended as Ended;
      assert.notEqual(code, 0, what);
      assert.match(output, message, `${what}: ${output.slice(0, 400)}`);
      assert.doesNotMatch(output, /\n\s+at .*:\d+:\d+/, `${what}: a stack trace\n${output.slice(0, 600)}`);
    } finally {
      run.kill();
    }
  };

  it('refuses S3 options S3 would refuse, each with a sentence naming the option', async () => {
    const relay = (storage: string, extra: string[] = []) => [
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data-dir',
      relayData,
      '--storage-dir',
      probe.box.work,
      '--storage',
      storage,
      ...extra,
    ];
    const env = { RELAY_ADMIN_PASSWORD: ADMIN_PASSWORD, AWS_ACCESS_KEY_ID: 'probe', AWS_SECRET_ACCESS_KEY: 'probe' };
    const cases: Array<[string, string, string[], RegExp]> = [
      ['bucket of two characters', 's3://ab/prefix', [], /bucket/i],
      ['bucket of 64 characters', `s3://${'b'.repeat(64)}`, [], /bucket/i],
      ['bucket with an underscore', 's3://team_speech', [], /bucket/i],
      ['bucket shaped like an IP address', 's3://192.168.0.1', [], /bucket/i],
      ['bucket ending in a hyphen', 's3://speech-', [], /bucket/i],
      ['bucket with two dots in a row', 's3://a..b', [], /bucket/i],
      ['no bucket at all', 's3://', [], /bucket|storage/i],
      ['not an s3 URL', 'ftp://bucket/prefix', [], /storage|s3/i],
      ['endpoint not a URL', 's3://team-speech', ['--s3-endpoint', 'not a url'], /s3-endpoint/],
      ['endpoint a file URL', 's3://team-speech', ['--s3-endpoint', 'file:///etc/passwd'], /s3-endpoint/],
      ['prefix climbing out', 's3://team-speech/../../x', [], /prefix|\.\.|storage/i],
    ];
    for (const [what, storage, extra, message] of cases) {
      await refusesToStart(`relay: ${what}`, RELAY_CLI, relay(storage, extra), env, /relay listening on/, message);
    }
  });

  it('with its S3 endpoint on a closed port, refuses at start or answers every request without hanging', async () => {
    const port = await closedPort();
    const run = runUntilExitOrListen(
      RELAY_CLI,
      [
        'serve',
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--data-dir',
        relayData,
        '--storage',
        's3://team-speech/probe',
        '--s3-endpoint',
        `http://127.0.0.1:${port}`,
        '--s3-path-style',
      ],
      {
        RELAY_ADMIN_PASSWORD: ADMIN_PASSWORD,
        AWS_ACCESS_KEY_ID: 'probe',
        AWS_SECRET_ACCESS_KEY: 'probe',
        AWS_MAX_ATTEMPTS: '1',
      },
      /relay listening on (http:\/\/\S+)\/v1/,
    );
    try {
      const ended = await tally.probe(
        'relay: S3 endpoint on a closed port',
        () => run.ended,
        (e) => (e === 'listening' ? 200 : /\n\s+at .*:\d+:\d+/.test(e.output) ? 500 : 400),
        60_000,
      );
      if (ended !== 'listening') {
        assert.notEqual(ended.code, 0);
        assert.doesNotMatch(ended.output, /\n\s+at .*:\d+:\d+/, ended.output.slice(0, 600));
      }
    } finally {
      run.kill();
    }
  });

  it('starts the Local API when the relay it should join is unreachable, and refuses a relay that is not a URL', async () => {
    const port = await closedPort();
    const cli = await tally.probe(
      'device: relay on a closed port',
      () =>
        startCli(
          [
            '--port',
            '0',
            '--data-dir',
            probe.box.data,
            '--relay',
            `http://127.0.0.1:${port}`,
            '--device-token',
            WELL_FORMED_TOKEN,
          ],
          { SPEECH_STUDIO_CALIBRATION: 'off' },
          60_000,
        ),
      () => 200,
      60_000,
    );
    try {
      const health = await tally.probe(
        'device: health while the relay is unreachable',
        () => request(`${cli.base}/health`),
        (r) => r.status,
      );
      assert.equal(health.status, 200);
    } finally {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
    const serve = (relay: string, token = WELL_FORMED_TOKEN) => [
      'serve',
      '--port',
      '0',
      '--data-dir',
      probe.box.data,
      '--relay',
      relay,
      '--device-token',
      token,
    ];
    const listening = /Speech Studio Local API listening on/;
    await refusesToStart(
      'device: relay not a URL',
      CLI,
      serve('not a url'),
      { SPEECH_STUDIO_CALIBRATION: 'off' },
      listening,
      /relay/i,
    );
    // The token's shape used to be checked only after the server listened: it served, then exited.
    await refusesToStart(
      'device: token of the wrong shape',
      CLI,
      serve(`http://127.0.0.1:${port}`, 'probe-token'),
      { SPEECH_STUDIO_CALIBRATION: 'off' },
      listening,
      /device token ssd_/,
    );
    await refusesToStart(
      'device: relay a file URL',
      CLI,
      serve('file:///etc/passwd'),
      { SPEECH_STUDIO_CALIBRATION: 'off' },
      listening,
      /relay/i,
    );
    await refusesToStart(
      'device: relay without a token',
      CLI,
      ['serve', '--port', '0', '--data-dir', probe.box.data, '--relay', `http://127.0.0.1:${port}`],
      { SPEECH_STUDIO_CALIBRATION: 'off', SPEECH_STUDIO_DEVICE_TOKEN: '' },
      listening,
      /token/i,
    );
  });

  probeEnds(probe, 'ended every process, and wrote nothing outside the work folder and the data directories');
});
