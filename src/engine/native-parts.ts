/**
 * Loads the engine's native parts (whisper.cpp, sherpa-onnx) so that a machine where one cannot load (an
 * old glibc, a missing Visual C++ runtime, a platform with no build) gets one sentence saying which features
 * are affected and what fixes it, while everything else keeps working: the parts load only when a job needs
 * them, and a failure fails only that job.
 */
import { loadWhisperModule } from '@fugood/whisper.node';
import { UserFacingError } from '../engine-api/protocol';

export type NativePart = 'whisper.cpp' | 'sherpa-onnx';

const FEATURES: Record<NativePart, string> = {
  'whisper.cpp': 'Speech-to-text',
  'sherpa-onnx': 'Neural voices and speaker diarization',
};

/** What the user can do about a native library that did not load on this platform. */
export function nativeFix(
  part: NativePart,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string {
  if (part === 'sherpa-onnx' && platform === 'win32' && arch === 'arm64') {
    return 'sherpa-onnx publishes no build for Windows on Arm; the built-in voices and speech-to-text still work';
  }
  switch (platform) {
    case 'win32':
      return 'install the latest Microsoft Visual C++ Redistributable for your processor and restart VS Code';
    case 'darwin':
      return 'it needs macOS 11 or newer';
    case 'linux':
      return 'it needs glibc 2.28 or newer (Debian 10, Ubuntu 20.04, Fedora 29 or later); Alpine (musl) is not supported';
    default:
      return `there is no build of it for ${platform}-${arch}`;
  }
}

/** The sentence for a native part that failed to load, with the loader's own reason in brackets. */
export function nativeLoadError(
  part: NativePart,
  cause: unknown,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): UserFacingError {
  const reason = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0];
  return new UserFacingError(
    `${FEATURES[part]} cannot run on this machine: the ${part} library did not load (${reason}); ${nativeFix(part, platform, arch)}.`,
  );
}

/** The whisper.cpp binding's platform build, which the binding itself would swallow the real error of. */
function platformWhisperError(): unknown {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- only to learn why the platform build fails to load (its name is built at run time)
    require(`@fugood/node-whisper-${process.platform}-${process.arch}`);
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Loads whisper.cpp once; a failure names the reason the platform build gave, when it gave one. */
export async function requireWhisper(): Promise<void> {
  try {
    await loadWhisperModule();
  } catch (error) {
    throw nativeLoadError('whisper.cpp', platformWhisperError() ?? error);
  }
}

/** sherpa-onnx-node, or the sentence saying why it cannot load here. */
export function requireSherpa<T>(): T {
  try {
    return require('sherpa-onnx-node') as T;
  } catch (error) {
    throw nativeLoadError('sherpa-onnx', error);
  }
}
