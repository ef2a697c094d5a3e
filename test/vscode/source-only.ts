/**
 * The source-folder pass of the full VS Code step: the extension activates and serves from the source folder
 * as a contributor runs it (F5). Every test runs the same code from the installed .vsix, which now carries
 * the language-model runtime too, so the .vsix pass (see test-vscode.sh) runs the whole suite.
 */
import './activation.test';

export { run } from './run-suite';
