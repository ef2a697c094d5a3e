/**
 * The load generator of the polling bench, run as its own process so that it does not share the
 * server's event loop: autocannon polls GET /jobs/{id} over loopback, each request for one of the given
 * ids at random, and sends its result back over IPC.
 */
import autocannon from 'autocannon';

interface LoadRequest {
  url: string;
  ids: string[];
  seconds: number;
  connections: number;
}

process.once('message', (message: LoadRequest) => {
  const { url, ids, seconds, connections } = message;
  const instance = autocannon(
    {
      url,
      connections,
      duration: seconds,
      requests: [
        { setupRequest: (req) => ({ ...req, path: `/v1/jobs/${ids[Math.floor(Math.random() * ids.length)]}` }) },
      ],
    },
    (error, result) => {
      if (error) {
        process.send?.({ error: String(error) }, () => process.exit(1));
        return;
      }
      process.send?.({ result }, () => process.exit(0));
    },
  );
  instance.on('error', () => undefined);
});
