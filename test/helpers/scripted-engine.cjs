// An engine worker for tests of the host's and the job service's bookkeeping, not of speech: it answers a
// task at once with a fixed result, or never when the task says `hold: true`. A held task that says
// `yields: true` answers a yield with `yielded`; any other ignores it. A held task reports progress 0 when it
// arrives. Speaks src/engine-api/protocol.ts.
let running;
process.on('message', (message) => {
  if (message?.type === 'yield') {
    if (running?.jobId === message.jobId && running.task.yields) {
      running = undefined;
      process.send({ type: 'yielded', jobId: message.jobId });
    }
    return;
  }
  if (message?.type !== 'run') return;
  if (message.task?.hold) {
    running = message;
    process.send({ type: 'progress', jobId: message.jobId, phase: 'processing', progress: 0 });
    return;
  }
  process.send({
    type: 'result',
    jobId: message.jobId,
    backend: 'scripted',
    result: { durationSeconds: 0, pid: process.pid },
  });
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', pid: process.pid });
