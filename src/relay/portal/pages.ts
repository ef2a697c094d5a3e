import type { Account } from '../data/accounts';
import { SCOPES, type ApiKey } from '../data/api-keys';
import { drainState, isReady, type Device } from '../data/devices';
import type { JobRow } from '../data/jobs';
import { bytes, html, page, when, type Html } from './html';

export interface Nav {
  csrf: string;
  user: string;
}

const csrfField = (nav: Nav): Html => html`<input type="hidden" name="_csrf" value="${nav.csrf}" />`;
const problem = (message?: string): Html => html`${message ? html`<p class="error" role="alert">${message}</p>` : ''}`;

export function loginPage(csrf: string, message?: string): string {
  return page(
    'Sign in',
    html`${problem(message)}
      <form method="post" action="/portal/login">
        <fieldset>
          <input type="hidden" name="_csrf" value="${csrf}" />
          <label>User name <input name="username" autocomplete="username" required value="admin" /></label>
          <label>Password <input name="password" type="password" autocomplete="current-password" required /></label>
          <button type="submit">Sign in</button>
        </fieldset>
      </form>`,
  );
}

/** Jobs waiting or running per device, and those of them already sent to it (what a drain waits for). */
export interface DeviceLoads {
  active: Map<string, number>;
  sent: Map<string, number>;
}

function serviceForm(nav: Nav, d: Device): Html {
  if (d.revokedAt) return html`—`;
  const action = d.draining ? 'undrain' : 'drain';
  return html`<form method="post" action="/portal/devices/${d.id}/${action}">
    ${csrfField(nav)}
    <button type="submit" name="${action}" value="${d.id}">${d.draining ? 'Put back' : 'Drain'}</button>
  </form>`;
}

function deviceRows(nav: Nav, devices: Device[], load: DeviceLoads, offlineAfterMs: number): Html[] {
  const now = Date.now();
  return devices.map((d) => {
    const caps = d.capabilities;
    const ready = isReady(d, now, offlineAfterMs);
    const stt = caps ? caps.stt.models.map((m) => m.name).join(', ') || 'none' : '—';
    const state = d.draining && !d.revokedAt ? drainState(d, load.sent.get(d.id) ?? 0) : undefined;
    return html`<tr data-device="${d.id}">
      <td><code>${d.id}</code></td>
      <td>${d.name}${d.labels.length > 0 ? html` <small class="labels">${d.labels.join(', ')}</small>` : ''}</td>
      <td class="${ready ? 'online' : 'offline'}">
        ${d.revokedAt ? 'revoked' : ready ? 'online' : 'offline'}${state ? html` (<span class="service">${state}</span>)` : ''}
      </td>
      <td>${when(d.lastSeenAt)}</td>
      <td>${caps ? caps.tts.voices.length : '—'}</td>
      <td>${stt}</td>
      <td>${caps ? (caps.stt.diarization ? 'yes' : 'no') : '—'}</td>
      <td>${load.active.get(d.id) ?? 0} / ${caps?.queueCapacity ?? '—'}</td>
      <td>${caps?.version ?? '—'}</td>
      <td>${serviceForm(nav, d)}</td>
    </tr>`;
  });
}

const DEVICE_HEAD = html`<tr>
  <th>Device id</th>
  <th>Name</th>
  <th>Status</th>
  <th>Last heard</th>
  <th>Voices</th>
  <th>STT models</th>
  <th>Diarization</th>
  <th>Jobs / room</th>
  <th>Version</th>
  <th>Service</th>
</tr>`;

export function dashboardPage(
  nav: Nav,
  account: Account,
  devices: Device[],
  load: DeviceLoads,
  jobs: JobRow[],
  offlineAfterMs: number,
): string {
  const jobRows = jobs.map(
    (j) =>
      html`<tr>
        <td><code>${j.id}</code></td>
        <td>${j.kind}</td>
        <td>${j.name}</td>
        <td>${j.status}</td>
        <td><code>${j.device_id ?? '—'}</code></td>
        <td>${when(j.created_at)}</td>
        <td>${j.credits_charged_milli === null ? '—' : (j.credits_charged_milli / 1000).toFixed(3)}</td>
      </tr>`,
  );
  return page(
    'Dashboard',
    html`<p>
        Credits: <strong id="credits">${account.credits.toFixed(3)}</strong> · Storage:
        <strong id="storage">${bytes(account.storageUsedBytes)}</strong> of ${bytes(account.storageQuotaBytes)}
      </p>
      <form method="post" action="/portal/credits" class="inline">
        ${csrfField(nav)}<label class="inline"
          >Add credits <input name="amount" type="number" min="1" step="1" required
        /></label>
        <button type="submit">Add</button>
      </form>
      <h2>Devices</h2>
      <table>
        ${DEVICE_HEAD}${deviceRows(nav, devices, load, offlineAfterMs)}
      </table>
      <h2>Recent jobs</h2>
      <table>
        <tr>
          <th>Id</th>
          <th>Kind</th>
          <th>Name</th>
          <th>Status</th>
          <th>Device</th>
          <th>Created</th>
          <th>Credits</th>
        </tr>
        ${jobRows}
      </table>`,
    nav,
  );
}

export function keysPage(nav: Nav, keys: ApiKey[], devices: Device[], message?: string): string {
  const rows = keys.map(
    (k) =>
      html`<tr data-key="${k.id}">
        <td>${k.name}</td>
        <td><code>${k.hint}</code></td>
        <td>${k.scopes.join(', ')}</td>
        <td>${k.pool.join(', ')}</td>
        <td>${k.rpm}</td>
        <td>${k.maxConcurrentJobs}</td>
        <td>${when(k.expiresAt)}</td>
        <td>
          ${
            k.revokedAt
              ? html`revoked ${when(k.revokedAt)}`
              : html`<form method="post" action="/portal/keys/${k.id}/revoke">
                  ${csrfField(nav)} <button type="submit" name="revoke" value="${k.id}">Revoke</button>
                </form>`
          }
        </td>
      </tr>`,
  );
  const scopeBoxes = SCOPES.map(
    (s) => html`<label><input type="checkbox" name="scopes" value="${s}" checked /> ${s}</label>`,
  );
  const poolBoxes = devices
    .filter((d) => !d.revokedAt)
    .map(
      (d) =>
        html`<label><input type="checkbox" name="pool" value="${d.id}" /> ${d.name} (<code>${d.id}</code>)</label>`,
    );
  return page(
    'API keys',
    html`${problem(message)}
      <table>
        <tr>
          <th>Name</th>
          <th>Key</th>
          <th>Scopes</th>
          <th>Device pool</th>
          <th>Requests/min</th>
          <th>Concurrent jobs</th>
          <th>Expires</th>
          <th></th>
        </tr>
        ${rows}
      </table>
      <form method="post" action="/portal/keys">
        <fieldset>
          <legend>Create a key</legend>
          ${csrfField(nav)} <label>Name <input name="name" required maxlength="100" /></label>
          <p>Scopes</p>
          ${scopeBoxes}
          <p>Device pool</p>
          <label><input type="checkbox" name="pool" value="*" /> Every device, present and future</label>${poolBoxes}
          <label>Expires (UTC, optional) <input name="expires" type="datetime-local" /></label>
          <label>Requests per minute <input name="rpm" type="number" min="1" max="100000" value="60" /></label>
          <label>Concurrent jobs <input name="concurrency" type="number" min="1" max="1000" value="2" /></label>
          <button type="submit">Create key</button>
        </fieldset>
      </form>`,
    nav,
  );
}

export function keyCreatedPage(nav: Nav, key: ApiKey, plaintext: string): string {
  return page(
    'Key created',
    html`<p>Copy the key now: it is shown <strong>only this once</strong> and cannot be shown again.</p>
      <code class="secret" id="new-key">${plaintext}</code>
      <p>${key.name}: ${key.scopes.join(', ')}; pool ${key.pool.join(', ')}.</p>
      <p><a href="/portal/keys">Back to the keys</a></p>`,
    nav,
  );
}

export function devicesPage(
  nav: Nav,
  devices: Device[],
  load: DeviceLoads,
  offlineAfterMs: number,
  message?: string,
): string {
  return page(
    'Devices',
    html`${problem(message)}
      <table>
        ${DEVICE_HEAD}${deviceRows(nav, devices, load, offlineAfterMs)}
      </table>
      <form method="post" action="/portal/devices">
        <fieldset>
          <legend>Enrol a device</legend>
          ${csrfField(nav)} <label>Name <input name="name" required maxlength="100" /></label
          ><button type="submit">Enrol</button>
        </fieldset>
      </form>`,
    nav,
  );
}

export function deviceEnrolledPage(nav: Nav, device: Device, token: string, relayOrigin: string): string {
  return page(
    'Device enrolled',
    html`<p>
        Device <code id="device-id">${device.id}</code> (${device.name}). Its token is shown
        <strong>only this once</strong>:
      </p>
      <code class="secret" id="device-token">${token}</code>
      <p>
        On the device: <code>node dist/cli.js serve --relay ${relayOrigin} --device-token &lt;token&gt;</code>, or the
        <em>Remote API</em> settings in VS Code.
      </p>
      <p><a href="/portal/devices">Back to the devices</a></p>`,
    nav,
  );
}
