/**
 * Test support: GETs one URL with each HTTP client a team calls a sprite's `url` with (curl, Python's urllib,
 * requests and httpx, Node's fetch, Go's net/http), each resolving the host its own way (curl resolves
 * `*.localhost` itself; the others ask getaddrinfo or Go's resolver). A client that is not installed comes back as
 * `{ client, skipped }` with the reason, for the test to print; it never counts as a pass.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What one client got: the status and body, or why it could not run here. */
export type ClientResult = { client: string; status: number; body: string } | { client: string; skipped: string };

/** The Python the repository's CI installs packages for (`apt-get install python3-httpx python3-requests`). */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Prints `status\nbody` for a GET of argv[1] with an optional bearer token argv[2]. */
const PY = {
  urllib: `import sys, urllib.request, urllib.error
req = urllib.request.Request(sys.argv[1], headers={'Authorization': 'Bearer ' + sys.argv[2]} if sys.argv[2] else {})
try:
    r = urllib.request.urlopen(req, timeout=10); print(r.status); sys.stdout.write(r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code); sys.stdout.write(e.read().decode())`,
  requests: `import sys, requests
r = requests.get(sys.argv[1], headers={'Authorization': 'Bearer ' + sys.argv[2]} if sys.argv[2] else {}, timeout=10)
print(r.status_code); sys.stdout.write(r.text)`,
  httpx: `import sys, httpx
r = httpx.get(sys.argv[1], headers={'Authorization': 'Bearer ' + sys.argv[2]} if sys.argv[2] else {}, timeout=10)
print(r.status_code); sys.stdout.write(r.text)`,
};

const GO_MAIN = `package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

func main() {
	req, err := http.NewRequest("GET", os.Args[1], nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if os.Args[2] != "" {
		req.Header.Set("Authorization", "Bearer "+os.Args[2])
	}
	res, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b, _ := io.ReadAll(res.Body)
	fmt.Printf("%d\\n%s", res.StatusCode, b)
}
`;

let goBinary: Promise<string> | undefined;
const goDir = join(tmpdir(), `spritzer-go-url-client-${process.pid}`);

/** Removes the Go client built by `getWithEveryClient` (call from `afterAll`). */
export async function removeBuiltClients(): Promise<void> {
  goBinary = undefined;
  await rm(goDir, { recursive: true, force: true });
}

/** Builds the Go client once per test process (module-less, standard library only); rejects when Go is missing. */
function buildGoClient(): Promise<string> {
  goBinary ??= (async () => {
    const dir = goDir;
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'main.go'), GO_MAIN);
    const bin = join(dir, 'client');
    await run('go', ['build', '-o', bin, 'main.go'], { cwd: dir, env: { ...process.env, GO111MODULE: 'off' }, timeout: 120_000 });
    return bin;
  })();
  return goBinary;
}

/** `status\nbody` from a client's stdout. */
function parse(client: string, stdout: string): ClientResult {
  const nl = stdout.indexOf('\n');
  return { client, status: Number(stdout.slice(0, nl)), body: stdout.slice(nl + 1) };
}

/** Whether a failure means the client is absent (skip) rather than that it failed to reach the URL (a result). */
function missing(err: unknown): string | undefined {
  const e = err as { code?: string; stderr?: string };
  if (e.code === 'ENOENT') return 'not installed';
  const m = /No module named '?(\w+)'?/.exec(e.stderr ?? '');
  return m ? `Python module ${m[1]} is not installed` : undefined;
}

async function oneClient(client: string, argv: () => Promise<[string, string[]]>): Promise<ClientResult> {
  try {
    const [cmd, args] = await argv();
    const { stdout } = await run(cmd, args, { timeout: 30_000 });
    return parse(client, stdout);
  } catch (err) {
    const why = missing(err);
    if (why) return { client, skipped: why };
    // Reached nothing (DNS, refused): status 0 and the client's own error, so the assertion shows it.
    return { client, status: 0, body: String((err as { stderr?: string }).stderr || (err as Error).message) };
  }
}

/** GETs `url` with every client, with `Authorization: Bearer <token>` when a token is given. */
export async function getWithEveryClient(url: string, token = ''): Promise<ClientResult[]> {
  const results: ClientResult[] = [];
  results.push(await curl(url, token));
  for (const [name, code] of Object.entries(PY)) results.push(await oneClient(`python ${name}`, async () => [PYTHON, ['-c', code, url, token]]));
  try {
    const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    results.push({ client: 'node fetch', status: res.status, body: await res.text() });
  } catch (err) {
    results.push({ client: 'node fetch', status: 0, body: String((err as Error & { cause?: Error }).cause?.message ?? err) });
  }
  results.push(await oneClient('go net/http', async () => [await buildGoClient(), [url, token]]));
  return results;
}

/** curl's status and body: `-w` appends the status after the body, on a line of its own. */
async function curl(url: string, token: string): Promise<ClientResult> {
  try {
    const { stdout } = await run('curl', ['-sS', '-m', '10', '-w', '\n%{http_code}', ...(token ? ['-H', `Authorization: Bearer ${token}`] : []), url], { timeout: 30_000 });
    const nl = stdout.lastIndexOf('\n');
    return { client: 'curl', status: Number(stdout.slice(nl + 1)), body: stdout.slice(0, nl) };
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return { client: 'curl', skipped: 'not installed' };
    return { client: 'curl', status: 0, body: String((err as { stderr?: string }).stderr || (err as Error).message) };
  }
}

/** Splits results into reached ones and skipped ones, printing each skip with its reason (loud, never a pass). */
export function reportSkips(results: ClientResult[], what: string): Array<{ client: string; status: number; body: string }> {
  for (const r of results) if ('skipped' in r) console.warn(`${what}: ${r.client} skipped: ${r.skipped}`);
  return results.filter((r): r is { client: string; status: number; body: string } => !('skipped' in r));
}
