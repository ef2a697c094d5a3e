import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linkStateOf, relayStatus } from '../../src/editor/relay/link-state';

const RELAY = 'https://relay.example.com';

describe('the team relay link as the editor shows it', () => {
  it("folds the device client's states into online, connecting, reconnecting and refused", () => {
    assert.deepEqual(linkStateOf(RELAY, { state: 'connecting', deviceId: undefined, problem: undefined }), {
      kind: 'connecting',
      relay: RELAY,
    });
    assert.deepEqual(linkStateOf(RELAY, { state: 'connected', deviceId: 'dev_1', problem: undefined }), {
      kind: 'online',
      relay: RELAY,
      deviceId: 'dev_1',
    });
    assert.deepEqual(linkStateOf(RELAY, { state: 'disconnected', deviceId: 'dev_1', problem: undefined }), {
      kind: 'reconnecting',
      relay: RELAY,
    });
    // A retry after a drop is still "reconnecting", not a first "connecting".
    assert.deepEqual(linkStateOf(RELAY, { state: 'connecting', deviceId: 'dev_1', problem: undefined }), {
      kind: 'reconnecting',
      relay: RELAY,
    });
    assert.deepEqual(
      linkStateOf(RELAY, { state: 'refused', deviceId: undefined, problem: 'The device token is wrong.' }),
      {
        kind: 'refused',
        relay: RELAY,
        message: 'The device token is wrong.',
      },
    );
    // Replaced by a newer link with the same token: only another token helps, so it reads as refused.
    assert.equal(linkStateOf(RELAY, { state: 'stopped', deviceId: 'dev_1', problem: 'replaced' }).kind, 'refused');
  });

  it("shows nothing while off; online with the remote jobs; refused in red with the relay's sentence and a way to a new token", () => {
    assert.equal(relayStatus({ kind: 'off' }, 0), undefined);
    const online = relayStatus({ kind: 'online', relay: RELAY, deviceId: 'dev_1' }, 2)!;
    assert.equal(online.text, '$(cloud) Relay online · 2 remote jobs');
    assert.match(online.tooltip, /relay\.example\.com as device dev_1/);
    assert.equal(online.error, false);
    assert.equal(relayStatus({ kind: 'reconnecting', relay: RELAY }, 0)!.text, '$(sync~spin) Relay reconnecting');
    const refused = relayStatus(
      { kind: 'refused', relay: RELAY, message: 'The device token is wrong, or the device was removed.' },
      0,
    )!;
    assert.equal(refused.text, '$(error) Relay refused');
    assert.match(
      refused.tooltip,
      /refused this device: The device token is wrong, or the device was removed\.\nClick to enter a new device token\./,
    );
    assert.equal(refused.error, true);
    assert.equal(refused.command, 'speechStudio.joinTeamRelay');
    assert.equal(
      relayStatus({ kind: 'unavailable', message: 'no device token is stored' }, 0)!.command,
      'speechStudio.joinTeamRelay',
    );
  });
});
