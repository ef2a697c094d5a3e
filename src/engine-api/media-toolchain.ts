/**
 * Which ffmpeg an engine configuration selects, and how it is described: the system's ffmpeg and ffprobe (the
 * fast path) when the configuration's `ffmpeg` (SPEECH_STUDIO_FFMPEG) names one or both are on the search path,
 * else ffmpeg compiled to WebAssembly; `wasm` forces the WebAssembly build (the test suite's second pass uses
 * it). The engine decodes and encodes with the choice (src/engine/media/media-toolchain.ts); the server reports
 * it (GET /capabilities, the start-up log) from the same configuration, without running engine code.
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { EngineConfig } from './engine-config';

/** The ffmpeg and ffprobe executables to run: absolute paths, or bare names looked up on PATH. */
export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

/** The WebAssembly build: commands run in a worker thread of the engine process (src/engine/media/wasm-ffmpeg.ts). */
export interface WasmMedia {
  wasm: true;
}

export const WASM_MEDIA: WasmMedia = { wasm: true };

/** The ffmpeg release inside the pinned `@ffmpeg/core` 0.12.10 (the engine's WebAssembly ffmpeg). */
export const WASM_FFMPEG_VERSION = '5.1.4';

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

/**
 * The configuration's ffmpeg (SPEECH_STUDIO_FFMPEG) or `ffmpeg` on PATH; its ffprobe (SPEECH_STUDIO_FFPROBE),
 * else beside the configured ffmpeg (builds ship the two together), else `ffprobe` on PATH.
 */
export function mediaToolsFor(config: Pick<EngineConfig, 'ffmpeg' | 'ffprobe'>): MediaTools {
  const configured = config.ffmpeg?.trim();
  // `wasm` asks for the WebAssembly build (chooseMediaToolchain); the system tools are then the ones on PATH.
  const ffmpeg = configured && !WASM_NAMES.has(configured.toLowerCase()) ? configured : 'ffmpeg';
  const explicitProbe = config.ffprobe?.trim();
  if (explicitProbe) return { ffmpeg, ffprobe: explicitProbe };
  if (!path.isAbsolute(ffmpeg)) return { ffmpeg, ffprobe: 'ffprobe' };
  const extension = path.extname(ffmpeg);
  return { ffmpeg, ffprobe: path.join(path.dirname(ffmpeg), `ffprobe${extension}`) };
}

/** Decides from the configuration and its search path, without running anything. */
export function chooseMediaToolchain(config: MediaSettings): MediaToolchain {
  const configured = config.ffmpeg?.trim();
  if (configured && WASM_NAMES.has(configured.toLowerCase())) return WASM_MEDIA;
  const tools = mediaToolsFor(config);
  // A configured path is used as it is: if it is wrong, the error says so instead of quietly going slow.
  if (configured) return tools;
  const ffmpeg = findOnPath('ffmpeg', config.searchPath);
  const ffprobe = findOnPath('ffprobe', config.searchPath);
  return ffmpeg && ffprobe ? { ffmpeg, ffprobe } : WASM_MEDIA;
}

/** The key under which a configuration's choice is kept: the fields that decide it. */
export const mediaSettingsKey = (config: MediaSettings): string =>
  `${config.ffmpeg ?? ''}\0${config.ffprobe ?? ''}\0${config.searchPath}`;

/** Names and versions the toolchain, asking the system ffmpeg for its version. */
export async function describeMediaToolchain(tools: MediaToolchain): Promise<MediaToolchainInfo> {
  if (isWasmMedia(tools))
    return { kind: 'webassembly', version: WASM_FFMPEG_VERSION, description: `webassembly ${WASM_FFMPEG_VERSION}` };
  const version = await new Promise<string | null>((resolve) => {
    execFile(tools.ffmpeg, ['-version'], { windowsHide: true }, (_error, stdout) => {
      resolve(/ffmpeg version (?:n)?(\d+(?:\.\d+)*)/.exec(stdout ?? '')?.[1] ?? null);
    });
  });
  const description = `system ${tools.ffmpeg}${version ? ` ${version}` : ' (not runnable)'}`;
  return { kind: 'system', path: tools.ffmpeg, version, description };
}

const described = new Map<string, Promise<MediaToolchainInfo>>();

/** describeMediaToolchain for the toolchain a configuration selects, asked once per configuration. */
export function mediaToolchainInfo(config: MediaSettings): Promise<MediaToolchainInfo> {
  const key = mediaSettingsKey(config);
  let info = described.get(key);
  if (!info) described.set(key, (info = describeMediaToolchain(chooseMediaToolchain(config))));
  return info;
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
