// An engine worker for tests of the host's and the job service's bookkeeping, not of speech: it answers a
// task at once with a fixed result, or never when the task says `hold: true`. Speaks src/engine/protocol.ts.
process.on('message', (message) => {
  if (message?.type !== 'run' || message.task?.hold) return;
  process.send({ type: 'result', jobId: message.jobId, backend: 'scripted', result: { durationSeconds: 0 } });
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', pid: process.pid });
