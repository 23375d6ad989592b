/**
 * Listening TCP ports as the agent sees them: parsed from `/proc/net/tcp` and `/proc/net/tcp6` (state 0A, LISTEN)
 * of the agent's network namespace, with the owning pid found by matching socket inodes in `/proc/<pid>/fd`.
 * It owns the parsing; it does not watch for changes (the host polls `ports` and diffs).
 * @see docs/wire-reference.md §6.2, https://www.kernel.org/doc/Documentation/networking/proc_net_tcp.txt
 */
import * as fsp from 'node:fs/promises';

/** A listening socket: `port`, bound `address` (`0.0.0.0`, `127.0.0.1`, `::`, …) and, when found, the `pid`. */
export interface PortJson {
  port: number;
  address: string;
  pid?: number;
}

const LISTEN = '0A';

/** Decodes a /proc/net/tcp address word list (hex, each 32-bit word in host = little-endian order) to text. */
export function decodeProcAddress(hex: string): string {
  const bytes: number[] = [];
  for (let w = 0; w < hex.length; w += 8) {
    const word = hex.slice(w, w + 8);
    for (let b = 6; b >= 0; b -= 2) bytes.push(parseInt(word.slice(b, b + 2), 16));
  }
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  // The WHATWG URL parser canonicalises IPv6 text (RFC 5952 compression).
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

/**
 * Parses the text of /proc/net/tcp or tcp6: the LISTEN rows as `{port, address, inode}`. Malformed rows are
 * skipped only when they are the header line; any other row that does not parse throws (never silently dropped).
 */
export function parseProcNetTcp(text: string): Array<{ port: number; address: string; inode: number }> {
  const out: Array<{ port: number; address: string; inode: number }> = [];
  const lines = text.split('\n').slice(1);
  for (const line of lines) {
    const f = line.trim().split(/\s+/);
    if (f.length === 1 && f[0] === '') continue;
    if (f.length < 10) throw new Error(`unexpected /proc/net/tcp row: ${line}`);
    if (f[3] !== LISTEN) continue;
    const [addr, port] = f[1]!.split(':');
    out.push({ address: decodeProcAddress(addr!), port: parseInt(port!, 16), inode: Number(f[9]) });
  }
  return out;
}

/** Maps socket inodes to the pid holding them, scanning `<proc>/<pid>/fd` (unreadable pids are skipped). */
async function socketOwners(proc: string, inodes: Set<number>): Promise<Map<number, number>> {
  const owners = new Map<number, number>();
  if (inodes.size === 0) return owners;
  const pids = (await fsp.readdir(proc)).filter((n) => /^\d+$/.test(n));
  await Promise.all(
    pids.map(async (pid) => {
      let fds: string[];
      try {
        fds = await fsp.readdir(`${proc}/${pid}/fd`);
      } catch {
        return;
      }
      for (const fd of fds) {
        const link = await fsp.readlink(`${proc}/${pid}/fd/${fd}`).catch(() => '');
        const m = /^socket:\[(\d+)\]$/.exec(link);
        if (m && inodes.has(Number(m[1])) && !owners.has(Number(m[1]))) owners.set(Number(m[1]), Number(pid));
      }
    }),
  );
  return owners;
}

/** The listening TCP ports of the agent's network namespace, sorted by port then address. */
export async function listeningPorts(proc = '/proc'): Promise<PortJson[]> {
  const rows: Array<{ port: number; address: string; inode: number }> = [];
  for (const file of ['tcp', 'tcp6']) {
    const text = await fsp.readFile(`${proc}/net/${file}`, 'utf8').catch(() => '');
    rows.push(...parseProcNetTcp(text));
  }
  const owners = await socketOwners(proc, new Set(rows.map((r) => r.inode).filter((i) => i > 0)));
  return rows
    .map((r) => {
      const pid = owners.get(r.inode);
      return pid === undefined ? { port: r.port, address: r.address } : { port: r.port, address: r.address, pid };
    })
    .sort((a, b) => a.port - b.port || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}
