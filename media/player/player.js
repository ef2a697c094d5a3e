// The player webview's script (src/editor/audio-player.ts): plays the whole file, or one span of it (seek to
// the start, stop exactly at the end), and reports what it plays and where it is back to the extension.
// @ts-check
(function () {
  const vscode = acquireVsCodeApi();
  const audio = /** @type {HTMLAudioElement} */ (document.querySelector('audio'));
  const title = /** @type {HTMLElement} */ (document.querySelector('h2'));
  /** @type {{ id: number, start: number, end: number | null } | null} */
  let span = null;
  /** Where the last seek of a span landed (null: not yet). @type {number | null} */
  let landed = null;
  /** @type {number | undefined} */
  let watch;
  let lastPosted = 0;

  const post = (state, extra = {}) =>
    vscode.postMessage({
      type: 'report',
      id: span ? span.id : 0,
      state,
      start: span ? span.start : 0,
      end: span ? span.end : null,
      position: audio.currentTime,
      ...extra,
    });

  function stopWatching() {
    if (watch !== undefined) clearInterval(watch);
    watch = undefined;
  }

  // timeupdate comes four times a second: too coarse to stop at a cue's end, so a short timer watches instead.
  function watchEnd() {
    stopWatching();
    watch = setInterval(() => {
      if (span && span.end !== null && audio.currentTime >= span.end) {
        audio.pause();
        audio.currentTime = span.end;
        stopWatching();
        post('ended', { position: span.end });
        span = { ...span, end: null };
        return;
      }
      if (performance.now() - lastPosted > 100) {
        lastPosted = performance.now();
        vscode.postMessage({ type: 'position', position: audio.currentTime });
      }
    }, 15);
  }

  /** @param {{ id: number, start: number, end: number | null, title?: string }} request */
  function playSpan(request) {
    stopWatching();
    span = { id: request.id, start: request.start, end: request.end };
    landed = null;
    if (request.title) title.textContent = request.title;
    const go = () => {
      // Already playing (another cue): the seek alone moves it, and 'playing' may not fire again.
      if (!audio.paused) {
        audio.addEventListener(
          'seeked',
          () => {
            watchEnd();
            post('playing', { start: audio.currentTime });
          },
          { once: true },
        );
        audio.currentTime = request.start;
        return;
      }
      // Where the seek landed is where the span starts: by the time 'playing' is handled, a loaded machine has
      // already played on from there.
      audio.addEventListener(
        'seeked',
        () => {
          landed = audio.currentTime;
        },
        { once: true },
      );
      audio.currentTime = request.start;
      audio.play().catch((error) => post('error', { error: String((error && error.message) || error) }));
    };
    if (audio.readyState >= 1) go();
    else audio.addEventListener('loadedmetadata', go, { once: true });
  }

  audio.addEventListener('playing', () => {
    watchEnd();
    post('playing', { start: span && span.end !== null ? (landed ?? audio.currentTime) : span ? span.start : 0 });
  });
  audio.addEventListener('pause', () => {
    stopWatching();
    if (span && span.end !== null) post('paused');
  });
  audio.addEventListener('ended', () => {
    stopWatching();
    post('ended');
  });
  audio.addEventListener('seeked', () => vscode.postMessage({ type: 'position', position: audio.currentTime }));
  // A fresh window's first page can ask for its audio before the webview's service worker serves it; the
  // request fails, and the element gives up for good. A few more tries before that is reported as an error.
  const RETRY_DELAYS_MS = [250, 1000, 2500];
  let retries = 0;
  let retryPending = false;
  const describeError = () => (audio.error ? audio.error.message || `media error ${audio.error.code}` : 'media error');
  function onLoadError() {
    // Chromium can set the element's error before it fires the event: the check after this function and the
    // event may both see one failed request, which is tried again once.
    if (retryPending) return;
    const nothingLoaded = audio.readyState === HTMLMediaElement.HAVE_NOTHING;
    const aborted = audio.error && audio.error.code === MediaError.MEDIA_ERR_ABORTED;
    if (nothingLoaded && !aborted && retries < RETRY_DELAYS_MS.length) {
      const delay = RETRY_DELAYS_MS[retries++];
      vscode.postMessage({ type: 'retry', attempt: retries, error: describeError() });
      retryPending = true;
      setTimeout(() => {
        retryPending = false;
        audio.load();
      }, delay);
      return;
    }
    post('error', { error: describeError() });
  }
  audio.addEventListener('error', onLoadError);
  audio.addEventListener('loadedmetadata', () => {
    retries = 0;
  });
  // The element starts loading before this script runs: its first request may have failed already.
  if (audio.error) onLoadError();

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message && message.type === 'play') playSpan(message);
  });

  const initial = document.body.dataset.span;
  if (initial) playSpan(JSON.parse(initial));
  vscode.postMessage({ type: 'ready' });
})();
