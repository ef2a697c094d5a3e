/**
 * The `run()` every suite module hands VS Code as extensionTestsPath: runs the registered tests and writes
 * the `N passed, N failed` line to TEST_RESULT_FILE for test-vscode.sh to add up.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runAll } from './harness';

export async function run(): Promise<void> {
  const { passed, failed } = await runAll();
  const resultFile = process.env.TEST_RESULT_FILE;
  if (resultFile) {
    mkdirSync(path.dirname(resultFile), { recursive: true });
    writeFileSync(resultFile, `${passed} passed, ${failed} failed\n`);
  }
  if (failed > 0) throw new Error(`${failed} VS Code test(s) failed.`);
}
