/**
 * The Silero VAD model that snapping to speech needs: the installed one, or — when there is none — one
 * sentence saying so with an offer to install it from the model catalog.
 */
import * as vscode from 'vscode';
import { findVadModelIn } from '../../models/model-files';
import { builtinCatalog } from '../../models/catalog';
import { modelsDir } from '../../models/model-paths';
import { installModel } from '../commands/install-model';
import type { Services } from '../services';

/** The catalog's VAD model in whisper.cpp format (the one the engine reads from models/vad/). */
export function vadCatalogEntryId(): string | undefined {
  return builtinCatalog().models.find(
    (entry) => entry.kind === 'vad' && entry.files.some((file) => /^vad\/ggml-silero-.*\.bin$/.test(file.target)),
  )?.id;
}

/** The installed VAD model's path; otherwise offers to install it and returns its path once installed. */
export async function requireVadModel(services: Services, purpose: string): Promise<string | undefined> {
  const installed = await findVadModelIn(
    modelsDir(services.controller.dataDir),
    services.controller.engineConfiguration(),
  );
  if (installed) return installed;
  const id = vadCatalogEntryId();
  const install = 'Install VAD Model';
  const answer = await vscode.window.showInformationMessage(
    `${purpose} needs the Silero voice activity detection model, which is not installed.`,
    ...(id ? [install] : []),
  );
  if (answer !== install || !id) return undefined;
  const result = await installModel(services, id);
  return result
    ? ((await findVadModelIn(modelsDir(services.controller.dataDir), services.controller.engineConfiguration())) ??
        undefined)
    : undefined;
}
