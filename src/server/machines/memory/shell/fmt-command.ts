/**
 * `fmt` as GNU coreutils 9.1 runs it: paragraphs (runs of lines with the same indent and prefix) refilled to
 * `-w WIDTH` (default 75; also the obsolete first-argument `-WIDTH`) around a goal of 93% of it (`-g`), with GNU's
 * "optimal" line breaking: each paragraph's breaks minimise a cost over the whole paragraph (the square of each
 * line's distance from the goal, raggedness between neighbouring lines, bonuses for breaking at sentence ends and
 * punctuation, costs for widows and orphans), as fmt.c's fmt_paragraph computes it. `-c`, `-t`, `-s`, `-u`,
 * `-p PREFIX`; tabs in the input allow tabs in the output. Bytes, not characters: GNU 9.1's fmt counts bytes.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/fmt-invocation.html
 */
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { localeQuote } from './gnu-quote.ts';
import { quoteName } from './ls-quote.ts';
import { EBADF, stdinIsClosed } from './closed-stdin.ts';

/** Costs are squares of an equivalent distance from the goal, in tenths of a column (fmt.c's EQUIV). */
const equiv = (n: number) => n * n;
const shortCost = (n: number) => equiv(n * 10);
const raggedCost = (n: number) => Math.trunc(shortCost(n) / 2);
const LINE_COST = equiv(70);
const widowCost = (n: number) => Math.trunc(equiv(200) / (n + 2));
const orphanCost = (n: number) => Math.trunc(equiv(150) / (n + 2));
const SENTENCE_BONUS = equiv(50);
const NOBREAK_COST = equiv(600);
const PAREN_BONUS = equiv(40);
const PUNCT_BONUS = equiv(40);
const LINE_CREDIT = equiv(3);
/** GNU's paragraph buffer: a longer paragraph is output in parts, split at a cheap break (flush_paragraph). */
const MAXWORDS = 1000;
const MAXCHARS = 5000;
const TABWIDTH = 8;
const DEF_INDENT = 3;
const EOF = -1;

interface Options {
  width: number;
  goal: number;
  crown: boolean;
  tagged: boolean;
  split: boolean;
  uniform: boolean;
  prefix: string;
  prefixLeadSpace: number;
  prefixFullLength: number;
}

interface Word {
  text: string;
  length: number;
  space: number;
  paren: boolean;
  period: boolean;
  punct: boolean;
  final: boolean;
  lineLength: number;
  bestCost: number;
  nextBreak: number;
}

const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
const PUNCT = /[!-/:-@[-`{-~]/;

/** One input's formatting (fmt.c's fmt with its globals): reads bytes, writes the refilled text. */
class Formatter {
  private pos = 0;
  private out = '';
  private inColumn = 0;
  private outColumn = 0;
  private tabs = false;
  private prefixIndent = 0;
  private firstIndent = 0;
  private otherIndent = 0;
  private nextChar = EOF;
  private nextPrefixIndent = 0;
  private lastLineLength = 0;
  private words: Word[] = [];
  private chars = 0;

  constructor(
    private readonly o: Options,
    private readonly input: string,
  ) {}

  private getc(): number {
    return this.pos < this.input.length ? this.input.charCodeAt(this.pos++) : EOF;
  }

  run(): string {
    this.nextChar = this.getPrefix();
    while (this.getParagraph()) {
      this.fmtParagraph();
      this.putParagraph(this.words.length);
    }
    return this.out;
  }

  private setOtherIndent(same: boolean): void {
    const o = this.o;
    if (o.split) this.otherIndent = this.firstIndent;
    else if (o.crown) this.otherIndent = same ? this.inColumn : this.firstIndent;
    else if (o.tagged) {
      if (same && this.inColumn !== this.firstIndent) this.otherIndent = this.inColumn;
      else if (this.otherIndent === this.firstIndent) this.otherIndent = this.firstIndent === 0 ? DEF_INDENT : 0;
    } else this.otherIndent = this.firstIndent;
  }

  private sameParagraph(c: number): boolean {
    return this.nextPrefixIndent === this.prefixIndent && this.inColumn >= this.nextPrefixIndent + this.o.prefixFullLength && c !== 10 && c !== EOF;
  }

  private getParagraph(): boolean {
    const o = this.o;
    this.lastLineLength = 0;
    let c = this.nextChar;
    // Blank lines, and lines without the prefix, are copied as they are.
    while (c === 10 || c === EOF || this.nextPrefixIndent < o.prefixLeadSpace || this.inColumn < this.nextPrefixIndent + o.prefixFullLength) {
      c = this.copyRest(c);
      if (c === EOF) {
        this.nextChar = EOF;
        return false;
      }
      this.out += '\n';
      c = this.getPrefix();
    }
    this.prefixIndent = this.nextPrefixIndent;
    this.firstIndent = this.inColumn;
    this.words = [];
    this.chars = 0;
    c = this.getLine(c);
    this.setOtherIndent(this.sameParagraph(c));
    if (o.split) {
      // one line, one paragraph
    } else if (o.crown) {
      if (this.sameParagraph(c)) {
        do c = this.getLine(c);
        while (this.sameParagraph(c) && this.inColumn === this.otherIndent);
      }
    } else if (o.tagged) {
      if (this.sameParagraph(c) && this.inColumn !== this.firstIndent) {
        do c = this.getLine(c);
        while (this.sameParagraph(c) && this.inColumn === this.otherIndent);
      }
    } else {
      while (this.sameParagraph(c) && this.inColumn === this.otherIndent) c = this.getLine(c);
    }
    const last = this.words[this.words.length - 1]!;
    last.period = last.final = true;
    this.nextChar = c;
    return true;
  }

  private copyRest(c: number): number {
    const o = this.o;
    this.outColumn = 0;
    if (this.inColumn > this.nextPrefixIndent || (c !== 10 && c !== EOF)) {
      this.putSpace(this.nextPrefixIndent);
      for (let i = 0; this.outColumn !== this.inColumn && i < o.prefix.length; this.outColumn++) this.out += o.prefix[i++];
      if (c !== EOF && c !== 10) this.putSpace(this.inColumn - this.outColumn);
      if (c === EOF && this.inColumn >= this.nextPrefixIndent + o.prefix.length) this.out += '\n';
    }
    while (c !== 10 && c !== EOF) {
      this.out += String.fromCharCode(c);
      c = this.getc();
    }
    return c;
  }

  private getLine(c: number): number {
    do {
      let text = '';
      do {
        if (this.chars === MAXCHARS) {
          this.setOtherIndent(true);
          if (this.flushParagraph(text)) text = '';
        }
        text += String.fromCharCode(c);
        this.chars++;
        c = this.getc();
      } while (c !== EOF && !isSpace(c));
      this.inColumn += text.length;
      const w: Word = { text, length: text.length, space: 0, paren: false, period: false, punct: false, final: false, lineLength: 0, bestCost: 0, nextBreak: 0 };
      w.paren = "(['`\"".includes(text[0]!);
      w.punct = PUNCT.test(text[text.length - 1]!);
      let end = text.length - 1;
      while (end > 0 && ")]'\"".includes(text[end]!)) end--;
      w.period = '.?!'.includes(text[end]!);
      const start = this.inColumn;
      c = this.getSpace(c);
      w.space = this.inColumn - start;
      w.final = c === EOF || (w.period && (c === 10 || w.space > 1));
      if (c === 10 || c === EOF || this.o.uniform) w.space = w.final ? 2 : 1;
      if (this.words.length === MAXWORDS - 2) {
        this.setOtherIndent(true);
        this.flushParagraph(text);
      }
      this.words.push(w);
    } while (c !== 10 && c !== EOF);
    return this.getPrefix();
  }

  private getPrefix(): number {
    const o = this.o;
    this.inColumn = 0;
    let c = this.getSpace(this.getc());
    if (o.prefix.length === 0) this.nextPrefixIndent = Math.min(o.prefixLeadSpace, this.inColumn);
    else {
      this.nextPrefixIndent = this.inColumn;
      for (const p of o.prefix) {
        if (c !== p.charCodeAt(0)) return c;
        this.inColumn++;
        c = this.getc();
      }
      c = this.getSpace(c);
    }
    return c;
  }

  private getSpace(c: number): number {
    for (;;) {
      if (c === 32) this.inColumn++;
      else if (c === 9) {
        this.tabs = true;
        this.inColumn = (Math.floor(this.inColumn / TABWIDTH) + 1) * TABWIDTH;
      } else return c;
      c = this.getc();
    }
  }

  /**
   * A paragraph too long for GNU's buffer: formats what there is, outputs it up to a cheap break near its end, and
   * keeps the rest (and `partial`, the word being read) as the start of the paragraph. A paragraph of one word so
   * far is that word's text written out: returns true then.
   */
  private flushParagraph(partial: string): boolean {
    if (this.words.length === 0) {
      this.out += partial;
      this.chars = 0;
      return true;
    }
    this.fmtParagraph();
    let split = this.words.length;
    let best = Number.MAX_SAFE_INTEGER;
    const cost = (i: number) => (i === this.words.length ? 0 : this.words[i]!.bestCost);
    for (let w = this.words[0]!.nextBreak; w !== this.words.length; w = this.words[w]!.nextBreak) {
      const d = this.words[w]!.bestCost - cost(this.words[w]!.nextBreak);
      if (d < best) {
        split = w;
        best = d;
      }
      best += LINE_CREDIT;
    }
    this.putParagraph(split);
    this.words = this.words.slice(split);
    for (const w of this.words) w.nextBreak -= split;
    this.chars = this.words.reduce((n, w) => n + w.length, 0) + partial.length;
    return false;
  }

  private baseCost(i: number): number {
    const w = this.words;
    let cost = LINE_COST;
    if (i > 0) {
      const prev = w[i - 1]!;
      if (prev.period) cost += prev.final ? -SENTENCE_BONUS : NOBREAK_COST;
      else if (prev.punct) cost -= PUNCT_BONUS;
      else if (i > 1 && w[i - 2]!.final) cost += widowCost(prev.length);
    }
    if (w[i]!.paren) cost -= PAREN_BONUS;
    else if (w[i]!.final) cost += orphanCost(w[i]!.length);
    return cost;
  }

  private lineCost(next: number, len: number): number {
    const limit = this.words.length;
    if (next === limit) return 0;
    let cost = shortCost(this.o.goal - len);
    if (this.words[next]!.nextBreak !== limit) cost += raggedCost(len - this.words[next]!.lineLength);
    return cost;
  }

  /** The best breaks of every suffix of the paragraph, from the last word back (fmt.c's fmt_paragraph). */
  private fmtParagraph(): void {
    const w = this.words;
    const limit = w.length;
    const lengthOf = (i: number) => (i === limit ? this.o.width : w[i]!.length);
    const bestOf = (i: number) => (i === limit ? 0 : w[i]!.bestCost);
    for (let start = limit - 1; start >= 0; start--) {
      let best = Number.MAX_SAFE_INTEGER;
      let len = (start === 0 ? this.firstIndent : this.otherIndent) + w[start]!.length;
      let i = start;
      do {
        i++;
        let cost = this.lineCost(i, len) + bestOf(i);
        if (start === 0 && this.lastLineLength > 0) cost += raggedCost(len - this.lastLineLength);
        if (cost < best) {
          best = cost;
          w[start]!.nextBreak = i;
          w[start]!.lineLength = len;
        }
        if (i === limit) break;
        len += w[i - 1]!.space + lengthOf(i);
      } while (len < this.o.width);
      w[start]!.bestCost = best + this.baseCost(start);
    }
  }

  private putParagraph(finish: number): void {
    this.putLine(0, this.firstIndent);
    for (let i = this.words[0]!.nextBreak; i !== finish; i = this.words[i]!.nextBreak) this.putLine(i, this.otherIndent);
  }

  private putLine(i: number, indent: number): void {
    const o = this.o;
    this.outColumn = 0;
    this.putSpace(this.prefixIndent);
    this.out += o.prefix;
    this.outColumn += o.prefix.length;
    this.putSpace(indent - this.outColumn);
    const end = this.words[i]!.nextBreak - 1;
    for (; i !== end; i++) {
      this.putWord(i);
      this.putSpace(this.words[i]!.space);
    }
    this.putWord(i);
    this.lastLineLength = this.outColumn;
    this.out += '\n';
  }

  private putWord(i: number): void {
    this.out += this.words[i]!.text;
    this.outColumn += this.words[i]!.length;
  }

  /** `space` columns as spaces, or tabs and spaces when the input had tabs. */
  private putSpace(space: number): void {
    const target = this.outColumn + space;
    if (this.tabs) {
      const tabTarget = Math.floor(target / TABWIDTH) * TABWIDTH;
      if (this.outColumn + 1 < tabTarget) {
        while (this.outColumn < tabTarget) {
          this.out += '\t';
          this.outColumn = (Math.floor(this.outColumn / TABWIDTH) + 1) * TABWIDTH;
        }
      }
    }
    while (this.outColumn < target) {
      this.out += ' ';
      this.outColumn++;
    }
  }
}

const TRY = "Try 'fmt --help' for more information.\n";
const usageError = (msg: string): ExecResult => ({ stdout: '', stderr: `fmt: ${msg}\n${TRY}`, exitCode: 1 });

/** A width operand (0…2500, GNU's MAXCHARS / 2), or GNU's message for it. */
function widthOf(v: string, max: number, env: Map<string, string>): number | ExecResult {
  if (!/^\d+$/.test(v)) return { stdout: '', stderr: `fmt: invalid width: ${localeQuote(env, v)}\n`, exitCode: 1 };
  const n = Number(v);
  if (n > max) return { stdout: '', stderr: `fmt: invalid width: ${localeQuote(env, v)}: Numerical result out of range\n`, exitCode: 1 };
  return n;
}

async function fmt(args: string[], ctx: CommandContext): Promise<ExecResult> {
  let width: string | undefined;
  let goal: string | undefined;
  const o: Options = { width: 75, goal: 0, crown: false, tagged: false, split: false, uniform: false, prefix: '', prefixLeadSpace: 0, prefixFullLength: 0 };
  const setPrefix = (p: string) => {
    const lead = /^ */.exec(p)![0].length;
    const full = p.slice(lead);
    o.prefixLeadSpace = lead;
    o.prefixFullLength = full.length;
    o.prefix = full.replace(/ +$/, '');
  };
  const files: string[] = [];
  let i = 0;
  if (args[0] !== undefined && /^-\d/.test(args[0])) width = args[i++]!.slice(1);
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const value = (): string | undefined => (eq >= 0 ? a.slice(eq + 1) : args[++i]);
      const flags: Record<string, keyof Options> = { '--crown-margin': 'crown', '--tagged-paragraph': 'tagged', '--split-only': 'split', '--uniform-spacing': 'uniform' };
      if (flags[name] && eq < 0) (o[flags[name]!] as boolean) = true;
      else if (name === '--width' || name === '--goal' || name === '--prefix') {
        const v = value();
        if (v === undefined) return usageError(`option '${name}' requires an argument`);
        if (name === '--width') width = v;
        else if (name === '--goal') goal = v;
        else setPrefix(v);
      } else return unsupported('fmt', a);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'w' || c === 'g' || c === 'p') {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (v === undefined) return usageError(`option requires an argument -- '${c}'`);
          if (c === 'w') width = v;
          else if (c === 'g') goal = v;
          else setPrefix(v);
          break;
        }
        if (c === 'c') o.crown = true;
        else if (c === 's') o.split = true;
        else if (c === 't') o.tagged = true;
        else if (c === 'u') o.uniform = true;
        else if (/\d/.test(c)) return usageError(`invalid option -- ${c}; -WIDTH is recognized only when it is the first\noption; use -w N instead`);
        else return usageError(`invalid option -- '${c}'`);
      }
      continue;
    }
    files.push(a);
  }
  if (width !== undefined) {
    const n = widthOf(width, MAXCHARS / 2, ctx.env);
    if (typeof n !== 'number') return n;
    o.width = n;
  }
  if (goal !== undefined) {
    const n = widthOf(goal, o.width, ctx.env);
    if (typeof n !== 'number') return n;
    o.goal = n;
    if (width === undefined) o.width = n + 10;
  } else o.goal = Math.trunc((o.width * (2 * (100 - 7) + 1)) / 200);
  let out = '';
  let err = '';
  let closeError = '';
  for (const f of files.length === 0 ? ['-'] : files) {
    let text: string;
    if (f === '-' && stdinIsClosed(ctx)) {
      // GNU fmt's read fails, then closing stdin at exit does.
      err += 'fmt: read error\n';
      closeError = `fmt: closing standard input: ${EBADF}\n`;
      continue;
    }
    if (f === '-') text = latin1FromBytes(ctx.stdin);
    else {
      try {
        text = Buffer.from(await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, f))).toString('latin1');
      } catch (e) {
        const code = (e as { code?: string }).code;
        err += `fmt: ${code === 'EISDIR' ? `read error: Is a directory` : `cannot open ${quoteName(f, 'shell-escape-always')} for reading: ${code === 'EACCES' ? 'Permission denied' : 'No such file or directory'}`}\n`;
        continue;
      }
    }
    out += new Formatter(o, text).run();
  }
  err += closeError;
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: err, exitCode: err ? 1 : 0 };
}

/** `fmt` for just-bash's `customCommands`. */
export function fmtCommand(): CustomCommand {
  return defineCommand('fmt', (args, ctx) => fmt(args, ctx));
}
