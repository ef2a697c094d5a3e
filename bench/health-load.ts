/**
 * The load generator of the health bench, its own process so its clients do not share the server's event
 * loop: `pollers` clients read GET /models back to back, one client creates long TTS jobs against a large
 * lexicon (cancelling each at once: the bench is about the server, not the engine), and a prober times
 * GET /health every 20 ms. Sends the probe times (ms) back over IPC.
 */
interface LoadRequest {
  base: string;
  seconds: number;
  pollers: number;
  /** Empty: no job creator (the reference run). */
  jobText: string;
  voiceId: string;
}

// eslint-disable-next-line @typescript-eslint/no-misused-promises -- a failure ends this load process with its stack, as it should
process.once('message', async (message: LoadRequest) => {
  const { base, seconds, pollers, jobText, voiceId } = message;
  const until = Date.now() + seconds * 1000;
  const probes: number[] = [];
  let jobs = 0;
  let models = 0;
  const poll = async (): Promise<void> => {
    while (Date.now() < until) {
      await (await fetch(`${base}/models`)).arrayBuffer();
      models++;
    }
  };
  const create = async (): Promise<void> => {
    while (jobText && Date.now() < until) {
      const res = await fetch(`${base}/tts/jobs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ voiceId, text: jobText }),
      });
      const job = (await res.json()) as { id?: string };
      if (job.id) {
        jobs++;
        await (await fetch(`${base}/jobs/${job.id}/cancel`, { method: 'POST' })).arrayBuffer();
      }
    }
  };
  const probe = async (): Promise<void> => {
    while (Date.now() < until) {
      const started = performance.now();
      await (await fetch(`${base}/health`)).arrayBuffer();
      probes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await Promise.all([probe(), create(), ...Array.from({ length: pollers }, poll)]);
  process.send?.({ probes, jobs, models }, () => process.exit(0));
});
