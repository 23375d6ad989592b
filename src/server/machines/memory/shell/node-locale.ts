/**
 * Node's English (en-US) number and date texts, and its string collation, for `node -e`/`node FILE` code in the shell engine, where js-exec's
 * QuickJS has no Intl: `(1234567.891).toLocaleString()` gave `1234567.891` (node: `1,234,567.891`),
 * `new Date(0).toLocaleDateString()` `01/01/1970` (node: `1/1/1970`), and `String(date)` lacked the zone's name.
 * Given as JavaScript source for js-exec's bootstrap (the engine's `jsBootstrapCode`, run before the intrinsics are
 * frozen: patches/just-bash/js-exec-bootstrap-before-freeze.mjs): a locale other than English or an option this does
 * not format is refused loudly through the node prelude's refusal (node-prelude.ts), never guessed.
 * Numbers are rounded as ICU rounds them: the shortest decimal form of the double, half away from zero
 * (`(1.005).toLocaleString('en-US', { maximumFractionDigits: 2 })` is `1.01`).
 * @see https://tc39.es/ecma402/#sec-number.prototype.tolocalestring, https://nodejs.org/api/intl.html (node's full ICU)
 */
export const NODE_LOCALE = String.raw`(() => {
const refuse = (what) => { if (typeof globalThis.__spzRefuse === 'function') globalThis.__spzRefuse(what); throw new Error(what + ' is not available'); };
const englishLocale = (locales) => { const l = Array.isArray(locales) ? locales[0] : locales; if (l !== undefined && !/^en(-US)?$/i.test(String(l))) refuse('toLocaleString for the locale ' + String(l) + ' (Intl)'); };
const plainDecimal = (x) => {
  const s = String(x);
  if (s.indexOf('e') < 0) return s;
  const [m, e] = s.split('e');
  const [ip, fp = ''] = m.split('.');
  const digits = ip + fp, point = ip.length + Number(e);
  if (point <= 0) return '0.' + '0'.repeat(-point) + digits;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return digits.slice(0, point) + '.' + digits.slice(point);
};
const shiftPoint = (s, places) => { const [ip, fp = ''] = s.split('.'); const f = fp + '0'.repeat(places); return (ip + f.slice(0, places)).replace(/^0+(?=[0-9])/, '') + (f.length > places ? '.' + f.slice(places) : ''); };
const roundDecimal = (s, maxFrac, minFrac) => {
  let [ip, fp = ''] = s.split('.');
  if (fp.length > maxFrac) {
    const digits = (ip + fp.slice(0, maxFrac)).split('').map(Number);
    if (fp.charCodeAt(maxFrac) >= 53) { let i = digits.length - 1; for (; i >= 0 && digits[i] === 9; i--) digits[i] = 0; if (i < 0) digits.unshift(1); else digits[i] += 1; }
    const all = digits.join('');
    ip = all.slice(0, all.length - maxFrac) || '0';
    fp = all.slice(all.length - maxFrac);
  }
  fp = fp.replace(/0+$/, '');
  while (fp.length < minFrac) fp += '0';
  return [ip.replace(/^0+(?=[0-9])/, ''), fp];
};
const grouped = (ip) => { let out = ''; for (let i = 0; i < ip.length; i++) out += (i > 0 && (ip.length - i) % 3 === 0 ? ',' : '') + ip[i]; return out; };
const NUMBER_OPTIONS = ['style', 'currency', 'minimumFractionDigits', 'maximumFractionDigits', 'useGrouping'];
Number.prototype.toLocaleString = function (locales, options) {
  englishLocale(locales);
  const o = options || {};
  for (const k of Object.keys(o)) if (!NUMBER_OPTIONS.includes(k)) refuse('toLocaleString with the option ' + k + ' (Intl)');
  const style = o.style || 'decimal';
  if (!['decimal', 'percent', 'currency'].includes(style) || (style === 'currency' && String(o.currency).toUpperCase() !== 'USD')) refuse('toLocaleString with style ' + style + (o.currency ? ' ' + o.currency : '') + ' (Intl)');
  const x = Number(this);
  if (Number.isNaN(x)) return 'NaN';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (!Number.isFinite(x)) return sign + '∞';
  const min = o.minimumFractionDigits ?? (style === 'currency' ? 2 : 0);
  const max = Math.max(min, o.maximumFractionDigits ?? (style === 'currency' ? 2 : style === 'percent' ? 0 : 3));
  const [ip, fp] = roundDecimal(shiftPoint(plainDecimal(Math.abs(x)), style === 'percent' ? 2 : 0), max, min);
  return sign + (style === 'currency' ? '$' : '') + (o.useGrouping === false ? ip : grouped(ip)) + (fp ? '.' + fp : '') + (style === 'percent' ? '%' : '');
};
if (typeof BigInt === 'function') BigInt.prototype.toLocaleString = function (locales, options) { englishLocale(locales); if (options && Object.keys(options).length) refuse('BigInt toLocaleString with options (Intl)'); const s = this.toString(); return s[0] === '-' ? '-' + grouped(s.slice(1)) : grouped(s); };
// String comparison as ICU's root collation orders English text: spaces, then punctuation, symbols, digits, letters
// (primary: letters without case or accents); then accents; then case, lower before upper. The numeric option
// compares runs of digits by value; sensitivity stops at the level it names.
const collationUnits = (s, numeric) => {
  const units = [], chars = [...String(s).normalize('NFD')];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (/\p{M}/u.test(c)) { if (units.length) units[units.length - 1].accents += c; continue; }
    if (numeric && /[0-9]/.test(c)) { let j = i; while (j + 1 < chars.length && /[0-9]/.test(chars[j + 1])) j++; units.push({ cls: 3, value: chars.slice(i, j + 1).join('').replace(/^0+(?=.)/, ''), number: true, accents: '', upper: false }); i = j; continue; }
    const lower = c.toLowerCase();
    units.push({ cls: /\s/.test(c) ? 0 : /[0-9]/.test(c) ? 3 : /\p{L}/u.test(c) ? 4 : /\p{P}/u.test(c) ? 1 : 2, value: lower, accents: '', upper: c !== lower });
  }
  return units;
};
const primaryOrder = (x, y) => (x.cls !== y.cls ? x.cls - y.cls : x.number && y.number && x.value.length !== y.value.length ? x.value.length - y.value.length : x.value < y.value ? -1 : x.value > y.value ? 1 : 0);
const COLLATOR_OPTIONS = ['numeric', 'sensitivity', 'usage'];
String.prototype.localeCompare = function (that, locales, options) {
  englishLocale(locales);
  const o = options || {};
  for (const k of Object.keys(o)) if (!COLLATOR_OPTIONS.includes(k)) refuse('localeCompare with the option ' + k + ' (Intl)');
  const sensitivity = o.sensitivity || 'variant';
  const a = collationUnits(String(this), o.numeric === true), b = collationUnits(String(that), o.numeric === true);
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) { const d = primaryOrder(a[i], b[i]); if (d) return Math.sign(d); }
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  if (sensitivity === 'accent' || sensitivity === 'variant') for (let i = 0; i < n; i++) if (a[i].accents !== b[i].accents) return a[i].accents < b[i].accents ? -1 : 1;
  if (sensitivity === 'case' || sensitivity === 'variant') for (let i = 0; i < n; i++) if (a[i].upper !== b[i].upper) return a[i].upper ? 1 : -1;
  return 0;
};
const dateOptions = (options) => { for (const k of Object.keys(options || {})) if (!(k === 'timeZone' && /^(UTC|Etc\/UTC|GMT)$/i.test(String(options.timeZone)))) refuse('toLocaleString of a date with the option ' + k + ' (Intl)'); };
const realDateString = Date.prototype.toString, realTimeString = Date.prototype.toTimeString;
const two = (n) => String(n).padStart(2, '0');
const englishTime = (d) => (d.getHours() % 12 || 12) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds()) + ' ' + (d.getHours() < 12 ? 'AM' : 'PM');
const zoneName = (d) => (d.getTimezoneOffset() === 0 ? ' (Coordinated Universal Time)' : '');
Date.prototype.toString = function () { const s = realDateString.call(this); return s === 'Invalid Date' ? s : s + zoneName(this); };
Date.prototype.toTimeString = function () { const s = realTimeString.call(this); return s === 'Invalid Date' ? s : s + zoneName(this); };
Date.prototype.toLocaleDateString = function (locales, options) { englishLocale(locales); dateOptions(options); return Number.isNaN(this.getTime()) ? 'Invalid Date' : (this.getMonth() + 1) + '/' + this.getDate() + '/' + this.getFullYear(); };
Date.prototype.toLocaleTimeString = function (locales, options) { englishLocale(locales); dateOptions(options); return Number.isNaN(this.getTime()) ? 'Invalid Date' : englishTime(this); };
Date.prototype.toLocaleString = function (locales, options) { englishLocale(locales); dateOptions(options); return Number.isNaN(this.getTime()) ? 'Invalid Date' : this.toLocaleDateString() + ', ' + englishTime(this); };
})();
`;
