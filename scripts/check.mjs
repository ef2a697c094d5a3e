// `npm run check`: the quick tier, in minutes. Two lanes at once, because the unit tests spend most of their
// time starting a process per file while the static checks keep one core busy: the static checks one after
// the other (type-check, depcheck, lint, formatting; the first that fails stops the lane), and the pure unit
// tests of test/unit (scripts/run-tests.mjs). The unit tests print as they run; each static check's output
// is printed when it ends, so the two do not interleave. Fails when any step fails; prints each step's time.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const STATIC_CHECKS = ['typecheck', 'depcheck', 'lint', 'format:check'];

/** Runs `npm run <script>`; resolves with its exit status, its output (when buffered) and its seconds. */
function run(script, { buffered }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) =>
      resolve({
        script,
        status: code ?? (signal ? 1 : 0),
        output: Buffer.concat(output).toString(),
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

async function staticLane() {
  const results = [];
  for (const script of STATIC_CHECKS) {
    const result = await run(script, { buffered: true });
    results.push(result);
    process.stdout.write(
      `\n# npm run ${script}: ${result.status === 0 ? 'passed' : `failed (exit ${result.status})`} in ${result.seconds.toFixed(0)} s\n${result.output}`,
    );
    if (result.status !== 0) break;
  }
  return results;
}

const started = Date.now();
const [statics, unit] = await Promise.all([staticLane(), run('test:unit', { buffered: false })]);
const results = [...statics, unit];
console.log('\n# npm run check');
for (const { script, status, seconds } of results)
  console.log(`#   ${status === 0 ? 'ok    ' : 'FAILED'} ${script} (${seconds.toFixed(0)} s)`);
for (const script of STATIC_CHECKS.slice(statics.length))
  console.log(`#   not run ${script} (an earlier static check failed)`);
console.log(`#   ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
process.exit(results.some((result) => result.status !== 0) ? 1 : 0);
