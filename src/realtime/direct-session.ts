/**
 * A live transcription session opened in-process, without a WebSocket: the same LiveSession, engine looks and
 * model choice as GET /v1/realtime, for doors that run beside the server (the editor's extension API). Events
 * go in and out in OpenAI's Realtime shape, in order, exactly as the WebSocket door passes them. It counts
 * against the same session cap (opening past it rejects with LiveSessionLimitError) and follows the same idle
 * limit: a session sent nothing for that long is ended, and `onEnded` says why.
 */
import type { AppDeps } from '../jobs/app-deps';
import type { LiveRecognition, OpenDirectLiveSession } from '../jobs/live-recognition';
import { sharedAudioThreads } from './audio-thread';
import { liveModelResolver } from './live-model';
import { LiveSession } from './live-session';

export function directLiveSessions(
  deps: Pick<AppDeps, 'dataDir' | 'preferredSttModel'>,
  recognition: LiveRecognition,
): OpenDirectLiveSession {
  const resolveModel = liveModelResolver(deps);
  return async (onEvent, onEnded) => {
    let closed = false;
    const close = async (): Promise<void> => {
      closed = true;
      await session.close();
    };
    const files = await recognition.openSession(() => {
      if (closed) return;
      void close();
      onEnded?.({
        code: 'session_idle',
        message: `The live transcription session ${session.id} was sent nothing for ${recognition.limits.idleMs / 1000} s and has ended.`,
      });
    });
    const session = new LiveSession({
      send: (event) => void (!closed && onEvent(event)),
      recognition,
      files,
      resolveModel,
      form: 'ga',
      audio: sharedAudioThreads(),
    });
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
        files.touch();
        const handled = queue.then(() => (closed ? undefined : session.receive(JSON.stringify(event))));
        queue = handled.catch(() => undefined);
        return handled;
      },
      close,
    };
  };
}
