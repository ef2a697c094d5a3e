// The subtitle timeline webview's script (src/editor/subtitles/timeline-view.ts): draws the media's waveform
// for the part in view, the video's shot changes as vertical marks, the cues as blocks with their text and
// the playhead; a click on a block asks the
// extension to reveal and play that cue. It reports each render, so tests can wait for it.
// @ts-check
(function () {
  const vscode = acquireVsCodeApi();
  const scroller = /** @type {HTMLElement} */ (document.getElementById('scroller'));
  const track = /** @type {HTMLElement} */ (document.getElementById('track'));
  const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('wave'));
  const playhead = /** @type {HTMLElement} */ (document.getElementById('playhead'));
  const status = /** @type {HTMLElement} */ (document.getElementById('status'));
  const WAVE_HEIGHT = 120;

  /** @type {{ index: number, start: number, end: number, text: string }[]} */
  let cues = [];
  /** The video's shot changes, in seconds. */
  let shots = /** @type {number[]} */ ([]);
  /** @type {{ bucketsPerSecond: number, duration: number, peaks: Int8Array } | null} */
  let wave = null;
  /** 'loading' | 'ready' | 'failed' */
  let waveState = 'loading';
  let current = /** @type {number | null} */ (null);
  let position = 0;
  let pixelsPerSecond = 0;

  const duration = () => Math.max(wave ? wave.duration : 0, ...cues.map((c) => c.end), 1);

  function fitZoom() {
    if (pixelsPerSecond === 0) pixelsPerSecond = Math.max(20, Math.min(200, (scroller.clientWidth - 20) / duration()));
  }

  function layout() {
    fitZoom();
    track.style.width = `${Math.ceil(duration() * pixelsPerSecond)}px`;
    track.querySelectorAll('.cue, .shot').forEach((element) => element.remove());
    for (const time of shots) {
      const mark = document.createElement('div');
      mark.className = 'shot';
      mark.title = `Shot change at ${time.toFixed(3)} s`;
      mark.style.left = `${time * pixelsPerSecond}px`;
      track.appendChild(mark);
    }
    for (const cue of cues) {
      const block = document.createElement('button');
      block.className = 'cue';
      block.dataset.index = String(cue.index);
      block.title = `Cue ${cue.index}: ${cue.text}`;
      block.style.left = `${cue.start * pixelsPerSecond}px`;
      block.style.width = `${Math.max(2, (cue.end - cue.start) * pixelsPerSecond)}px`;
      block.textContent = cue.text;
      if (cue.index === current) block.classList.add('current');
      track.appendChild(block);
    }
    movePlayhead();
    draw();
    report();
  }

  function report() {
    vscode.postMessage({ type: 'rendered', blocks: track.querySelectorAll('.cue').length, shots: track.querySelectorAll('.shot').length, buckets: wave ? wave.peaks.length / 2 : 0, waveform: waveState, current, pixelsPerSecond });
  }

  /** Draws the waveform of the seconds in view only: an hour of peaks never becomes one huge canvas. */
  function draw() {
    const width = scroller.clientWidth;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.floor(width * ratio);
    canvas.height = Math.floor(WAVE_HEIGHT * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${WAVE_HEIGHT}px`;
    const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, WAVE_HEIGHT);
    if (!wave) return;
    const style = getComputedStyle(document.body);
    context.fillStyle = style.getPropertyValue('--vscode-charts-blue') || '#3794ff';
    const middle = WAVE_HEIGHT / 2;
    const buckets = wave.peaks.length / 2;
    for (let x = 0; x < width; x++) {
      const from = Math.floor(((scroller.scrollLeft + x) / pixelsPerSecond) * wave.bucketsPerSecond);
      const to = Math.max(from + 1, Math.floor(((scroller.scrollLeft + x + 1) / pixelsPerSecond) * wave.bucketsPerSecond));
      if (from >= buckets) break;
      let low = 0;
      let high = 0;
      for (let b = from; b < Math.min(to, buckets); b++) {
        low = Math.min(low, wave.peaks[b * 2]);
        high = Math.max(high, wave.peaks[b * 2 + 1]);
      }
      const top = middle - (high / 127) * middle;
      const bottom = middle - (low / 127) * middle;
      context.fillRect(x, top, 1, Math.max(1, bottom - top));
    }
  }

  function movePlayhead() {
    playhead.style.left = `${position * pixelsPerSecond}px`;
  }

  /** Scrolls so that `seconds` is in view, if it is not. */
  function follow(seconds) {
    const x = seconds * pixelsPerSecond;
    if (x < scroller.scrollLeft || x > scroller.scrollLeft + scroller.clientWidth - 20) scroller.scrollLeft = Math.max(0, x - scroller.clientWidth / 3);
  }

  function setCurrent(index) {
    current = index;
    track.querySelectorAll('.cue.current').forEach((block) => block.classList.remove('current'));
    const cue = cues.find((c) => c.index === index);
    if (cue) {
      track.querySelector(`.cue[data-index="${index}"]`)?.classList.add('current');
      follow(cue.start);
    }
    vscode.postMessage({ type: 'highlighted', index: cue ? index : null });
  }

  function decodePeaks(base64) {
    const text = atob(base64);
    const peaks = new Int8Array(text.length);
    for (let i = 0; i < text.length; i++) peaks[i] = (text.charCodeAt(i) << 24) >> 24;
    return peaks;
  }

  function zoom(factor) {
    const centre = (scroller.scrollLeft + scroller.clientWidth / 2) / pixelsPerSecond;
    pixelsPerSecond = Math.max(2, Math.min(1000, pixelsPerSecond * factor));
    layout();
    scroller.scrollLeft = Math.max(0, centre * pixelsPerSecond - scroller.clientWidth / 2);
  }

  track.addEventListener('click', (event) => {
    const block = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('.cue'));
    if (block) vscode.postMessage({ type: 'select', index: Number(block.dataset.index) });
  });
  scroller.addEventListener('scroll', () => draw());
  window.addEventListener('resize', () => draw());
  /** @type {HTMLElement} */ (document.getElementById('zoom-in')).addEventListener('click', () => zoom(1.5));
  /** @type {HTMLElement} */ (document.getElementById('zoom-out')).addEventListener('click', () => zoom(1 / 1.5));

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'cues':
        cues = message.cues;
        layout();
        return;
      case 'waveform':
        wave = { bucketsPerSecond: message.bucketsPerSecond, duration: message.duration, peaks: decodePeaks(message.peaks) };
        waveState = 'ready';
        status.textContent = '';
        layout();
        return;
      case 'shots':
        shots = Array.isArray(message.times) ? message.times.filter((t) => typeof t === 'number') : [];
        layout();
        return;
      case 'waveform-error':
        waveState = 'failed';
        status.textContent = message.message;
        report();
        return;
      case 'cursor':
        setCurrent(message.index);
        return;
      case 'playhead':
        position = message.position;
        movePlayhead();
        if (message.follow) follow(position);
        return;
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
