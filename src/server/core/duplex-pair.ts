/**
 * Two connected in-memory Duplexes: what one writes, the other reads; ending one ends the other's readable side,
 * destroying one destroys the other after what was written before. Used where a connection never leaves the
 * process (the in-sprite API of the in-memory engines, tests of the egress gate).
 */
import { Duplex, PassThrough } from 'node:stream';

/** A connected pair `[a, b]`. */
export function duplexPair(): [Duplex, Duplex] {
  const aToB = new PassThrough();
  const bToA = new PassThrough();
  const mk = (write: PassThrough) =>
    new Duplex({
      read() {
        /* data is pushed by the listeners below */
      },
      write(chunk, _e, cb) {
        write.write(chunk, cb);
      },
      final(cb) {
        write.end();
        cb();
      },
      destroy(err, cb) {
        // A destroyed end tells the other one (as a relay's RESET does), after what was written before it.
        write.end(() => write.emit('cut'));
        cb(err);
      },
    });
  const a = mk(aToB);
  const b = mk(bToA);
  bToA.on('data', (d) => a.push(d)).on('end', () => a.push(null)).on('cut', () => a.destroy());
  aToB.on('data', (d) => b.push(d)).on('end', () => b.push(null)).on('cut', () => b.destroy());
  return [a, b];
}
