// An engine worker that takes every job and never finishes one: it holds the fuzz suite's queue still, so
// the jobs the fuzzer creates wait (and are cancelled) without any speech being made. Speaks protocol.ts.
process.on('message', () => undefined);
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', pid: process.pid });
