/**
 * Which ffmpeg this engine process decodes and encodes with: the choice its configuration selects
 * (src/engine-api/media-toolchain.ts), made once and kept while the configuration that decides it stays the same.
 */
import { engineConfig } from '../../engine-api/engine-config';
import {
  chooseMediaToolchain as chooseFor,
  describeMediaToolchain as describe,
  mediaSettingsKey,
  type MediaSettings,
  type MediaToolchain,
  type MediaToolchainInfo,
} from '../../engine-api/media-toolchain';

export { isWasmMedia, WASM_MEDIA } from '../../engine-api/media-toolchain';
export type { MediaSettings, MediaToolchain, MediaToolchainInfo, WasmMedia } from '../../engine-api/media-toolchain';

/** Decides from the configuration (this process's by default) and its search path, without running anything. */
export function chooseMediaToolchain(config: MediaSettings = engineConfig()): MediaToolchain {
  return chooseFor(config);
}

let chosen: { key: string; tools: MediaToolchain } | undefined;

/** This process's toolchain, decided on first use and kept while the configuration that decides it stays the same. */
export function mediaToolchain(): MediaToolchain {
  const config = engineConfig();
  const key = mediaSettingsKey(config);
  if (chosen?.key !== key) chosen = { key, tools: chooseFor(config) };
  return chosen.tools;
}

/** Names and versions the toolchain (this process's by default), asking the system ffmpeg for its version. */
export function describeMediaToolchain(tools: MediaToolchain = mediaToolchain()): Promise<MediaToolchainInfo> {
  return describe(tools);
}
