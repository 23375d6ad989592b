/**
 * A user's test process for test/integration/lifecycle/testing-helper-cleanup.test.ts: starts `spritzer-emulator/testing` on
 * CHILD_ENGINE, starts a service (`sleep 300`) so the engine has processes of its own, prints
 * {pid, baseUrl}, waits for a line on stdin (so the test can look at it running), then ends as CHILD_MODE says: pass (stop(), exit 0), fail (a thrown error, stop() in finally,
 * exit 1) or hang (until a signal).
 */
import { startSpritzer } from '../../src/testing/index.ts';
import type { MachineEngine } from '../../src/server/machines/index.ts';

const spritzer = await startSpritzer({ engine: (process.env.CHILD_ENGINE ?? 'shell') as MachineEngine });
const auth = { Authorization: `Bearer ${spritzer.token}`, 'Content-Type': 'application/json' };
await fetch(`${spritzer.baseUrl}/v1/sprites`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'cleanup' }) });
const svc = await fetch(`${spritzer.baseUrl}/v1/sprites/cleanup/services/sleeper?duration=0`, {
  method: 'PUT', headers: auth, body: JSON.stringify({ cmd: 'sleep', args: ['300'] }),
});
if (svc.status !== 200) throw new Error(`service: ${svc.status} ${await svc.text()}`);
await svc.text();
process.stdout.write(`${JSON.stringify({ pid: process.pid, baseUrl: spritzer.baseUrl })}\n`);
const mode = process.env.CHILD_MODE ?? 'pass';
if (mode === 'hang') {
  setInterval(() => {}, 1 << 30);
} else {
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.destroy();
  try {
    if (mode === 'fail') throw new Error('this test fails on purpose');
  } finally {
    await spritzer.stop();
  }
}
