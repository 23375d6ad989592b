/**
 * Handing a large output string of the `shell` engine to the output sinks in slices, with a turn of the event loop
 * between them, so that converting tens of MiB of a command's output (`cat` of a 60 MiB file) to bytes never holds
 * the loop in one synchronous pass. It owns the slicing only; the sinks (output-sink.ts) and the pacing toward the
 * client (exec/paced-output.ts) are elsewhere.
 * @see docs/limits.md (sizes bounded by structure)
 */
import { nextTurn } from '../../../runtime/event-loop.ts';

/** Characters converted per slice: 4 Mi (4 MiB of a byte string, at most 12 MiB of UTF-8). */
export const OUTPUT_SLICE_CHARS = 4 * 1024 * 1024;

/**
 * Delivers `text` to `deliver` as bytes: `latin1` (one byte per char, a just-bash byte string) or `utf8`. A string
 * of at most `sliceChars` characters is delivered at once, synchronously (small outputs keep their timing); a longer
 * one in consecutive slices of about `sliceChars` characters, each converted and delivered in its own turn of the
 * event loop. The bytes delivered, joined, equal `Buffer.from(text, encoding)`: a UTF-8 slice never ends between the
 * two halves of a surrogate pair. Resolves once the last slice was delivered.
 */
export async function deliverSliced(
  text: string,
  encoding: 'latin1' | 'utf8',
  deliver: (data: Uint8Array) => void,
  sliceChars = OUTPUT_SLICE_CHARS,
): Promise<void> {
  if (text.length <= sliceChars) {
    if (text.length > 0) deliver(Buffer.from(text, encoding));
    return;
  }
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + sliceChars);
    if (encoding === 'utf8' && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    deliver(Buffer.from(text.slice(start, end), encoding));
    start = end;
    if (start < text.length) await nextTurn();
  }
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
