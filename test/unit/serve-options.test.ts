import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { resolveServeOptions } from '../../src/cli/serve-options';
import { UsageError } from '../../src/util/usage-error';
import { defaultDataDir } from '../../src/util/data-dir';

describe('serve options', () => {
  it('defaults to 127.0.0.1:17860, auth off, the per-user data directory', () => {
    const options = resolveServeOptions({}, { HOME: '/home/u', XDG_DATA_HOME: '/home/u/.data' });
    assert.deepEqual(options, { host: '127.0.0.1', port: 17860, auth: false, dataDir: '/home/u/.data/speech-studio' });
  });

  it('takes SPEECH_STUDIO_* variables, and flags over them', () => {
    const env = {
      SPEECH_STUDIO_HOST: '::1',
      SPEECH_STUDIO_PORT: '9000',
      SPEECH_STUDIO_AUTH: 'on',
      SPEECH_STUDIO_DATA_DIR: '/tmp/a',
    };
    assert.deepEqual(resolveServeOptions({}, env), { host: '::1', port: 9000, auth: true, dataDir: '/tmp/a' });
    assert.deepEqual(resolveServeOptions({ port: '9001', auth: 'off', 'data-dir': 'rel' }, env), {
      host: '::1',
      port: 9001,
      auth: false,
      dataDir: path.resolve('rel'),
    });
  });

  it('takes the default STT model from --stt-model or SPEECH_STUDIO_STT_MODEL, the flag first', () => {
    const env = { SPEECH_STUDIO_DATA_DIR: '/tmp/a', SPEECH_STUDIO_STT_MODEL: ' ggml-small.bin ' };
    assert.equal(resolveServeOptions({}, env).sttModel, 'ggml-small.bin');
    assert.equal(
      resolveServeOptions({ 'stt-model': 'parakeet-tdt-0.6b-v3-q4_0' }, env).sttModel,
      'parakeet-tdt-0.6b-v3-q4_0',
    );
    assert.equal(
      'sttModel' in resolveServeOptions({}, { SPEECH_STUDIO_DATA_DIR: '/tmp/a', SPEECH_STUDIO_STT_MODEL: '' }),
      false,
    );
  });

  it('refuses a bad port or auth value with a usage error', () => {
    for (const flags of [{ port: 'x' }, { port: '70000' }, { port: '-1' }, { auth: 'maybe' }]) {
      assert.throws(() => resolveServeOptions(flags, {}), UsageError);
    }
  });

  it('puts the data directory where each platform keeps application data', () => {
    assert.match(defaultDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32'), /Speech Studio$/);
    assert.match(defaultDataDir({}, 'darwin'), /Library\/Application Support\/Speech Studio$/);
  });
});
