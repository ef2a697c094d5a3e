import os from 'node:os';
import path from 'node:path';

/** The per-user data directory of the headless server, where each platform keeps application data. */
export function defaultDataDir(env: NodeJS.ProcessEnv, platform = process.platform): string {
  if (platform === 'win32')
    return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'Speech Studio');
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'Speech Studio');
  return path.join(env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share'), 'speech-studio');
}
