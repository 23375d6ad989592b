/**
 * The inspector's browser code (bundled by src/server/inspector/bundle.ts into dist/ui/app.js): plain DOM plus
 * xterm.js. It only calls the public API and `/_spritzer/*` like any client would; it owns no server state.
 * Views: sprites (live), per sprite files / checkpoints / services / sessions + terminal / network policy,
 * the request log and the fault rules. @see docs/inspector.md
 */
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import './style.css';

type Json = any;
type Child = Node | string | number | null | undefined | false;

/** Creates an element: `h('button', {class: 'act', onclick}, 'text')`. */
function h(tag: string, attrs: Record<string, unknown> = {}, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'value') (el as HTMLInputElement).value = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

const TOKEN_KEY = 'spritzer-token';
/** Without `--token` any non-empty credential is accepted, so the UI sends this one. */
const ANY_TOKEN = 'inspector';
const token = (): string => sessionStorage.getItem(TOKEN_KEY) ?? ANY_TOKEN;

class Unauthorized extends Error {}

/** Calls the API with the bearer token; `poll` marks requests the request log skips. */
async function api(path: string, init: RequestInit & { poll?: boolean } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${token()}`);
  if (init.poll) headers.set('X-Spritzer-Inspector', 'poll');
  const res = await fetch(path, { ...init, headers });
  if (res.status === 401) {
    askToken();
    throw new Unauthorized('unauthorized');
  }
  return res;
}

async function json(path: string, init: RequestInit & { poll?: boolean } = {}): Promise<Json> {
  const res = await api(path, init);
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${res.status} ${body?.message ?? body?.error ?? text}`);
  return body;
}

/** Reads an NDJSON (or any text) stream line by line into `out` until it ends or `signal` aborts. */
async function streamLines(res: Response, out: HTMLElement, signal?: AbortSignal): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  signal?.addEventListener('abort', () => void reader.cancel().catch(() => undefined));
  const dec = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    out.textContent += dec.decode(value, { stream: true });
    out.scrollTop = out.scrollHeight;
  }
}

let tokenPromptOpen = false;
function askToken(): void {
  if (tokenPromptOpen) return;
  tokenPromptOpen = true;
  const input = h('input', { type: 'password', name: 'token', placeholder: 'bearer token', autocomplete: 'off' }) as HTMLInputElement;
  const overlay = h(
    'div',
    { class: 'overlay' },
    h(
      'form',
      {
        id: 'token-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          sessionStorage.setItem(TOKEN_KEY, input.value);
          overlay.remove();
          tokenPromptOpen = false;
          render();
        },
      },
      h('strong', {}, 'This spritzer runs with --token'),
      h('span', { class: 'dim' }, 'The token is kept in this tab only (sessionStorage).'),
      input,
      h('input', { type: 'submit', value: 'Use token' }),
    ),
  );
  document.body.append(overlay);
  input.focus();
}

// ───────────────────────── state ─────────────────────────
type View = 'sprites' | 'requests' | 'faults';
type SpriteTab = 'files' | 'checkpoints' | 'services' | 'terminal' | 'policy';
const state = {
  view: 'sprites' as View,
  sprites: [] as Json[],
  selected: undefined as string | undefined,
  tab: 'files' as SpriteTab,
  dir: '/home/sprite',
  requests: [] as Json[],
  requestFilter: '',
  selectedRequest: undefined as number | undefined,
};
let viewAbort = new AbortController();
let term: { terminal: Terminal; ws?: WebSocket; resizeObserver?: ResizeObserver } | undefined;

const root = document.getElementById('app')!;
const sidebar = h('aside', { id: 'sprites' });
const content = h('section', { class: 'content', id: 'content' });

function navButton(view: View, label: string): HTMLElement {
  return h('button', { id: `nav-${view}`, class: state.view === view ? 'active' : '', onclick: () => go({ view }) }, label);
}

function layout(): void {
  root.replaceChildren(
    h('header', {}, h('h1', {}, 'spritzer inspector'), h('nav', {}, navButton('sprites', 'Sprites'), navButton('requests', 'Requests'), navButton('faults', 'Faults'))),
    h('main', {}, sidebar, content),
  );
}

function go(next: Partial<typeof state>): void {
  Object.assign(state, next);
  render();
}

function closeTerminal(): void {
  term?.ws?.close();
  term?.resizeObserver?.disconnect();
  term?.terminal.dispose();
  term = undefined;
}

/** Re-renders the main panel (the sidebar refreshes on its own poll). */
function render(): void {
  viewAbort.abort();
  viewAbort = new AbortController();
  closeTerminal();
  layout();
  renderSprites();
  const signal = viewAbort.signal;
  const fail = (e: unknown) => {
    if (!(e instanceof Unauthorized) && !signal.aborted) content.append(h('p', { class: 'err' }, String((e as Error).message ?? e)));
  };
  if (state.view === 'requests') return void renderRequests().catch(fail);
  if (state.view === 'faults') return void renderFaults().catch(fail);
  if (!state.selected) {
    content.replaceChildren(h('p', { class: 'dim' }, 'Select a sprite, or create one through the API (e.g. the SDK or curl).'));
    return;
  }
  const tabs: [SpriteTab, string][] = [
    ['files', 'Files'],
    ['checkpoints', 'Checkpoints'],
    ['services', 'Services'],
    ['terminal', 'Sessions & terminal'],
    ['policy', 'Network policy'],
  ];
  const body = h('div', { id: `tab-${state.tab}` });
  content.replaceChildren(
    h('h2', {}, state.selected),
    h('div', { class: 'tabs' }, tabs.map(([t, label]) => h('button', { id: `tab-btn-${t}`, class: state.tab === t ? 'active' : '', onclick: () => go({ tab: t }) }, label))),
    body,
  );
  const name = state.selected;
  const views: Record<SpriteTab, () => Promise<void>> = {
    files: () => renderFiles(body, name),
    checkpoints: () => renderCheckpoints(body, name),
    services: () => renderServices(body, name, signal),
    terminal: () => renderSessions(body, name),
    policy: () => renderPolicy(body, name),
  };
  views[state.tab]().catch((e) => {
    if (!(e instanceof Unauthorized) && !signal.aborted) body.append(h('p', { class: 'err' }, String((e as Error).message ?? e)));
  });
}

// ───────────────────────── sprites (live) ─────────────────────────
function age(iso: string | undefined): string {
  if (!iso) return '';
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

function renderSprites(): void {
  const items = state.sprites.map((s) =>
    h(
      'div',
      {
        class: `sprite${s.name === state.selected ? ' selected' : ''}`,
        'data-sprite': s.name,
        onclick: () => go({ selected: s.name, view: 'sprites', dir: '/home/sprite' }),
      },
      h('div', {}, h('span', { class: 'name' }, s.name), ' ', h('span', { class: `status-${s.status}` }, s.status)),
      h('div', { class: 'meta' }, `age ${age(s.created_at)} · `, h('a', { href: s.url, target: '_blank', rel: 'noreferrer' }, s.url)),
      (s.labels ?? []).length ? h('div', {}, (s.labels as string[]).map((l) => h('span', { class: 'label' }, l))) : null,
    ),
  );
  sidebar.replaceChildren(h('h3', { style: 'padding: 0 12px' }, `Sprites (${state.sprites.length})`), ...items);
}

async function pollSprites(): Promise<void> {
  const all: Json[] = [];
  let cont: string | null = null;
  do {
    const q: string = cont ? `?continuation_token=${encodeURIComponent(cont)}` : '';
    const page = await json(`/v1/sprites${q}`, { poll: true });
    all.push(...page.sprites);
    cont = page.has_more ? page.next_continuation_token : null;
  } while (cont);
  const before = JSON.stringify(state.sprites);
  state.sprites = all;
  if (JSON.stringify(all) !== before) renderSprites();
}

// ───────────────────────── files ─────────────────────────
const enc = encodeURIComponent;
const sp = (name: string) => `/v1/sprites/${enc(name)}`;
const join = (dir: string, n: string) => (dir.endsWith('/') ? dir + n : `${dir}/${n}`);

async function renderFiles(body: HTMLElement, name: string): Promise<void> {
  const dir = state.dir;
  const listing = await json(`${sp(name)}/fs/list?path=${enc(dir)}`);
  const viewer = h('div', { id: 'file-view' });
  const parent = dir === '/' ? null : dir.replace(/\/[^/]+\/?$/, '') || '/';
  const upload = h('input', { type: 'file', id: 'upload' }) as HTMLInputElement;
  upload.addEventListener('change', async () => {
    const file = upload.files?.[0];
    if (!file) return;
    await api(`${sp(name)}/fs/write?path=${enc(join(dir, file.name))}&mkdirParents=true`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: await file.arrayBuffer(),
    });
    render();
  });
  const rows = (listing.entries as Json[]).map((e) =>
    h(
      'tr',
      { class: 'clickable', 'data-path': e.path },
      h('td', { onclick: () => (e.isDir ? go({ dir: e.path }) : void viewFile(viewer, name, e.path)) }, e.isDir ? `${e.name}/` : e.name),
      h('td', { class: 'dim' }, e.isDir ? '' : e.size),
      h('td', { class: 'dim' }, e.mode),
      h('td', { class: 'dim' }, e.modTime),
      h(
        'td',
        {},
        e.isDir ? null : h('button', { class: 'act', onclick: () => void download(name, e.path, e.name) }, 'download'),
        ' ',
        h(
          'button',
          {
            class: 'act danger',
            onclick: async () => {
              if (!confirm(`Delete ${e.path}?`)) return;
              await api(`${sp(name)}/fs/delete?path=${enc(e.path)}${e.isDir ? '&recursive=true' : ''}`, { method: 'DELETE' });
              render();
            },
          },
          'delete',
        ),
      ),
    ),
  );
  body.replaceChildren(
    h(
      'div',
      { class: 'row' },
      h('strong', { id: 'cwd' }, dir),
      parent ? h('button', { class: 'act', onclick: () => go({ dir: parent }) }, '↑ up') : null,
      h('label', { class: 'dim' }, 'upload: ', upload),
    ),
    h('table', { id: 'files' }, h('tr', {}, h('th', {}, 'name'), h('th', {}, 'size'), h('th', {}, 'mode'), h('th', {}, 'modified'), h('th', {}, '')), rows),
    viewer,
  );
}

async function viewFile(viewer: HTMLElement, name: string, path: string): Promise<void> {
  const res = await api(`${sp(name)}/fs/read?path=${enc(path)}`);
  const buf = new Uint8Array(await res.arrayBuffer());
  const shown = buf.subarray(0, 256 * 1024);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(shown);
  const binary = shown.includes(0);
  viewer.replaceChildren(
    h('h3', {}, path, ` (${buf.length} bytes)`),
    h('pre', { id: 'file-content' }, binary ? `<${buf.length} bytes of binary data: use download>` : text + (buf.length > shown.length ? '\n…' : '')),
  );
}

async function download(name: string, path: string, filename: string): Promise<void> {
  const res = await api(`${sp(name)}/fs/read?path=${enc(path)}`);
  const url = URL.createObjectURL(await res.blob());
  const a = h('a', { href: url, download: filename }) as HTMLAnchorElement;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ───────────────────────── checkpoints ─────────────────────────
async function renderCheckpoints(body: HTMLElement, name: string): Promise<void> {
  const list = (await json(`${sp(name)}/checkpoints`)) as Json[];
  const progress = h('pre', { id: 'checkpoint-progress' });
  const comment = h('input', { placeholder: 'comment (optional)', id: 'checkpoint-comment' }) as HTMLInputElement;
  const runStream = async (path: string, init: RequestInit) => {
    progress.textContent = '';
    const res = await api(path, init);
    await streamLines(res, progress);
    progress.append(h('span', { class: 'dim' }, `— done (HTTP ${res.status})\n`));
    const fresh = (await json(`${sp(name)}/checkpoints`)) as Json[];
    table.replaceWith((table = checkpointTable(fresh)));
  };
  const checkpointTable = (items: Json[]) =>
    h(
      'table',
      { id: 'checkpoints' },
      h('tr', {}, h('th', {}, 'id'), h('th', {}, 'created'), h('th', {}, 'comment'), h('th', {}, '')),
      items.map((c) =>
        h(
          'tr',
          { 'data-checkpoint': c.id },
          h('td', {}, c.id),
          h('td', { class: 'dim' }, c.create_time),
          h('td', {}, c.comment ?? ''),
          h(
            'td',
            {},
            c.id === 'Current'
              ? h('span', { class: 'dim' }, 'live state')
              : h('button', { class: 'act', onclick: () => void runStream(`${sp(name)}/checkpoints/${enc(c.id)}/restore`, { method: 'POST' }) }, 'restore'),
          ),
        ),
      ),
    );
  let table = checkpointTable(list);
  body.replaceChildren(
    h(
      'div',
      { class: 'row' },
      comment,
      h(
        'button',
        {
          class: 'act',
          id: 'checkpoint-create',
          onclick: () =>
            void runStream(`${sp(name)}/checkpoint`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify(comment.value ? { comment: comment.value } : {}),
            }),
        },
        'create checkpoint',
      ),
    ),
    table,
    h('h3', {}, 'progress (NDJSON)'),
    progress,
  );
}

// ───────────────────────── services ─────────────────────────
async function renderServices(body: HTMLElement, name: string, signal: AbortSignal): Promise<void> {
  const list = (await json(`${sp(name)}/services`)) as Json[];
  const logs = h('pre', { id: 'service-logs' });
  let logAbort: AbortController | undefined;
  const follow = async (svc: string) => {
    logAbort?.abort();
    logAbort = new AbortController();
    signal.addEventListener('abort', () => logAbort?.abort());
    logs.textContent = '';
    const res = await api(`${sp(name)}/services/${enc(svc)}/logs`, { signal: logAbort.signal });
    await streamLines(res, logs, logAbort.signal);
  };
  body.replaceChildren(
    list.length === 0 ? h('p', { class: 'dim' }, 'No services.') : '',
    h(
      'table',
      { id: 'services' },
      h('tr', {}, h('th', {}, 'name'), h('th', {}, 'command'), h('th', {}, 'state'), h('th', {}, 'port'), h('th', {}, '')),
      list.map((s) =>
        h(
          'tr',
          {},
          h('td', {}, s.name),
          h('td', { class: 'dim' }, [s.cmd, ...(s.args ?? [])].join(' ')),
          h('td', { class: `status-${s.state?.status}` }, s.state?.status ?? ''),
          h('td', {}, s.http_port ?? ''),
          h('td', {}, h('button', { class: 'act', onclick: () => void follow(s.name).catch(() => undefined) }, 'live logs')),
        ),
      ),
    ),
    h('h3', {}, 'logs (NDJSON)'),
    logs,
  );
}

// ───────────────────────── sessions + terminal ─────────────────────────
function b64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function renderSessions(body: HTMLElement, name: string): Promise<void> {
  const list = await json(`${sp(name)}/exec`);
  const box = h('div', { class: 'terminal-box', id: 'terminal' });
  const status = h('span', { class: 'dim', id: 'terminal-status' }, 'no terminal open');
  // Empty: an interactive bash. A command runs as `bash -c <command>` on a TTY (the shell engine runs no interactive
  // shell yet: there, give the command here).
  const command = h('input', { id: 'terminal-command', placeholder: 'command (empty: interactive bash)', size: 36 }) as HTMLInputElement;
  const sessionsTable = (sessions: Json[]) =>
    h(
      'table',
      { id: 'sessions' },
      h('tr', {}, h('th', {}, 'id'), h('th', {}, 'command'), h('th', {}, 'tty'), h('th', {}, 'active'), h('th', {}, 'created'), h('th', {}, '')),
      sessions.map((s) =>
        h(
          'tr',
          {},
          h('td', {}, s.id),
          h('td', {}, s.command),
          h('td', {}, String(s.tty)),
          h('td', {}, String(s.is_active)),
          h('td', { class: 'dim' }, s.created),
          h('td', {}, h('button', { class: 'act', onclick: () => openTerminal(box, status, name, `${sp(name)}/exec/${enc(s.id)}`, '', refresh) }, 'attach')),
        ),
      ),
    );
  let table = sessionsTable(list.sessions);
  /** Re-lists the sessions (after a terminal opens or ends). */
  const refresh = async () => {
    const fresh = await json(`${sp(name)}/exec`).catch(() => undefined);
    if (fresh) table.replaceWith((table = sessionsTable(fresh.sessions)));
  };
  body.replaceChildren(
    table,
    h(
      'form',
      {
        class: 'row',
        id: 'terminal-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          openTerminal(box, status, name, undefined, command.value.trim(), refresh);
        },
      },
      command,
      h('input', { type: 'submit', id: 'open-bash', value: 'open terminal' }),
      status,
    ),
    box,
  );
}

/** Opens an xterm over the exec WebSocket in TTY mode (docs/wire.md "Frames with a TTY"); `attachPath` attaches. */
function openTerminal(box: HTMLElement, status: HTMLElement, name: string, attachPath?: string, command = '', onChange?: () => void): void {
  closeTerminal();
  box.replaceChildren();
  const terminal = new Terminal({ cursorBlink: true, fontSize: 13, convertEol: false, theme: { background: '#000000' } });
  const fit = new FitAddon();
  terminal.loadAddon(fit);
  terminal.open(box);
  fit.fit();
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = new URLSearchParams({ tty: 'true', stdin: 'true', rows: String(terminal.rows), cols: String(terminal.cols) });
  const path = attachPath ?? `${sp(name)}/exec`;
  if (!attachPath) {
    for (const arg of command ? ['bash', '-c', command] : ['bash']) q.append('cmd', arg);
    q.set('path', 'bash');
  }
  // Browsers cannot set Authorization on a WebSocket: the token rides in a sub-protocol (docs/inspector.md).
  const ws = new WebSocket(`${proto}//${location.host}${path}?${q}`, ['spritzer-ui', `spritzer-token.${b64url(token())}`]);
  ws.binaryType = 'arraybuffer';
  const encoder = new TextEncoder();
  let session = '';
  ws.onopen = () => (status.textContent = attachPath ? 'attached' : 'connected');
  ws.onmessage = (ev) => {
    if (typeof ev.data === 'string') {
      const msg = JSON.parse(ev.data);
      if (msg.type === 'session_info') {
        status.textContent = session = `session ${msg.session_id} (${msg.command})`;
        onChange?.();
      }
      if (msg.type === 'exit') status.textContent = `${session}: exited with code ${msg.exit_code}`;
      return;
    }
    terminal.write(new Uint8Array(ev.data as ArrayBuffer));
  };
  ws.onclose = (ev) => {
    onChange?.();
    if (!/exited/.test(status.textContent ?? '')) status.textContent = `${session || 'socket'}: closed (${ev.code}${ev.reason ? ` ${ev.reason}` : ''})`;
  };
  terminal.onData((d) => ws.readyState === WebSocket.OPEN && ws.send(encoder.encode(d)));
  terminal.onResize(({ cols, rows }) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'resize', cols, rows })));
  const resizeObserver = new ResizeObserver(() => fit.fit());
  resizeObserver.observe(box);
  terminal.focus();
  term = { terminal, ws, resizeObserver };
  (window as unknown as { __term: Terminal }).__term = terminal;
}

// ───────────────────────── policy ─────────────────────────
async function renderPolicy(body: HTMLElement, name: string): Promise<void> {
  const policy = await json(`${sp(name)}/policy/network`);
  const rules = (policy.rules ?? []) as Json[];
  body.replaceChildren(
    rules.length === 0 ? h('p', { class: 'dim' }, 'No rules: all egress allowed.') : '',
    h(
      'table',
      { id: 'policy' },
      h('tr', {}, h('th', {}, '#'), h('th', {}, 'rule')),
      rules.map((r, i) => h('tr', {}, h('td', {}, i + 1), h('td', {}, h('code', {}, JSON.stringify(r))))),
    ),
    h('h3', {}, 'raw'),
    h('pre', {}, JSON.stringify(policy, null, 2)),
  );
}

// ───────────────────────── request log ─────────────────────────
async function renderRequests(): Promise<void> {
  const filter = h('input', { id: 'request-filter', placeholder: 'filter: method, path, status, sprite', value: state.requestFilter, size: 40 }) as HTMLInputElement;
  const table = h('table', { id: 'requests' });
  const detail = h('div', { id: 'request-detail' });
  filter.addEventListener('input', () => {
    state.requestFilter = filter.value;
    draw();
  });
  content.replaceChildren(h('div', { class: 'row' }, h('h2', {}, 'Requests'), filter, h('span', { class: 'dim' }, 'last 500, newest first; live')), h('div', { class: 'split' }, table, detail));
  const draw = () => {
    const f = state.requestFilter.toLowerCase();
    const shown = state.requests.filter((r) => !f || `${r.kind} ${r.method} ${r.path} ${r.status} ${r.sprite ?? ''}`.toLowerCase().includes(f));
    table.replaceChildren(
      h('tr', {}, h('th', {}, 'time'), h('th', {}, 'method'), h('th', {}, 'path'), h('th', {}, 'status'), h('th', {}, 'ms'), h('th', {}, 'sprite')),
      ...shown.map((r) =>
        h(
          'tr',
          { class: `clickable${r.id === state.selectedRequest ? ' selected' : ''}`, 'data-request': r.id, onclick: () => ((state.selectedRequest = r.id), draw()) },
          h('td', { class: 'dim' }, r.startedAt.slice(11, 23)),
          h('td', {}, r.kind === 'ws' ? `WS ${r.method}` : r.method),
          h('td', {}, r.path),
          h('td', { class: r.status >= 400 ? 'err' : '' }, r.status || '…'),
          h('td', { class: 'dim' }, r.durationMs === null ? 'open' : Math.round(r.durationMs)),
          h('td', {}, r.sprite ?? ''),
        ),
      ),
    );
    const sel = state.requests.find((r) => r.id === state.selectedRequest);
    detail.replaceChildren(
      sel
        ? h(
            'div',
            {},
            h('h3', {}, `${sel.method} ${sel.path} → ${sel.status}`),
            h('h3', {}, 'request headers'),
            h('pre', {}, Object.entries(sel.requestHeaders).map(([k, v]) => `${k}: ${v}`).join('\n')),
            h('h3', {}, 'request body'),
            h('pre', { id: 'request-body' }, sel.requestBody || '(empty)'),
            h('h3', {}, 'response headers'),
            h('pre', {}, Object.entries(sel.responseHeaders).map(([k, v]) => `${k}: ${v}`).join('\n')),
            h('h3', {}, 'response body', sel.truncated ? ' (truncated at 4 KiB)' : ''),
            h('pre', { id: 'response-body' }, sel.responseBody || '(empty)'),
          )
        : h('p', { class: 'dim' }, 'Click a request to see its headers and bodies (Authorization is never stored).'),
    );
  };
  redrawRequests = draw;
  state.requests = (await json('/_spritzer/requests', { poll: true })).requests;
  draw();
}
let redrawRequests: (() => void) | undefined;

// ───────────────────────── faults ─────────────────────────
async function renderFaults(): Promise<void> {
  const { rules } = (await json('/_spritzer/faults')) as { rules: Json[] };
  const f = {
    operationId: h('input', { id: 'fault-op', placeholder: 'operationId (any)' }) as HTMLInputElement,
    sprite: h('input', { id: 'fault-sprite', placeholder: 'sprite (any)' }) as HTMLInputElement,
    status: h('input', { id: 'fault-status', type: 'number', value: '503', min: '400', max: '599' }) as HTMLInputElement,
    error: h('input', { id: 'fault-error', placeholder: 'error', value: 'injected' }) as HTMLInputElement,
    times: h('input', { id: 'fault-times', type: 'number', placeholder: 'times (∞)', min: '1' }) as HTMLInputElement,
  };
  const err = h('p', { class: 'err' });
  const post = (rule: Json) => json('/_spritzer/faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rule) });
  content.replaceChildren(
    h('h2', {}, 'Fault rules'),
    h(
      'form',
      {
        class: 'row',
        id: 'fault-form',
        onsubmit: async (e: Event) => {
          e.preventDefault();
          const rule: Json = { status: Number(f.status.value), error: f.error.value || 'injected' };
          if (f.operationId.value) rule.operationId = f.operationId.value;
          if (f.sprite.value) rule.sprite = f.sprite.value;
          if (f.times.value) rule.times = Number(f.times.value);
          try {
            await post(rule);
            render();
          } catch (x) {
            err.textContent = (x as Error).message;
          }
        },
      },
      f.operationId,
      f.sprite,
      f.status,
      f.error,
      f.times,
      h('input', { type: 'submit', value: 'add rule' }),
      h('button', { class: 'act danger', type: 'button', onclick: async () => (await api('/_spritzer/faults', { method: 'DELETE' }), render()) }, 'clear all'),
    ),
    err,
    h(
      'table',
      { id: 'faults' },
      h('tr', {}, h('th', {}, 'id'), h('th', {}, 'operationId'), h('th', {}, 'sprite'), h('th', {}, 'status'), h('th', {}, 'error'), h('th', {}, 'remaining'), h('th', {}, '')),
      rules.map((r) =>
        h(
          'tr',
          { 'data-fault': r.id },
          h('td', {}, r.id),
          h('td', {}, r.operationId ?? 'any'),
          h('td', {}, r.sprite ?? 'any'),
          h('td', {}, r.status),
          h('td', {}, r.error ?? ''),
          h('td', {}, r.remaining ?? '∞'),
          h(
            'td',
            {},
            h(
              'button',
              {
                class: 'act danger',
                // The API clears all rules at once: delete one = clear, then add back the others as they stand.
                onclick: async () => {
                  await api('/_spritzer/faults', { method: 'DELETE' });
                  for (const o of rules) {
                    if (o.id === r.id) continue;
                    const { remaining, ...rest } = o;
                    await post(remaining === null || remaining === undefined ? rest : { ...rest, times: remaining });
                  }
                  render();
                },
              },
              'delete',
            ),
          ),
        ),
      ),
    ),
  );
}

// ───────────────────────── polling ─────────────────────────
async function tick(): Promise<void> {
  try {
    await pollSprites();
    if (state.view === 'requests' && redrawRequests) {
      const fresh = (await json('/_spritzer/requests', { poll: true })).requests as Json[];
      if (JSON.stringify(fresh) !== JSON.stringify(state.requests)) {
        state.requests = fresh;
        redrawRequests();
      }
    }
  } catch {
    // shown on the next render; a 401 opens the token prompt
  }
}

render();
void tick();
setInterval(() => void tick(), 1000);
