import path from 'node:path';
import { defaultDataDir } from '../util/data-dir';
import { UsageError } from '../util/usage-error';
import { checkDeviceLink } from '../link/relay-address';

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  auth: boolean;
  /** Join a relay's device pool (src/device/): its URL and this device's token, both or neither. */
  relay?: { url: string; deviceToken: string };
  /**
   * The default STT model (`--stt-model`, `SPEECH_STUDIO_STT_MODEL`): an installed file's name or a catalog
   * id. Jobs use it when it serves their language; else the best installed model for it.
   */
  sttModel?: string;
}

type Flags = {
  host?: string;
  port?: string;
  'data-dir'?: string;
  auth?: string;
  relay?: string;
  'device-token'?: string;
  'stt-model'?: string;
};

/** Flags win over SPEECH_STUDIO_* environment variables, which win over the defaults. */
export function resolveServeOptions(flags: Flags, env: NodeJS.ProcessEnv): ServeOptions {
  const host = flags.host ?? env.SPEECH_STUDIO_HOST ?? '127.0.0.1';
  const portText = flags.port ?? env.SPEECH_STUDIO_PORT ?? '17860';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535)
    throw new UsageError(`Expected a port from 0 to 65535, got ${JSON.stringify(portText)}.`);
  const authText = (flags.auth ?? env.SPEECH_STUDIO_AUTH ?? 'off').toLowerCase();
  if (!['on', 'off', 'true', 'false', '1', '0'].includes(authText)) {
    throw new UsageError(`Expected --auth on or off, got ${JSON.stringify(authText)}.`);
  }
  const dataDir = path.resolve(flags['data-dir'] ?? env.SPEECH_STUDIO_DATA_DIR ?? defaultDataDir(env));
  const relayUrl = flags.relay ?? env.SPEECH_STUDIO_RELAY;
  const deviceToken = flags['device-token'] ?? env.SPEECH_STUDIO_DEVICE_TOKEN;
  if (Boolean(relayUrl) !== Boolean(deviceToken)) {
    throw new UsageError(
      'Expected --relay URL and --device-token T together (the token comes from the relay\'s portal or "relay.js devices enrol").',
    );
  }
  if (relayUrl && deviceToken) {
    try {
      checkDeviceLink(relayUrl, deviceToken);
    } catch (error) {
      throw new UsageError(`${(error as Error).message}.`);
    }
  }
  const relay = relayUrl && deviceToken ? { relay: { url: relayUrl, deviceToken } } : {};
  const sttModel = (flags['stt-model'] ?? env.SPEECH_STUDIO_STT_MODEL)?.trim();
  return {
    host,
    port,
    dataDir,
    auth: ['on', 'true', '1'].includes(authText),
    ...relay,
    ...(sttModel ? { sttModel } : {}),
  };
}
