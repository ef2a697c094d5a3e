/** Proof-listening together: the command and the Problems, quick fixes and hover it leaves. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { ProofListenProblems } from './problems';
import { registerProofListen } from './proof-listen';

export function registerProofListening(services: Services): vscode.Disposable {
  const problems = new ProofListenProblems(services.player);
  return vscode.Disposable.from(problems, registerProofListen(services, problems));
}
