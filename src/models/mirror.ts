/**
 * A company mirror of the model files: `<mirror>/<host>/<path>` for each upstream URL, which is the
 * layout `wget --mirror` (or a copy of each upstream tree under its host name) produces. Set with
 * `SPEECH_STUDIO_MODEL_MIRROR`, `--mirror`, or the editor setting.
 */
export function applyMirror(url: string, mirror: string | undefined): string {
  if (!mirror?.trim()) return url;
  const upstream = new URL(url);
  return `${mirror.trim().replace(/\/+$/, '')}/${upstream.host}${upstream.pathname}${upstream.search}`;
}
