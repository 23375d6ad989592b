import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';
import { runShell } from '../../../../../test/support/shell-run.ts';

// curl on the shell engine, where nothing listens on the loopback: each command line compared with the host's own
// curl against a loopback port nothing listens on (the refused connection, its message, meter, -w and status).

describe('curl to a loopback port nothing listens on, as curl reports it', () => {
  it.each([
    'curl http://127.0.0.1:1/; echo "s=$?"',
    'curl -s http://localhost:1/x; echo "s=$?"',
    'curl -sS http://localhost:1/x; echo "s=$?"',
    "curl -s -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:1; echo \"s=$?\"",
    'curl -fsSL --max-time 2 --retry 2 http://127.0.0.1:1/health -o /dev/null; echo "s=$?"',
    'curl -fsSL http://127.0.0.1:1/ -o /dev/null 2>/dev/null; echo $?',
    'curl -I http://[::1]:1/; echo "s=$?"',
    'curl -X POST -H "Content-Type: application/json" -d \'{"a":1}\' http://0.0.0.0:1/api; echo "s=$?"',
    'curl --no-progress-meter 127.0.0.1:1; echo "s=$?"',
    'curl; echo "s=$?"',
  ])('%s', async (script) => {
    // The host's connect attempt takes a millisecond now and then; the engine's never does.
    const timeless = (o: { stderr: string }) => ({ ...o, stderr: o.stderr.replace(/after \d+ ms/g, 'after 0 ms') });
    expect(timeless(await engineBash(script))).toEqual(timeless(hostBash(script)));
  });

  it('refuses, naming --exec sandbox, what needs a network or an option it does not show', async () => {
    const hint = 'is not available in the shell engine; run spritzer with --exec sandbox';
    expect(await runShell('curl -s https://example.com/; echo "s=$?"; curl -v http://127.0.0.1:1/; echo "s=$?"')).toEqual({
      stdout: 's=2\ns=2\n',
      stderr: `curl: network access to example.com ${hint}\ncurl: option -v ${hint}\n`,
      exit: 0,
    });
  });
});
