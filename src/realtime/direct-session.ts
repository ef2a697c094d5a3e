/**
 * A live transcription session opened in-process, without a WebSocket: the same LiveSession, engine looks and
 * model choice as GET /v1/realtime, for doors that run beside the server (the editor's extension API). Events
 * go in and out in OpenAI's Realtime shape, in order, exactly as the WebSocket door passes them.
 */
import type { AppDeps } from '../http/app-deps';
import type { LiveRecognition, OpenDirectLiveSession } from '../jobs/live-recognition';
import { liveModelResolver } from './live-model';
import { LiveSession } from './live-session';

export function directLiveSessions(deps: Pick<AppDeps, 'dataDir' | 'preferredSttModel'>, recognition: LiveRecognition): OpenDirectLiveSession {
  const resolveModel = liveModelResolver(deps);
  return async (onEvent) => {
    const files = await recognition.openSession();
    let closed = false;
    const session = new LiveSession({ send: (event) => void (!closed && onEvent(event)), recognition, files, resolveModel, form: 'ga' });
    try {
      await session.open();
    } catch (error) {
      await session.close();
      throw error;
    }
    let queue = Promise.resolve();
    return {
      id: session.id,
      send(event) {
        const handled = queue.then(() => (closed ? undefined : session.receive(JSON.stringify(event))));
        queue = handled.catch(() => undefined);
        return handled;
      },
      async close() {
        closed = true;
        await session.close();
      },
    };
  };
}
