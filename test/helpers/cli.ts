import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './server';

export interface RunningCli {
  child: ChildProcess;
  base: string;
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * Starts `node dist/cli.js serve …` and resolves once it prints its listening line; a CLI that does not
 * listen within `startTimeoutMs` is killed, so no server outlives the failed start.
 */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, startTimeoutMs = 20_000): Promise<RunningCli> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The CLI did not start:\n${output}`));
    }, startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Speech Studio Local API listening on (http:\/\/\S+\/v1)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1], output: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`The CLI exited (${code}) before listening:\n${output}`));
    });
  });
}

/** Runs a CLI command to completion. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}
