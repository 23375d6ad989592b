/**
 * A terminal line discipline in canonical mode, as the kernel's `n_tty` gives an interactive shell: typed bytes are
 * echoed and collected into a line, Enter submits it, Backspace erases the last character, ^U the whole line, ^C
 * interrupts and ^D on an empty line is end of input. It owns only the byte handling; what runs a line is the
 * caller's (machines/memory/shell/tty.ts).
 * @see https://man7.org/linux/man-pages/man3/termios.3.html (ICANON, ECHO, ECHOE, ISIG)
 */

/** What the discipline asks of its owner. */
export interface LineEvents {
  /** Bytes to show on the terminal (the echo). */
  echo(bytes: Uint8Array): void;
  /** A complete line, without its line end, as the bytes typed (UTF-8 expected). */
  line(bytes: Uint8Array): void;
  /** ^C (0x03): the current line is dropped; the owner interrupts whatever runs. */
  interrupt(): void;
  /** ^D (0x04) on an empty line: end of input. */
  eof(): void;
}

const CR = 0x0d;
const LF = 0x0a;
const ETX = 0x03; // ^C
const EOT = 0x04; // ^D
const BS = 0x08;
const NAK = 0x15; // ^U
const ESC = 0x1b;
const DEL = 0x7f;

const bytes = (s: string) => Buffer.from(s, 'latin1');
const ERASE = bytes('\b \b');
const NEWLINE = bytes('\r\n');

/**
 * Canonical-mode input processing. `feed` takes raw terminal input in any chunking. Handled: printable bytes and
 * UTF-8 (echoed, collected), CR, LF or CR LF (submit), BS/DEL (erase one character, UTF-8 aware), ^U (erase the
 * line), ^C (echo `^C`, drop the line, `interrupt`), ^D on an empty line (`eof`). Escape sequences (arrow keys,
 * function keys) and other control bytes are swallowed.
 * @deviation No history, cursor movement, tab completion or `stty` modes (raw mode, `-echo`).
 */
export class LineDiscipline {
  private buf: number[] = [];
  private afterCr = false;
  /** 0: none, 1: after ESC, 2: inside a CSI/SS3 sequence. */
  private escape = 0;

  constructor(private readonly events: LineEvents) {}

  /** Processes typed bytes. */
  feed(data: Uint8Array): void {
    for (const b of data) this.byte(b);
  }

  private byte(b: number): void {
    const afterCr = this.afterCr;
    this.afterCr = false;
    if (this.escape === 1) {
      this.escape = b === 0x5b /* [ */ || b === 0x4f /* O */ ? 2 : 0;
      return;
    }
    if (this.escape === 2) {
      if (b >= 0x40 && b <= 0x7e) this.escape = 0;
      return;
    }
    switch (b) {
      case CR:
        this.afterCr = true;
        this.submit();
        return;
      case LF:
        if (!afterCr) this.submit();
        return;
      case BS:
      case DEL:
        this.erase();
        return;
      case NAK:
        while (this.buf.length > 0) this.erase();
        return;
      case ETX:
        this.buf = [];
        this.events.echo(bytes('^C\r\n'));
        this.events.interrupt();
        return;
      case EOT:
        if (this.buf.length === 0) this.events.eof();
        return;
      case ESC:
        this.escape = 1;
        return;
    }
    if (b < 0x20) return;
    this.buf.push(b);
    this.events.echo(Uint8Array.of(b));
  }

  /** Erases the last character: one byte, or a whole UTF-8 sequence (continuation bytes are 10xxxxxx). */
  private erase(): void {
    if (this.buf.length === 0) return;
    while (this.buf.length > 0 && (this.buf.pop()! & 0xc0) === 0x80);
    this.events.echo(ERASE);
  }

  private submit(): void {
    const line = Uint8Array.from(this.buf);
    this.buf = [];
    this.events.echo(NEWLINE);
    this.events.line(line);
  }
}
