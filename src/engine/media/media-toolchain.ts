/**
 * Which ffmpeg this process decodes and encodes with, chosen once per configuration: the system's ffmpeg and
 * ffprobe (the fast path) when the configuration's `ffmpeg` (SPEECH_STUDIO_FFMPEG) names one or both are on
 * the search path, else ffmpeg compiled to WebAssembly. `wasm` forces the WebAssembly build (the test suite's
 * second pass uses it).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { engineConfig, type EngineConfig } from '../engine-config';
import { findMediaTools, runTool, type MediaTools } from './ffmpeg';
import { WASM_FFMPEG_VERSION } from './wasm-ffmpeg';

/** The WebAssembly build: commands run in a worker thread of this process (wasm-ffmpeg.ts). */
export interface WasmMedia {
  wasm: true;
}

export const WASM_MEDIA: WasmMedia = { wasm: true };

/** Either system executables or the WebAssembly build. */
export type MediaToolchain = MediaTools | WasmMedia;

export const isWasmMedia = (tools: MediaToolchain): tools is WasmMedia => 'wasm' in tools;

/** What `GET /capabilities` and the logs say about the ffmpeg in use. */
export interface MediaToolchainInfo {
  kind: 'system' | 'webassembly';
  /** The ffmpeg executable (system only). */
  path?: string;
  /** ffmpeg's version, e.g. `5.1.4`; null when the system ffmpeg did not say. */
  version: string | null;
  /** One line for people: `system /usr/bin/ffmpeg 5.1.8` or `webassembly 5.1.4`. */
  description: string;
}

const WASM_NAMES = new Set(['wasm', 'webassembly']);

/** The part of the configuration that decides. */
export type MediaSettings = Pick<EngineConfig, 'ffmpeg' | 'ffprobe' | 'searchPath'>;

/** Decides from the configuration and its search path, without running anything. */
export function chooseMediaToolchain(config: MediaSettings = engineConfig()): MediaToolchain {
  const configured = config.ffmpeg?.trim();
  if (configured && WASM_NAMES.has(configured.toLowerCase())) return WASM_MEDIA;
  const tools = findMediaTools(config);
  // A configured path is used as it is: if it is wrong, the error says so instead of quietly going slow.
  if (configured) return tools;
  const ffmpeg = findOnPath('ffmpeg', config.searchPath);
  const ffprobe = findOnPath('ffprobe', config.searchPath);
  return ffmpeg && ffprobe ? { ffmpeg, ffprobe } : WASM_MEDIA;
}

let chosen: { key: string; tools: MediaToolchain; info?: Promise<MediaToolchainInfo> } | undefined;

/** This process's toolchain, decided on first use and kept while the configuration that decides it stays the same. */
function current(): NonNullable<typeof chosen> {
  const config = engineConfig();
  const key = `${config.ffmpeg ?? ''}\0${config.ffprobe ?? ''}\0${config.searchPath}`;
  if (chosen?.key !== key) chosen = { key, tools: chooseMediaToolchain(config) };
  return chosen;
}

export function mediaToolchain(): MediaToolchain {
  return current().tools;
}

/** Names and versions the toolchain, asking the system ffmpeg for its version. */
export async function describeMediaToolchain(tools: MediaToolchain = mediaToolchain()): Promise<MediaToolchainInfo> {
  if (isWasmMedia(tools)) return { kind: 'webassembly', version: WASM_FFMPEG_VERSION, description: `webassembly ${WASM_FFMPEG_VERSION}` };
  let version: string | null;
  try {
    const { stdout } = await runTool('ffmpeg', tools.ffmpeg, ['-version']);
    version = /ffmpeg version (?:n)?(\d+(?:\.\d+)*)/.exec(stdout)?.[1] ?? null;
  } catch {
    version = null;
  }
  const description = `system ${tools.ffmpeg}${version ? ` ${version}` : ' (not runnable)'}`;
  return { kind: 'system', path: tools.ffmpeg, version, description };
}

/** describeMediaToolchain for this process's toolchain, asked once. */
export function mediaToolchainInfo(): Promise<MediaToolchainInfo> {
  const entry = current();
  entry.info ??= describeMediaToolchain(entry.tools);
  return entry.info;
}

function findOnPath(name: string, searchPath: string): string | null {
  const extensions = process.platform === 'win32' ? ['.exe', '.cmd', '.bat'] : [''];
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    for (const extension of extensions) {
      const candidate = path.join(dir, name + extension.toLowerCase());
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    }
  }
  return null;
}
