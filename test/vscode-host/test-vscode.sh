#!/usr/bin/env bash
# `npm run test:vscode`: the integration suite inside a real VS Code (code-server): a short run against the
# source folder, then the whole suite against the linux-x64 .vsix installed into a fresh profile, after
# packaging and checking every platform's .vsix. Installs the test host on first use. Prints each run's
# `N passed, N failed` and the total last.
# Why the source-folder run is short: the installed .vsix is what users get, and from it every test runs the
# same code as from the source folder (the linux-x64 .vsix carries the language-model runtime too), so the
# source run only shows that the extension activates from a checkout (test/vscode/source-only.ts), and the
# step does not pay ~5 minutes of CPU for a second full pass that proves nothing the first does not.
# env: SPEECH_TEST_MODELS (default ../shared/models beside the project), SCREENSHOT_DIR (README pictures,
#      taken in a whole source-folder run), SKIP_VSIX=1 (the whole suite on the source folder only, the inner
#      loop), FULL_SOURCE_RUN=1 (the whole suite on the source folder too, as before), TEST_TIMEOUT_MS (the
#      bound on one whole run, 30 minutes by default: a loaded machine runs the suite in 10–15)
set -euo pipefail
HOST="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HOST/../.." && pwd)"
cd "$ROOT"
started=$(date +%s)

if [ ! -x "$HOST/node_modules/.bin/code-server" ] || ! command -v chromium >/dev/null; then
  echo "Installing the VS Code test host (code-server, Chromium)…"
  bash "$HOST/setup.sh"
fi
[ -z "${SCREENSHOT_DIR:-}" ] || export SCREENSHOT_DIR="$(realpath -m "$SCREENSHOT_DIR")"
export SPEECH_TEST_MODELS="$(realpath "${SPEECH_TEST_MODELS:-$ROOT/../shared/models}")"
[ -f "$SPEECH_TEST_MODELS/whisper/ggml-synthetic-random.bin" ] || { echo "Test models not found in $SPEECH_TEST_MODELS (set SPEECH_TEST_MODELS)"; exit 1; }

node scripts/build.mjs
node "$HOST/build-tests.mjs"
TESTS="$ROOT/out/test/vscode/index.js"
# The source folder runs the whole suite when no .vsix run follows or pictures are taken; else its short part.
SOURCE_TESTS="$ROOT/out/test/vscode/source-only.js"
if [ -n "${SKIP_VSIX:-}" ] || [ -n "${SCREENSHOT_DIR:-}" ] || [ -n "${FULL_SOURCE_RUN:-}" ]; then SOURCE_TESTS="$TESTS"; fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/speech-studio-vscode-XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# One run: a fresh workspace with the fixtures, a fresh data directory, the API on a free test port.
run_suite() {
  local label="$1" ext="$2" tests="$3" dir="$WORK/$1"
  mkdir -p "$dir/ws/media" "$dir/data" "$dir/ui"
  cp -r "$ROOT/test/vscode/fixtures/." "$dir/ws/"
  cp "$SPEECH_TEST_MODELS/audio/jfk.wav" "$dir/ws/media/interview.wav"
  # The subtitle check starts off: subtitle-check.test.ts switches it on (the narration test counts its problems).
  # The voice is espeak-ng's en-US (the tests count on its word events and phonemes): left empty, the default
  # would be the best installed voice, the walkthrough's random-weight Piper voice (voices.test.ts clears it).
  printf '{ "speechStudio.localApi.port": %s, "speechStudio.dataDirectory": "%s", "speechStudio.subtitles.check": false, "speechStudio.tts.defaultVoice": "59ecd22d-96db-56b8-a0f4-62d14ba28a8b" }\n' \
    "$(free_port)" "$dir/data" > "$dir/settings.json"
  echo "── VS Code suite: $label"
  local rc=0
  USER_SETTINGS="$dir/settings.json" UI_REQUEST_DIR="$dir/ui" TEST_RESULT_FILE="$dir/result.txt" TEST_TIMEOUT_MS="${TEST_TIMEOUT_MS:-1800000}" \
    bash "$HOST/run-vscode-tests.sh" "$ext" "$tests" "$dir/ws" || rc=$?
  [ -s "$dir/result.txt" ] || echo "0 passed, 1 failed" > "$dir/result.txt"
  echo "$label: $(cat "$dir/result.txt")"
  return $rc
}

status=0
run_suite source "$ROOT" "$SOURCE_TESTS" || status=1
if [ -z "${SKIP_VSIX:-}" ]; then
  # Every platform's package, each proven to hold exactly its platform's native parts; the linux-x64 one
  # then runs the suite installed into a fresh profile.
  node scripts/package.mjs --out "$WORK/packages" >"$WORK/package.log" 2>&1 || { cat "$WORK/package.log"; exit 1; }
  node scripts/check-packages.mjs "$WORK/packages" || status=1
  VSIX="$(ls "$WORK"/packages/*-linux-x64-*.vsix)"
  echo "Packaged $(ls "$WORK"/packages/*.vsix | wc -l) platform packages; linux-x64: $(du -h "$VSIX" | cut -f1)"
  unset SCREENSHOT_DIR
  INSTALL_VSIX="$VSIX" run_suite vsix - "$TESTS" || status=1
fi

STARTED=$started node -e '
  let p = 0, f = 0;
  for (const file of process.argv.slice(1)) {
    const m = /(\d+) passed, (\d+) failed/.exec(require("fs").readFileSync(file, "utf8"));
    if (m) { p += +m[1]; f += +m[2]; }
  }
  console.log(`VS Code step took ${Math.round(Date.now() / 1000 - process.env.STARTED)} s`);
  console.log(`vscode: ${p} passed, ${f} failed`);
' "$WORK"/*/result.txt
exit $status
