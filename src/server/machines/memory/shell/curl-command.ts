/**
 * `curl` on the shell engine, for what the engine can answer truly: nothing listens on a shell sprite's loopback (a
 * service that would listen fails loudly), so a request to `localhost`, `127.0.0.0/8`, `::1` or `0.0.0.0` is refused
 * as curl reports a refused connection (exit 7, `curl: (7) Failed to connect to HOST port N after 0 ms: Couldn't
 * connect to server`, the progress meter on stderr, `-w '%{http_code}'` printing `000`). Any other host needs a
 * network the engine does not have, and `-v`, `--retry-connrefused` and options it does not know are refused
 * naming `--exec sandbox`.
 * @see https://curl.se/docs/manpage.html, https://curl.se/libcurl/c/libcurl-errors.html (CURLE_COULDNT_CONNECT)
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { SANDBOX_HINT } from './world.ts';

/** Options that take a value (short and long), whose value the refused request does not need. */
const VALUED = new Set(['-o', '-w', '-X', '-H', '-d', '-u', '-A', '-e', '-b', '-c', '-m', '-T', '-F', '-x', '-r', '-E', '-K', '-U', '-Y', '-y', '-z', '-C', '-D', '-P', '-Q', '-t',
  '--output', '--write-out', '--request', '--header', '--data', '--data-raw', '--data-binary', '--data-urlencode', '--data-ascii', '--json', '--user', '--user-agent', '--referer', '--cookie',
  '--cookie-jar', '--max-time', '--connect-timeout', '--retry', '--retry-delay', '--retry-max-time', '--upload-file', '--form', '--form-string', '--proxy', '--range', '--cert', '--cacert',
  '--key', '--config', '--proxy-user', '--speed-limit', '--speed-time', '--time-cond', '--continue-at', '--dump-header', '--ftp-port', '--quote', '--telnet-option', '--resolve',
  '--connect-to', '--interface', '--limit-rate', '--max-filesize', '--max-redirs', '--output-dir', '--unix-socket', '--abstract-unix-socket', '--oauth2-bearer', '--url-query', '--variable',
  '--expect100-timeout', '--keepalive-time', '--local-port', '--dns-servers', '--capath', '--ciphers', '--tls-max', '--happy-eyeballs-timeout-ms', '--noproxy', '--stderr', '--trace-time']);
/** Flags whose effect a refused connection does not show (apart from -s/-S, handled below). */
const FLAGS = new Set('fLIikgGjlnNqR046OJZ'.split('').map((c) => `-${c}`).concat(['--fail', '--fail-with-body', '--fail-early', '--location', '--location-trusted', '--head', '--include',
  '--insecure', '--globoff', '--get', '--junk-session-cookies', '--list-only', '--netrc', '--netrc-optional', '--no-buffer', '--disable', '--remote-time', '--ipv4', '--ipv6', '--http1.0',
  '--http1.1', '--http2', '--http2-prior-knowledge', '--http3', '--compressed', '--create-dirs', '--raw', '--tr-encoding', '--remote-name', '--remote-name-all', '--remote-header-name',
  '--no-keepalive', '--tcp-nodelay', '--tcp-fastopen', '--path-as-is', '--ssl', '--ssl-reqd', '--tlsv1.2', '--tlsv1.3', '--proto-default', '--styled-output', '--no-styled-output']));

const METER_HEAD = '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n';
const METER_ZERO = '  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0';
/** curl's progress meter of a transfer that never connected: the header, then the zero line drawn twice. */
const METER = `${METER_HEAD}\r${METER_ZERO}\r${METER_ZERO}\n`;

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|0\.0\.0\.0|\[::1\])$/i;

const refuse = (why: string): ExecResult => ({ stdout: '', stderr: `curl: ${why} is not available in the shell engine; ${SANDBOX_HINT}\n`, exitCode: 2 });

/** A URL's host (without brackets) and port, curl's way: no scheme is http, the scheme's default port. */
function target(url: string): { host: string; port: number } | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    return undefined;
  }
  const defaults: Record<string, number> = { 'http:': 80, 'https:': 443, 'ftp:': 21 };
  const port = u.port ? Number(u.port) : defaults[u.protocol];
  if (port === undefined) return undefined;
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port };
}

/** `-w` text for a refused transfer: `%{http_code}`, `%{response_code}` (000), `%{exitcode}`, `%{url}`, escapes. */
function writeOut(format: string, url: string, message: string): string | undefined {
  let unknown = false;
  const text = format
    .replace(/%\{([a-z_]+)\}/g, (_, name: string) => {
      const v = ({ http_code: '000', response_code: '000', exitcode: '7', url, url_effective: url, errormsg: message, num_connects: '0', size_download: '0', size_upload: '0' } as Record<string, string>)[name];
      if (v === undefined) unknown = true;
      return v ?? '';
    })
    .replace(/\\([nrt\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', '\\': '\\' })[c]!);
  return unknown ? undefined : text;
}

async function curl(args: string[]): Promise<ExecResult> {
  const urls: string[] = [];
  let silent = false;
  let showError = false;
  let meter = true;
  let format: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') {
      urls.push(a);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (name === '--url') urls.push(eq > 0 ? a.slice(eq + 1) : args[++i] ?? '');
    else if (name === '--silent') silent = true;
    else if (name === '--show-error') showError = true;
    else if (name === '--no-progress-meter') meter = false;
    else if (name === '--write-out' || name === '-w') format = eq > 0 ? a.slice(eq + 1) : args[++i];
    else if (VALUED.has(name)) {
      if (eq < 0) i++;
    } else if (FLAGS.has(name)) continue;
    else if (!a.startsWith('--')) {
      // A cluster of short flags (`-fsSL`), its last letter possibly taking a value (`-sSo out`).
      for (let k = 1; k < a.length; k++) {
        const flag = `-${a[k]}`;
        if (flag === '-s') silent = true;
        else if (flag === '-S') showError = true;
        else if (VALUED.has(flag)) {
          const value = k + 1 < a.length ? a.slice(k + 1) : args[++i];
          if (flag === '-w') format = value;
          break;
        } else if (!FLAGS.has(flag)) return refuse(`option ${flag}`);
      }
    } else return refuse(`option ${name}`);
  }
  if (urls.length === 0) return { stdout: '', stderr: "curl: try 'curl --help' or 'curl --manual' for more information\n", exitCode: 2 };
  let stdout = '';
  let stderr = '';
  for (const url of urls) {
    const t = target(url);
    if (!t) return refuse(`the URL ${url}`);
    if (!LOOPBACK.test(t.host)) return refuse(`network access to ${t.host}`);
    const message = `Failed to connect to ${t.host} port ${t.port} after 0 ms: Couldn't connect to server`;
    if (format !== undefined) {
      const out = writeOut(format, url, message);
      if (out === undefined) return refuse(`-w ${format}`);
      stdout += out;
    }
    if (!silent && meter) stderr += METER;
    if (!silent || showError) stderr += `curl: (7) ${message}\n`;
  }
  return { stdout, stderr, exitCode: 7 };
}

/** `curl` for the shell engine's loopback (see the module's comment). */
export function curlCommand(): CustomCommand {
  return defineCommand('curl', curl);
}
