/**
 * The source-folder pass of the full VS Code step: only the tests that take another path there than from the
 * installed .vsix. The .vsix does not carry the language-model runtime (node-llama-cpp), so translation,
 * dubbing and casting run for real only from the source folder; every other test runs the same code in both,
 * and the .vsix pass, which proves the package users install, runs them all (see test-vscode.sh).
 */
import './translate.test';
import './dub.test';
import './cast.test';

export { run } from './run-suite';
