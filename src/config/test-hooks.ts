/**
 * Test hooks read from the environment, here and in the composition roots only, and handed down to the job
 * core as options (docs/configuration.md): product code never reads them itself. Never set them in use.
 */
import type { VerifyTestHooks } from '../jobs/verify-admission';

/** `1`: each paragraph's first verified take is cut to its first third, so tests see it heard as wrong and retaken. */
export const CORRUPT_FIRST_TAKE_ENV = 'SPEECH_STUDIO_TEST_CORRUPT_FIRST_TAKE';

/** The test hooks the environment switches on. */
export function testHooksFromEnvironment(env: NodeJS.ProcessEnv): VerifyTestHooks {
  return env[CORRUPT_FIRST_TAKE_ENV] === '1' ? { corruptFirstTake: true } : {};
}
