/**
 * Engine code run in the test's own process reads this process's engine configuration, which nothing sets for
 * it but the process's entry (the engine worker sets its own from its command line): a test that runs engine
 * code itself is that entry, and sets it here from the test's environment with a few fields over it.
 */
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';
import { configureEngine, engineConfig, type EngineConfig } from '../../src/engine-api/engine-config';

/** Configures the engine in this process with `over` on top of the environment's; returns the undo. */
export function configureTestEngine(over: Partial<EngineConfig>): () => void {
  const before = engineConfig();
  configureEngine(engineConfigFromEnvironment(process.env, over));
  return () => configureEngine(before);
}
