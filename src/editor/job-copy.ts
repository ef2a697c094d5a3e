/**
 * The Jobs view's copy actions for developers: a job's id, and a ready curl command that downloads a Local
 * API job's output with this server's address and key; and the OpenAPI document of the running server.
 */
import * as vscode from 'vscode';
import type { JobRecord } from '../jobs/types';
import type { Services } from './services';

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The file name a downloaded output gets: the job's own output name, else `<id>.out`. */
const outputName = (job: JobRecord): string =>
  job.outputFile ? `${job.id.slice(0, 8)}-${job.outputFile}` : `${job.id}.out`;

/** `curl -s 'BASE/jobs/ID/output' -H 'Authorization: Bearer KEY' -o NAME`. */
export function outputCurlLine(baseUrl: string, apiKey: string, job: JobRecord): string {
  return [
    'curl -s',
    shellQuote(`${baseUrl}/jobs/${job.id}/output`),
    '-H',
    shellQuote(`Authorization: Bearer ${apiKey}`),
    '-o',
    shellQuote(outputName(job)),
  ].join(' ');
}

function baseUrl(services: Services): string | undefined {
  const state = services.controller.state;
  return state.kind === 'running' && state.apiEnabled ? state.url : undefined;
}

export async function copyJobId(job: JobRecord): Promise<string> {
  await vscode.env.clipboard.writeText(job.id);
  void vscode.window.setStatusBarMessage(`Copied the job id ${job.id}`, 3000);
  return job.id;
}

/** Copies the curl for a Local API job's output; editor jobs are not on the HTTP API, so their file is named instead. */
export async function copyJobCurl(services: Services, job: JobRecord): Promise<string | undefined> {
  const url = baseUrl(services);
  if (!url) {
    void vscode.window.showWarningMessage('The Local API is switched off: turn it on to fetch job outputs over HTTP.');
    return undefined;
  }
  if (job.origin !== 'api') {
    const file = await services.editorJobs.outputPath(job);
    void vscode.window.showInformationMessage(
      `This is an editor job: the Local API does not serve it${file ? `; its output is ${file}` : ''}.`,
    );
    return undefined;
  }
  const line = outputCurlLine(url, services.keys.get(), job);
  await vscode.env.clipboard.writeText(line);
  void vscode.window.setStatusBarMessage("Copied a curl command for the job's output", 3000);
  return line;
}

/** Opens `/v1/openapi.json` of the running server in the browser. */
export async function openApiDocument(services: Services): Promise<string | undefined> {
  const url = baseUrl(services);
  if (!url) {
    void vscode.window.showWarningMessage('The Local API is switched off: turn it on to read its OpenAPI document.');
    return undefined;
  }
  const document = `${url}/openapi.json`;
  await vscode.env.openExternal(vscode.Uri.parse(document));
  return document;
}
