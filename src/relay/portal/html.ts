/** Tiny server-side HTML: every value goes through `escape`; pages are plain forms, no script at all. */
export const escape = (value: unknown): string =>
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the values are the pages' strings, numbers and dates
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A trusted fragment built by these helpers, so it is not escaped twice. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Tagged template: interpolated values are escaped unless they are Html (or arrays of it). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value];
    out += parts.map((part) => (part instanceof Html ? part.text : escape(part))).join('') + strings[i + 1];
  });
  return new Html(out);
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#f6f7f9}
header{background:#1f2937;color:#fff;padding:.6rem 1.5rem;display:flex;gap:1.5rem;align-items:center}
header a{color:#e5e7eb;text-decoration:none}header form{margin-left:auto}main{padding:1.5rem;max-width:70rem}
table{border-collapse:collapse;width:100%;background:#fff;margin:.5rem 0 1.5rem}th,td{border:1px solid #d1d5db;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#eef0f3}fieldset{background:#fff;border:1px solid #d1d5db;margin:0 0 1.5rem}label{display:block;margin:.3rem 0}
code.secret{display:block;padding:.8rem;background:#fff7d6;border:1px solid #e0c04a;font-size:1.05rem;word-break:break-all}
.online{color:#047857;font-weight:600}.offline{color:#9ca3af}.error{color:#b91c1c;font-weight:600}.inline{display:inline}`;

export function page(title: string, body: Html, nav?: { csrf: string; user: string }): string {
  const header = nav
    ? html`<header>
        <strong>Speech Studio relay</strong><a href="/portal">Dashboard</a><a href="/portal/keys">API keys</a>
        <a href="/portal/devices">Devices</a>
        <form method="post" action="/portal/logout">
          <input type="hidden" name="_csrf" value="${nav.csrf}" /> ${nav.user} <button type="submit">Sign out</button>
        </form>
      </header>`
    : html`<header><strong>Speech Studio relay</strong></header>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escape(title)} · Speech Studio relay</title><style>${STYLE}</style></head><body>${header.text}<main><h1>${escape(title)}</h1>${body.text}</main></body></html>`;
}

export const when = (ms: number | null): string =>
  ms === null ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';

export function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
