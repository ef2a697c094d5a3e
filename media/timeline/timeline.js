// The subtitle timeline webview's script (src/editor/subtitles/timeline-view.ts): draws a time ruler, the
// media's waveform for the part in view (scaled to the media's peak by the extension), the video's shot
// changes as vertical marks, the cues as blocks with their text and the playhead; a click on a block asks the
// extension to reveal and play that cue. Dragging a block's edge or the block asks it to retime the cue, the
// header's buttons to set a start or end at the playhead or split there; a click on the ruler moves the
// playhead. It reports each render, so tests can wait for it.
// @ts-check
(function () {
  const vscode = acquireVsCodeApi();
  const scroller = /** @type {HTMLElement} */ (document.getElementById('scroller'));
  const track = /** @type {HTMLElement} */ (document.getElementById('track'));
  const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('wave'));
  const playhead = /** @type {HTMLElement} */ (document.getElementById('playhead'));
  const status = /** @type {HTMLElement} */ (document.getElementById('status'));
  const ruler = /** @type {HTMLElement} */ (document.getElementById('ruler'));
  // The ruler above the waveform and the cue blocks below it (timeline.css: 16 px, 58 px and margins).
  const RULER_AND_CUES = 16 + 8 + 58 + 8;
  /** How near (px) to a block's edge a drag moves that edge rather than the whole cue. */
  const EDGE_PX = 6;

  /** @type {{ index: number, start: number, end: number, text: string }[]} */
  let cues = [];
  /** The video's shot changes, in seconds. */
  let shots = /** @type {number[]} */ ([]);
  /** @type {{ bucketsPerSecond: number, duration: number, peaks: Int8Array, tallest: number } | null} */
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
      for (const edge of ['start', 'end']) {
        const handle = document.createElement('span');
        handle.className = `edge ${edge}`;
        handle.title = edge === 'start' ? 'Drag to move the start' : 'Drag to move the end';
        block.appendChild(handle);
      }
      if (cue.index === current) block.classList.add('current');
      track.appendChild(block);
    }
    movePlayhead();
    draw();
    report();
  }

  /** A tick every 0.1 s to 10 min, whichever is the first at least 70 px apart; only the ones in view. */
  function drawRuler() {
    const steps = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600];
    const step = steps.find((s) => s * pixelsPerSecond >= 70) ?? 600;
    const from = Math.max(0, Math.floor(scroller.scrollLeft / pixelsPerSecond / step) * step);
    const to = Math.min(duration(), (scroller.scrollLeft + scroller.clientWidth) / pixelsPerSecond);
    const ticks = [];
    for (let t = from; t <= to + 1e-9; t += step) {
      const tick = document.createElement('span');
      tick.className = 'tick';
      tick.style.left = `${t * pixelsPerSecond}px`;
      tick.textContent = label(Math.round(t * 10) / 10, step < 1);
      ticks.push(tick);
    }
    ruler.replaceChildren(...ticks);
  }

  function label(seconds, tenths) {
    const minutes = Math.floor(seconds / 60);
    const rest = seconds - minutes * 60;
    return `${minutes}:${(tenths ? rest.toFixed(1) : String(Math.round(rest))).padStart(tenths ? 4 : 2, '0')}`;
  }

  function report() {
    vscode.postMessage({
      type: 'rendered',
      blocks: track.querySelectorAll('.cue').length,
      shots: track.querySelectorAll('.shot').length,
      buckets: wave ? wave.peaks.length / 2 : 0,
      tallest: wave ? wave.tallest : 0,
      waveform: waveState,
      current,
      pixelsPerSecond,
    });
  }

  /** Draws the waveform of the seconds in view only: an hour of peaks never becomes one huge canvas. */
  function draw() {
    drawRuler();
    const width = scroller.clientWidth;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.floor(width * ratio);
    // The waveform takes the height the panel leaves between the ruler and the cues: a short panel still
    // shows every block.
    const WAVE_HEIGHT = Math.max(24, Math.min(160, scroller.clientHeight - RULER_AND_CUES));
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
      const to = Math.max(
        from + 1,
        Math.floor(((scroller.scrollLeft + x + 1) / pixelsPerSecond) * wave.bucketsPerSecond),
      );
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
    if (x < scroller.scrollLeft || x > scroller.scrollLeft + scroller.clientWidth - 20)
      scroller.scrollLeft = Math.max(0, x - scroller.clientWidth / 3);
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

  /** Zooms about the playhead: it stays where it was on screen, or comes into view a third of the way in. */
  function zoom(factor) {
    const onScreen = position * pixelsPerSecond - scroller.scrollLeft;
    const anchor = onScreen >= 0 && onScreen <= scroller.clientWidth ? onScreen : scroller.clientWidth / 3;
    pixelsPerSecond = Math.max(2, Math.min(1000, pixelsPerSecond * factor));
    layout();
    scroller.scrollLeft = Math.max(0, position * pixelsPerSecond - anchor);
    draw();
    report();
  }

  // ---- editing -------------------------------------------------------------------------------------

  /** @type {{ block: HTMLElement, cue: { index: number, start: number, end: number }, mode: 'start' | 'end' | 'move', x: number, moved: boolean } | null} */
  let drag = null;

  track.addEventListener('pointerdown', (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    const block = /** @type {HTMLElement | null} */ (target.closest('.cue'));
    if (!block) return;
    const cue = cues.find((c) => c.index === Number(block.dataset.index));
    if (!cue) return;
    const box = block.getBoundingClientRect();
    const mode =
      target.classList.contains('start') || event.clientX - box.left <= EDGE_PX
        ? 'start'
        : target.classList.contains('end') || box.right - event.clientX <= EDGE_PX
          ? 'end'
          : 'move';
    drag = { block, cue, mode, x: event.clientX, moved: false };
    block.setPointerCapture(event.pointerId);
    event.preventDefault();
  });

  /** The cue's times as the drag has them so far (never before 0:00, never shorter than 10 ms). */
  function dragged(event) {
    if (!drag) return null;
    const delta = (event.clientX - drag.x) / pixelsPerSecond;
    const { start, end } = drag.cue;
    if (drag.mode === 'start') return { start: Math.max(0, Math.min(end - 0.01, start + delta)), end };
    if (drag.mode === 'end') return { start, end: Math.max(start + 0.01, end + delta) };
    const shift = Math.max(-start, delta);
    return { start: start + shift, end: end + shift };
  }

  track.addEventListener('pointermove', (event) => {
    if (!drag) return;
    if (Math.abs(event.clientX - drag.x) >= 3) drag.moved = true;
    const times = dragged(event);
    if (!drag.moved || !times) return;
    drag.block.style.left = `${times.start * pixelsPerSecond}px`;
    drag.block.style.width = `${Math.max(2, (times.end - times.start) * pixelsPerSecond)}px`;
    drag.block.classList.add('dragging');
  });

  track.addEventListener('pointerup', (event) => {
    if (!drag) return;
    const { cue, moved } = drag;
    const times = dragged(event);
    drag.block.classList.remove('dragging');
    drag = null;
    if (!moved) vscode.postMessage({ type: 'select', index: cue.index });
    else if (times)
      vscode.postMessage({
        type: 'retime',
        index: cue.index,
        start: Math.round(times.start * 1000) / 1000,
        end: Math.round(times.end * 1000) / 1000,
      });
  });

  ruler.addEventListener('click', (event) => {
    position = Math.max(0, (event.clientX - track.getBoundingClientRect().left) / pixelsPerSecond);
    movePlayhead();
    vscode.postMessage({ type: 'playhead-moved', position });
  });

  const atPlayhead = (edge) =>
    vscode.postMessage({ type: 'at-playhead', edge, index: current, position: Math.round(position * 1000) / 1000 });
  /** @type {HTMLElement} */ (document.getElementById('set-start')).addEventListener('click', () =>
    atPlayhead('start'),
  );
  /** @type {HTMLElement} */ (document.getElementById('set-end')).addEventListener('click', () => atPlayhead('end'));
  /** @type {HTMLElement} */ (document.getElementById('split')).addEventListener('click', () => atPlayhead('split'));
  window.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === '[') atPlayhead('start');
    else if (event.key === ']') atPlayhead('end');
    else if (event.key === 's' || event.key === 'S') atPlayhead('split');
    else if (event.key === '+' || event.key === '=') zoom(1.5);
    else if (event.key === '-') zoom(1 / 1.5);
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
        {
          const peaks = decodePeaks(message.peaks);
          wave = {
            bucketsPerSecond: message.bucketsPerSecond,
            duration: message.duration,
            peaks,
            tallest: peaks.reduce((most, p) => Math.max(most, Math.abs(p)), 0) / 127,
          };
        }
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
        vscode.postMessage({ type: 'playhead-moved', position });
        return;
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
