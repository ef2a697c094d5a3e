// The platforms the extension is packaged for, and the native packages each one carries. Read by the
// packager (scripts/package.mjs) and the package check (scripts/check-packages.mjs).
//
// whisper.cpp's binding: @fugood/whisper.node 1.1.3's JavaScript is byte-for-byte that of 1.1.1, but the
// registry has 1.1.3's native package for linux-x64 only; 1.1.1 has it for every platform and 1.2.0 is a
// release candidate. So linux-x64 carries the installed 1.1.3 build and the others the 1.1.1 build.
// sherpa-onnx publishes no Windows-on-Arm build: that package has no neural voices or diarization (the
// engine says so in one sentence) and Alpine (musl) gets no package, since neither binding ships musl builds.
// node-llama-cpp (the language model): each platform's CPU build, and on Apple silicon the Metal one, the only
// build published there; the CUDA and Vulkan builds stay out.
export const WHISPER_FALLBACK_VERSION = '1.1.1';

/** VS Code target → native packages and the header their binaries must have. */
export const PLATFORMS = {
  'linux-x64': {
    whisper: '@fugood/node-whisper-linux-x64',
    sherpa: 'sherpa-onnx-linux-x64',
    llama: '@node-llama-cpp/linux-x64',
    format: 'elf',
    arch: 'x64',
  },
  'linux-arm64': {
    whisper: '@fugood/node-whisper-linux-arm64',
    sherpa: 'sherpa-onnx-linux-arm64',
    llama: '@node-llama-cpp/linux-arm64',
    format: 'elf',
    arch: 'arm64',
  },
  'darwin-x64': {
    whisper: '@fugood/node-whisper-darwin-x64',
    sherpa: 'sherpa-onnx-darwin-x64',
    llama: '@node-llama-cpp/mac-x64',
    format: 'macho',
    arch: 'x64',
  },
  'darwin-arm64': {
    whisper: '@fugood/node-whisper-darwin-arm64',
    sherpa: 'sherpa-onnx-darwin-arm64',
    llama: '@node-llama-cpp/mac-arm64-metal',
    format: 'macho',
    arch: 'arm64',
  },
  'win32-x64': {
    whisper: '@fugood/node-whisper-win32-x64',
    sherpa: 'sherpa-onnx-win-x64',
    llama: '@node-llama-cpp/win-x64',
    format: 'pe',
    arch: 'x64',
  },
  'win32-arm64': {
    whisper: '@fugood/node-whisper-win32-arm64',
    sherpa: null,
    llama: '@node-llama-cpp/win-arm64',
    format: 'pe',
    arch: 'arm64',
  },
};

/** Every platform package name of the three bindings, to prove a package carries no other platform's. */
export const ALL_NATIVE_PACKAGES =
  /^(?:@fugood\/node-whisper-[^/]+|sherpa-onnx-(?:linux|darwin|win)-[^/]+|@node-llama-cpp\/[^/]+)$/;
