/** What the VS Code tests share: the extension's API, HTTP calls to the Local API, waiting, and UI requests. */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SpeechStudioApi, SpeechStudioJob } from '../../src/extension';

export const EXTENSION_ID = 'speech-studio.speech-studio';

/** What one test leaves for a later one (they run in order in one window). */
export const shared: { transcriptionJobId?: string } = {};

export async function extensionApi(): Promise<SpeechStudioApi> {
  const extension = vscode.extensions.getExtension<SpeechStudioApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed`);
  return extension.activate();
}

export const setting = <T>(key: string): T => vscode.workspace.getConfiguration('speechStudio').get<T>(key) as T;
export const updateSetting = (key: string, value: unknown): Thenable<void> =>
  vscode.workspace.getConfiguration('speechStudio').update(key, value, vscode.ConfigurationTarget.Global);

export function workspaceFile(...parts: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the tests need a workspace folder');
  return vscode.Uri.joinPath(folder.uri, ...parts);
}

/** Thrown by a `waitFor` check to stop waiting at once (the awaited thing can no longer happen). */
export class GiveUp extends Error {}

/** Polls `check` until it returns something truthy, or fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever the check threw, as String() shows it
  throw new Error(`waited ${timeoutMs} ms for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
}

export interface HttpAnswer {
  status: number;
  body: any;
}

/** A request to the Local API from inside the extension host, as a script or another tool would send it. */
export async function api(
  base: string,
  route: string,
  init: { method?: string; key?: string; json?: unknown } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  if (init.key) headers.Authorization = `Bearer ${init.key}`;
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${base}${route}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body };
}

/** The job once it has finished, whatever the outcome; tests then assert the status with its error. */
export function finished(studio: SpeechStudioApi, id: string, timeoutMs = 30_000): Promise<SpeechStudioJob> {
  return waitFor(
    `job ${id} to finish`,
    () => {
      const job = studio.getJob(id);
      return job && !['queued', 'loading_model', 'processing'].includes(job.status) ? job : undefined;
    },
    timeoutMs,
  );
}

/** The job once the engine works on it (with some progress); gives up at once if it finished instead. */
export function processing(studio: SpeechStudioApi, id: string, timeoutMs = 30_000): Promise<SpeechStudioJob> {
  return waitFor(
    `job ${id} to make progress`,
    () => {
      const job = studio.getJob(id);
      if (job && !['queued', 'loading_model', 'processing'].includes(job.status))
        throw new GiveUp(`job ${job.name} ${job.status}: ${job.error ?? ''}`);
      return job?.status === 'processing' && job.progress > 0 ? job : undefined;
    },
    timeoutMs,
  );
}

/** Fails with the job's own error unless it succeeded. */
export async function succeeded(studio: SpeechStudioApi, id: string): Promise<SpeechStudioJob> {
  const job = await finished(studio, id);
  if (job.status !== 'succeeded') throw new Error(`job ${job.name} ${job.status}: ${job.error ?? ''}`);
  return job;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The shared test models (`$SPEECH_TEST_MODELS`, set by the runner). */
export function testModel(relative: string): string {
  const root = process.env.SPEECH_TEST_MODELS;
  if (!root) throw new Error('SPEECH_TEST_MODELS is not set (the runner sets it)');
  const file = path.join(root, relative);
  if (!existsSync(file)) throw new Error(`test model missing: ${file}`);
  return file;
}

/**
 * Asks the browser driver (run-tests.js) to do what only the workbench page can: take a screenshot, click.
 * Resolves with the driver's answer; rejects when the action failed.
 */
export async function ui(
  request: {
    action: 'screenshot' | 'click' | 'press' | 'waitFor' | 'count' | 'texts' | 'type' | 'property' | 'drag';
    [key: string]: unknown;
  },
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  const dir = process.env.UI_REQUEST_DIR;
  if (!dir) throw new Error('UI_REQUEST_DIR is not set (the runner sets it)');
  const id = randomUUID();
  console.log(`[ui-request] ${JSON.stringify({ ...request, id })}`);
  const answerFile = path.join(dir, `${id}.json`);
  const answer = await waitFor(
    `the browser to ${request.action}`,
    () =>
      existsSync(answerFile) ? (JSON.parse(readFileSync(answerFile, 'utf8')) as Record<string, unknown>) : undefined,
    timeoutMs,
  );
  if (!answer.ok) throw new Error(`ui ${request.action} failed: ${String(answer.error)}`);
  return answer;
}

/** A webview's page is two iframes deep in the workbench: `frames` of a `ui` request on it. */
export const WEBVIEW_FRAMES = ['iframe.webview.ready', 'iframe#active-frame'];

/** Waits until the Player view shows in the Speech Studio panel, with the audio element on its page (the first webview of a window can take long to load on a busy machine). */
export const playerShown = (timeoutMs = 30_000): Promise<Record<string, unknown>> =>
  ui(
    { action: 'waitFor', frames: WEBVIEW_FRAMES, selector: 'body[data-view="player"] audio', timeout: timeoutMs },
    timeoutMs + 10_000,
  );

/** Takes the Player and the Timeline out of the Speech Studio panel (as their Close actions do). */
export async function closePanelViews(): Promise<void> {
  await vscode.commands.executeCommand('speechStudio.player.close');
  await vscode.commands.executeCommand('speechStudio.timeline.close');
}

/** Closes the notifications the earlier tests left (a progress notification stays while its work runs). */
export const clearNotifications = (): Thenable<unknown> => vscode.commands.executeCommand('notifications.clearAll');

/**
 * Waits for notifications in the notification center, where VS Code keeps every notification: `selectors`
 * are inside one item (`:has-text(…)`, a button). Its toast is not always drawn: the workbench draws at most
 * 3 new toasts in 800 ms, and a fast run makes more than that across neighbouring tests.
 */
export async function waitForNotification(...selectors: string[]): Promise<void> {
  await vscode.commands.executeCommand('notifications.showList');
  try {
    for (const selector of selectors)
      await ui({ action: 'waitFor', selector: `.notifications-center .notification-list-item${selector}` });
  } finally {
    await vscode.commands.executeCommand('notifications.hideList');
  }
}

/**
 * A screenshot for the README (taken only when the runner was given SCREENSHOT_DIR); old notifications are
 * cleared first unless `keepNotifications`.
 */
export async function screenshot(
  name: string,
  options: { selector?: string; keepNotifications?: boolean } = {},
): Promise<unknown> {
  if (!options.keepNotifications) await clearNotifications();
  return ui({ action: 'screenshot', name, selector: options.selector });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
