// A node:test reporter that writes one JSON line per top-level test: its file and how long it took, so
// scripts/run-tests.mjs can add them up per file and print where the suite's time goes.
export default async function* testFileTimes(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || !file || details?.duration_ms === undefined) continue;
    yield `${JSON.stringify({ file, ms: details.duration_ms })}\n`;
  }
}
