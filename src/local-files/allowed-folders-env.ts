/** The folders SPEECH_STUDIO_ALLOWED_FOLDERS opens to the MCP file tools: absolute paths joined by the platform's path delimiter. */
import path from 'node:path';

export const ALLOWED_FOLDERS_ENV = 'SPEECH_STUDIO_ALLOWED_FOLDERS';

export function foldersFromEnvironment(env: NodeJS.ProcessEnv): string[] {
  return (env[ALLOWED_FOLDERS_ENV] ?? '')
    .split(path.delimiter)
    .map((folder) => folder.trim())
    .filter((folder) => path.isAbsolute(folder));
}
