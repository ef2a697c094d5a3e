import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Every file under `dir`, relative and with forward slashes; [] when `dir` does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path
        .relative(dir, path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name))
        .split(path.sep)
        .join('/'),
    )
    .sort();
}

/** A throwaway certificate for `localhost`, or null where openssl is not installed. */
export async function selfSignedCertificate(): Promise<{ key: string; cert: string } | null> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'speech-studio-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: await readFile(path.join(dir, 'key.pem'), 'utf8'),
      cert: await readFile(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
