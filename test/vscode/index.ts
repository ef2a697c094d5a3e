/**
 * The VS Code integration suite: runs inside the real extension host (code-server), loaded through the
 * workbench's `extensionTestsPath`. The tests run in this order; they share one window.
 */
import './walkthrough.test';
import './activation.test';
import './narrate.test';
import './ssml.test';
import './read-aloud.test';
import './add-pronunciation.test';
import './transcribe.test';
import './live-transcription.test';
import './name-speaker.test';
// The Jobs view tests look for early jobs by name: they run while the list is short enough to show them.
import './ui.test';
import './proof-listen.test';
import './lm-tools.test';
import './subtitles.test';
import './audiobook.test';
import './audiobook-verify.test';
import './audiobook-acx.test';
import './read-along.test';
import './subtitle-check.test';
import './subtitle-language.test';
import './subtitle-quick-fix.test';
import './subtitle-formats.test';
import './subtitle-speech.test';
import './align.test';
import './shot-changes.test';
import './invented-text.test';
import './cue-play.test';
import './cue-grid.test';
import './timeline-editing.test';
import './api-key.test';
import './settings.test';
import './models.test';
import './model-files.test';
import './job-copy.test';
import './voices.test';
import './team-relay.test';
import './translate.test';
import './dub.test';
import './cast.test';
import './cast-reading.test';
// Last but one: the synthetic Kokoro it installs would change the voices the dub and cast tests choose.
import './own-voices.test';
import './deactivate.test';

export { run } from './run-suite';
