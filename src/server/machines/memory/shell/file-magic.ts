/**
 * What `file` says a file's bytes are, as libmagic 5.44 words it for the kinds agents meet: text (ASCII, UTF-8 with
 * or without BOM, ISO-8859; line terminators, very long lines, escape sequences), scripts by their `#!` line, XML,
 * HTML, JSON, C source; images (PNG with its size and colour type, GIF, JPEG/JFIF), PDF, archives and compressed data
 * (gzip with its header's name and time, bzip2, xz, zstd, zip, tar); `data` for anything else. Each answer comes with
 * its MIME type and encoding for `-i`.
 * @see file(1), libmagic's magic/Magdir (archive, compress, images, pdf, sgml, json, commands)
 */

/** A description and the MIME type and encoding `-i` prints. */
export interface Magic { description: string; mime: string; encoding: string }

const ascii = (b: Uint8Array) => b.every((c) => (c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c || c === 0x1b || c === 0x08);
const str = (b: Uint8Array, from: number, to: number) => Buffer.from(b.subarray(from, to)).toString('latin1');
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const u16le = (b: Uint8Array, at: number) => b[at]! + (b[at + 1]! << 8);

/** Whether `b` is valid UTF-8 (any code point). */
function isUtf8(b: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

/** PNG colour types as libmagic's png rule words them, with the separator it prints before each. */
const PNG_COLOUR: Record<number, string> = { 0: ' grayscale,', 2: '/color RGB,', 3: ' colormap,', 4: ' gray+alpha,', 6: '/color RGBA,' };
const PNG_INTERLACE: Record<number, string> = { 0: ' non-interlaced', 1: ' interlaced' };

/**
 * Whether a Zip local file header is followed as libmagic wants it: by another header or the central directory right
 * after its entry's data, or by the end-of-central-directory record in the last 22 bytes.
 */
function zipFollows(b: Uint8Array): boolean {
  if (b.length >= 22 && str(b, b.length - 22, b.length - 18) === 'PK\x05\x06') return true;
  if (b.length < 30) return false;
  const next = 30 + u16le(b, 26) + u16le(b, 28) + (u16le(b, 18) + u16le(b, 20) * 65536);
  return ['PK\x01\x02', 'PK\x03\x04'].includes(str(b, next, next + 4));
}

/** The binary formats, tried in order on the first bytes. */
function binary(b: Uint8Array): Magic | undefined {
  const head = str(b, 0, 16);
  // libmagic's rule needs the IHDR chunk header after the signature; bytes past the end of the file read as 0.
  if (head === '\x89PNG\r\n\x1a\n\0\0\0\rIHDR') {
    const at = (i: number) => b[i] ?? 0;
    const int32 = (i: number) => (at(i) << 24) | (at(i + 1) << 16) | (at(i + 2) << 8) | at(i + 3);
    const description = `PNG image data, ${int32(16)} x ${int32(20)}, ${at(24)}-bit${PNG_COLOUR[at(25)] ?? ''}${PNG_INTERLACE[at(28)] ?? ''}`;
    return { description, mime: 'image/png', encoding: 'binary' };
  }
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) {
    // libmagic prints each dimension only when it is there and not 0.
    const w = b.length >= 8 ? u16le(b, 6) : 0;
    const h = b.length >= 10 ? u16le(b, 8) : 0;
    return { description: `GIF image data, version ${head.slice(3, 6)},${w > 0 ? ` ${w} x` : ''}${h > 0 ? ` ${h}` : ''}`, mime: 'image/gif', encoding: 'binary' };
  }
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    const jfif = str(b, 6, 11) === 'JFIF\0' ? `, JFIF standard ${b[11]}.${String(b[12]).padStart(2, '0')}` : '';
    return { description: `JPEG image data${jfif}`, mime: 'image/jpeg', encoding: 'binary' };
  }
  if (head.startsWith('%PDF-')) return { description: `PDF document, version ${/^%PDF-(\d+\.\d+)/.exec(str(b, 0, 16))?.[1] ?? ''}`, mime: 'application/pdf', encoding: 'binary' };
  if (b[0] === 0x1f && b[1] === 0x8b) return gzip(b);
  if (head.startsWith('BZh') && b[3]! >= 0x31 && b[3]! <= 0x39) return { description: `bzip2 compressed data, block size = ${b[3]! - 0x30}00k`, mime: 'application/x-bzip2', encoding: 'binary' };
  if (head.startsWith('\xfd7zXZ\0')) {
    const check: Record<number, string> = { 0: 'none', 1: 'CRC32', 4: 'CRC64', 10: 'SHA-256' };
    return { description: `XZ compressed data, checksum ${check[b[7]! & 0x0f] ?? 'unknown'}`, mime: 'application/x-xz', encoding: 'binary' };
  }
  if (head.startsWith('\x28\xb5\x2f\xfd')) return { description: 'Zstandard compressed data (v0.8+), Dictionary ID: None', mime: 'application/zstd', encoding: 'binary' };
  if (head.startsWith('PK\x03\x04') && zipFollows(b)) {
    const version = u16le(b, 4);
    const method = u16le(b, 8);
    const methodName = method === 0 ? 'store' : method === 8 ? 'deflate' : String(method);
    return { description: `Zip archive data, at least v${Math.floor(version / 10)}.${version % 10} to extract, compression method=${methodName}`, mime: 'application/zip', encoding: 'binary' };
  }
  if (b.length >= 512 && str(b, 257, 263) === 'ustar ' && str(b, 263, 265) === ' \0') return { description: 'POSIX tar archive (GNU)', mime: 'application/x-tar', encoding: 'binary' };
  if (b.length >= 512 && str(b, 257, 263) === 'ustar\0') return { description: 'POSIX tar archive', mime: 'application/x-tar', encoding: 'binary' };
  if (head.startsWith('SQLite format 3\0')) return { description: 'SQLite 3.x database', mime: 'application/vnd.sqlite3', encoding: 'binary' };
  if (head.startsWith('\x7fELF')) return { description: `ELF ${b[4] === 2 ? '64' : '32'}-bit ${b[5] === 1 ? 'LSB' : 'MSB'} ${['', 'relocatable', 'executable', 'shared object', 'core file'][u16le(b, 16)] ?? 'file'}`, mime: 'application/x-executable', encoding: 'binary' };
  return undefined;
}

/** gzip's header as libmagic reads it: the stored name, time, the OS and the size modulo 2^32 from the trailer. */
function gzip(b: Uint8Array): Magic {
  const flags = b[3]!;
  const mtime = u32be([b[7]!, b[6]!, b[5]!, b[4]!] as unknown as Uint8Array, 0);
  const parts = ['gzip compressed data'];
  if (flags & 0x08) {
    const end = b.indexOf(0, 10 + (flags & 0x04 ? 2 + u16le(b, 10) : 0));
    parts.push(`was "${str(b, 10 + (flags & 0x04 ? 2 + u16le(b, 10) : 0), end)}"`);
  }
  if (mtime) {
    const d = new Date(mtime * 1000);
    const day = d.toUTCString().slice(0, 3);
    const mon = d.toUTCString().slice(8, 11);
    parts.push(`last modified: ${day} ${mon} ${String(d.getUTCDate()).padStart(2)} ${d.toISOString().slice(11, 19)} ${d.getUTCFullYear()}`);
  }
  if (b[8] === 2) parts.push('max compression');
  else if (b[8] === 4) parts.push('max speed');
  if (b[9] === 3) parts.push('from Unix');
  if (b.length >= 18) parts.push(`original size modulo 2^32 ${u32be([b[b.length - 1]!, b[b.length - 2]!, b[b.length - 3]!, b[b.length - 4]!] as unknown as Uint8Array, 0)}`);
  return { description: parts.join(', '), mime: 'application/gzip', encoding: 'binary' };
}

/** The interpreter a `#!` line names, as libmagic's script descriptions word it. */
function script(first: string): { name: string; mime: string; nodeStyle?: boolean } | undefined {
  const m = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(first);
  if (!m) return undefined;
  const prog = (m[1]!.endsWith('/env') ? m[2] ?? '' : m[1]!).replace(/^.*\//, '');
  if (prog === 'sh') return { name: 'POSIX shell script', mime: 'text/x-shellscript' };
  if (prog === 'bash') return { name: 'Bourne-Again shell script', mime: 'text/x-shellscript' };
  if (prog === 'zsh') return { name: 'Paul Falstad\'s zsh script', mime: 'text/x-shellscript' };
  if (/^python[\d.]*$/.test(prog)) return { name: 'Python script', mime: 'text/x-script.python' };
  if (prog === 'node' || prog === 'nodejs') return { name: 'Node.js script', mime: 'application/javascript', nodeStyle: true };
  if (/^perl/.test(prog)) return { name: 'Perl script', mime: 'text/x-perl' };
  if (/^ruby/.test(prog)) return { name: 'Ruby script', mime: 'text/x-ruby' };
  return { name: `a ${m[1]}${m[2] ? ` ${m[2]}` : ''} script`, mime: 'text/plain' };
}

/** The text kinds libmagic recognises from content, before its plain `text`. */
function textKind(text: string): { name: string; mime: string } | undefined {
  const t = text.trimStart();
  if (/^<\?xml\s+version=["']1\.0/.test(t)) return { name: 'XML 1.0 document', mime: 'text/xml' };
  if (/^<!doctype html|^<html|^<head|^<body/i.test(t)) return { name: 'HTML document', mime: 'text/html' };
  if (/^[[{]/.test(t)) {
    try {
      JSON.parse(text);
      return { name: 'JSON text data', mime: 'application/json' };
    } catch {
      // not JSON: plain text
    }
  }
  if (/^#include\s*[<"]/m.test(text)) return { name: 'C source', mime: 'text/x-c' };
  const head = text.slice(0, 8192);
  if (JAVASCRIPT.some((re) => re.test(head))) return { name: 'JavaScript source', mime: 'application/javascript' };
  return undefined;
}

/** libmagic's JavaScript patterns (Magdir/javascript), tried on the first 8 KiB: ES modules, CommonJS, `"use strict"`. */
const JAVASCRIPT = [
  /^export (?:function|class|default|const|var|let|async) /m,
  /^(?:const|var|let).*=.*require\(/m,
  /^(?:import|export).* from /m,
  /module(?:\.|\[["'])exports.*=/,
  /^(?:import|export) ["']\.\//m,
  /\((?:async )?function[( ]/,
  /"use strict"|'use strict'/,
  /^require\(["']/m,
  /typeof.*[!=]==/,
];

/**
 * libmagic's CSV test (src/is_csv.c, run before its magic patterns): every line of the first ten holds the same
 * number of commas, at least one, outside double-quoted fields, over more than two lines.
 */
function isCsv(text: string): boolean {
  let fields = 0;
  let first = 0;
  let lines = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // A quoted field ends at a quote not followed by another ("" is an escaped quote).
      for (i++; i < text.length; i++) if (text[i] === '"' && text[++i] !== '"') break;
      i--;
    } else if (c === ',') fields++;
    else if (c === '\n') {
      if (++lines === 10) return first !== 0 && first === fields;
      if (first === 0) {
        if (fields === 0) return false;
        first = fields;
      } else if (first !== fields) return false;
      fields = 0;
    }
  }
  return first !== 0 && lines > 2;
}

/**
 * Python source without a `#!` line, as libmagic's python patterns find it in the first 8 KiB: a `def NAME(…):` line,
 * `from MODULE import`, `if __name__ ==`, or `def __init__(self`.
 */
const PYTHON = [/^[ \t]*def\s+[A-Za-z_]\w*\s*\([^\r\n]*\):(?:\n|(?![\s\S]))/m, /^from\s+[\w.]+\s+import\s/m, /^if\s+__name__\s*==/m, /def __init__\s*\(\s*self/];

/** What libmagic says of the bytes `b`. */
export function magic(b: Uint8Array): Magic {
  if (b.length === 0) return { description: 'empty', mime: 'inode/x-empty', encoding: 'binary' };
  const bin = binary(b);
  if (bin) return bin;
  const bom = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  const body = bom ? b.subarray(3) : b;
  const hasHigh = body.some((c) => c >= 0x80);
  const controls = body.some((c) => (c < 0x20 && ![0x09, 0x0a, 0x0d, 0x0c, 0x1b, 0x08].includes(c)) || c === 0x7f);
  let charset: 'ASCII' | 'UTF-8' | 'ISO-8859' | undefined;
  // A UTF-8 byte-order mark makes the text UTF-8 even when the rest is ASCII.
  if (!controls) charset = !hasHigh && !bom && ascii(body) ? 'ASCII' : isUtf8(body) ? 'UTF-8' : body.every((c) => c < 0x80 || c >= 0xa0) ? 'ISO-8859' : undefined;
  // One byte is too little for libmagic's tests, text or not.
  if (b.length === 1) return { description: 'very short file (no magic)', mime: 'application/octet-stream', encoding: 'binary' };
  if (!charset) return { description: 'data', mime: 'application/octet-stream', encoding: 'binary' };
  const text = Buffer.from(body).toString(charset === 'ISO-8859' ? 'latin1' : 'utf8');
  const textName = charset === 'ASCII' ? 'ASCII text' : charset === 'UTF-8' ? `Unicode text, UTF-8${bom ? ' (with BOM)' : ''} text` : 'ISO-8859 text';
  const encoding = charset === 'ASCII' ? 'us-ascii' : charset === 'UTF-8' ? 'utf-8' : 'iso-8859-1';
  const notes: string[] = [];
  const longest = Math.max(...text.split(/\r\n|\r|\n/).map((l) => l.length));
  if (longest > 300) notes.push(`with very long lines (${longest})`);
  if (text.includes('\r\n')) notes.push('with CRLF line terminators');
  else if (text.includes('\r') && !text.includes('\n')) notes.push('with CR line terminators');
  else if (!text.includes('\n')) notes.push('with no line terminators');
  if (text.includes('\x1b')) notes.push('with escape sequences');
  if (/.\x08./.test(text)) notes.push('with overstriking');
  const tail = notes.length ? `, ${notes.join(', ')}` : '';
  if (isCsv(text)) return { description: 'CSV text', mime: 'text/csv', encoding };
  const head = text.slice(0, 8192);
  const interp = script(text.split('\n', 1)[0]!) ?? (PYTHON.some((re) => re.test(head)) ? { name: 'Python script', mime: 'text/x-script.python' } : undefined);
  if (interp) {
    // libmagic words the Node.js entry differently: `Node.js script executable, ASCII text`.
    const description = interp.nodeStyle ? `${interp.name} executable, ${textName}${tail}` : `${interp.name}, ${textName} executable${tail}`;
    return { description, mime: interp.mime, encoding };
  }
  const kind = textKind(text);
  if (kind) return { description: kind.name === 'JSON text data' ? kind.name : `${kind.name}, ${textName}${tail}`, mime: kind.mime, encoding };
  return { description: `${textName}${tail}`, mime: 'text/plain', encoding };
}
