/**
 * Which promises a `node -e`/`node FILE` program rejected and never handled, for node's unhandled-rejection error
 * (node-prelude.ts reports the first one after the microtasks of a turn, as node's default `--unhandled-rejections=throw`
 * does: the error on stderr, status 1). QuickJS offers no host rejection tracker, so this is JavaScript given as
 * js-exec's bootstrap (run before the intrinsics are frozen: patches/just-bash/js-exec-bootstrap-before-freeze.mjs):
 * the global `Promise` becomes a constructor over the intrinsic one whose promises note their own rejection and whose
 * `then` (which `catch`, `finally`, `await`, `Promise.all`… call) marks them handled. Its promises carry their own
 * `constructor`, so that `await` goes through their `then` (ECMAScript PromiseResolve) instead of the engine's hidden
 * path; statics (`Promise.reject`, `resolve`, `all`, `race`, `allSettled`, `any`) build promises of it, and a `then`
 * of one makes another (its species).
 * What it does not see: a promise of an async function (the engine makes those with the intrinsic constructor) that
 * the program drops, unless it is the value of the program's last statement (`main()`; the prelude watches the
 * script's completion value); a promise resolved with a rejected one. Those end with status 0 and no message.
 * @deviation a program's own promises take node's three microtask steps per `await`, not one (V8's fast path for a
 * native promise): interleavings of concurrent async functions can differ.
 * Exposes `__spzUnhandled()` (the reason of one rejected, still unhandled promise as `{ reason }`, or undefined) and
 * `__spzIsPromise(v)`.
 * @see https://nodejs.org/api/cli.html#--unhandled-rejectionsmode, https://tc39.es/ecma262/#sec-promise-resolve
 */
export const NODE_PROMISES = String.raw`(() => {
const g = globalThis, Intrinsic = g.Promise, intrinsicThen = Intrinsic.prototype.then;
const unhandled = new Set(), reasons = new WeakMap(), handled = new WeakSet();
const note = (p, reason) => { if (!handled.has(p)) { unhandled.add(p); reasons.set(p, reason); } };
function Promise(executor) {
  if (new.target === undefined) throw new TypeError("Promise constructor cannot be invoked without 'new'");
  if (typeof executor !== 'function') return Reflect.construct(Intrinsic, [executor], new.target);
  let p, settled = false, early;
  p = Reflect.construct(Intrinsic, [(resolve, reject) => {
    const res = (v) => { settled = true; resolve(v); };
    const rej = (e) => { if (!settled) { settled = true; if (p) note(p, e); else early = [e]; } reject(e); };
    try { executor(res, rej); } catch (e) { rej(e); }
  }], new.target);
  if (early) note(p, early[0]);
  return p;
}
Promise.prototype = Object.create(Intrinsic.prototype, {
  constructor: { value: Promise, writable: true, configurable: true },
  then: { value: function then(onFulfilled, onRejected) { handled.add(this); unhandled.delete(this); return intrinsicThen.call(this, onFulfilled, onRejected); }, writable: true, configurable: true },
});
Object.setPrototypeOf(Promise, Intrinsic);
Object.defineProperty(Promise, Symbol.hasInstance, { value: (v) => v instanceof Intrinsic });
Object.defineProperty(g, 'Promise', { value: Promise, writable: true, configurable: true, enumerable: false });
Object.freeze(Intrinsic.prototype);
g.__spzUnhandled = () => { for (const p of unhandled) { unhandled.delete(p); return { reason: reasons.get(p) }; } return undefined; };
g.__spzIsPromise = (v) => v instanceof Intrinsic;
g.__spzWatch = (p, onRejected) => { intrinsicThen.call(p, undefined, onRejected); };
})();
`;
