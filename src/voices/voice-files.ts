/**
 * Where voices' files live in the data directory, read fresh on every call (a few stat calls), so the
 * library follows installs and removals without a restart:
 *   <data-dir>/models/tts/<id>/           a voice's model files (catalog id, `svox-pico`, or a custom folder)
 *   <data-dir>/models/.partial/<id>/      a download in progress (the voice is `installing`)
 *   <data-dir>/runtime/espeak-ng-data/    espeak-ng's phoneme data, unpacked for sherpa-onnx's front ends
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

export class VoiceFiles {
  readonly modelsDir: string;

  constructor(readonly dataDir: string) {
    this.modelsDir = path.join(dataDir, 'models');
  }

  ttsDir(id: string): string {
    return path.join(this.modelsDir, 'tts', id);
  }

  /** A catalog target (`tts/<id>/file`, relative to models/) as an absolute path. */
  target(relative: string): string {
    return path.join(this.modelsDir, ...relative.split('/'));
  }

  get espeakDataDir(): string {
    return path.join(this.dataDir, 'runtime', 'espeak-ng-data');
  }

  installing(id: string): boolean {
    return existsSync(path.join(this.modelsDir, '.partial', id));
  }

  /** When a file was installed (its modification time), or 0 when it is gone. */
  installedAt(file: string): number {
    try {
      return Math.round(statSync(file).mtimeMs);
    } catch {
      return 0;
    }
  }
}
