/**
 * EPUBCheck (Debian's `epubcheck`), run as `java -jar` because the /usr/bin wrapper needs binfmt support,
 * and the overlays of a read-along book read back from its archive, for the tests to check against the audio.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { strFromU8, unzipSync } from 'fflate';

export const EPUBCHECK_JAR = '/usr/share/java/epubcheck.jar';

/** EPUBCheck's verdict: its exit code, and its ERROR/FATAL lines. */
export async function epubcheck(file: string): Promise<{ code: number; errors: string[]; output: string }> {
  const run = await promisify(execFile)('java', ['-jar', EPUBCHECK_JAR, file], { maxBuffer: 16 << 20 })
    .then((result) => ({ code: 0, ...result }))
    .catch((error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? 1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }));
  const output = `${run.stdout}\n${run.stderr}`;
  return { code: run.code, errors: output.split('\n').filter((line) => /^(ERROR|FATAL)/.test(line)), output };
}

export interface OverlayClip {
  /** Archive paths of the XHTML document and the audio, and the element id. */
  document: string;
  id: string;
  audio: string;
  begin: number;
  end: number;
}

const resolve = (from: string, href: string): string => {
  const parts = from.split('/').slice(0, -1);
  for (const part of decodeURIComponent(href).split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
};

const seconds = (clock: string): number => {
  if (clock.endsWith('s')) return Number(clock.slice(0, -1));
  return clock.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
};

/** The book's files, and every `<par>` of every SMIL document in it, in order. */
export function readOverlays(bytes: Uint8Array): {
  files: Record<string, Uint8Array>;
  text(name: string): string;
  clips: OverlayClip[];
} {
  const files = unzipSync(bytes);
  const text = (name: string): string => strFromU8(files[name]);
  const clips: OverlayClip[] = [];
  for (const name of Object.keys(files)
    .filter((file) => file.endsWith('.smil'))
    .sort()) {
    for (const par of text(name).matchAll(
      /<text src="([^"#]+)#([^"]+)"\/>\s*<audio src="([^"]+)" clipBegin="([^"]+)" clipEnd="([^"]+)"\/>/g,
    )) {
      clips.push({
        document: resolve(name, par[1]),
        id: par[2],
        audio: resolve(name, par[3]),
        begin: seconds(par[4]),
        end: seconds(par[5]),
      });
    }
  }
  return { files, text, clips };
}
