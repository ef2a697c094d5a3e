// A node:test reporter that writes one JSON line per finished test (its file, name, nesting, duration and
// whether it was skipped), so scripts/run-tests.mjs can add up each file's top-level tests, print where the
// suite's time goes, and check that each test a pass asks for by name really ran.
export default async function* testFileTimes(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, name, details, skip } = event.data;
    if (!file || details?.duration_ms === undefined) continue;
    yield `${JSON.stringify({ file, name, nesting, ms: details.duration_ms, skipped: skip !== undefined })}\n`;
  }
}
