/**
 * Writes a (rewritten) syntax tree back to text with every command on the line it had in the source, so that
 * `$LINENO`, `BASH_LINENO`, `caller` and each `line N:` of a message count the script's own lines: inside functions,
 * loops, `if`, `case`, `{ …; }`, `( … )` and command substitutions too. Statements go where their `line` says
 * (newlines are padded in, and a statement that shares its line is joined with `;`); here-document bodies follow the
 * line that opened them, as in the source. The words, redirections and expressions inside one line are written by
 * just-bash's own serializer.
 */
import { serialize } from 'just-bash';

type Node = Record<string, unknown> & { type?: string };
type Serializable = Parameters<typeof serialize>[0];

const statementOf = (command: Node): Node => ({ type: 'Statement', pipelines: [{ type: 'Pipeline', commands: [command], negated: false, timed: false, timePosix: false }], operators: [], background: false });
/** just-bash's text of one command alone. */
const textOf = (command: Node): string => serialize({ type: 'Script', statements: [statementOf(command)] } as unknown as Serializable);
const isHereDoc = (r: Node) => r.operator === '<<' || r.operator === '<<-';
const newlines = (text: string) => text.split('\n').length - 1;

/** The line a command starts on: its own `line`, else that of the first command inside it. */
function lineOf(node: unknown): number | undefined {
  if (Array.isArray(node)) return node.length ? lineOf(node[0]) : undefined;
  if (node === null || typeof node !== 'object') return undefined;
  const n = node as Node;
  if (typeof n.line === 'number' && n.line > 0) return n.line;
  switch (n.type) {
    case 'Statement':
      return lineOf(n.pipelines);
    case 'Pipeline':
      return lineOf(n.commands);
    case 'If':
      return lineOf((n.clauses as Node[])[0]?.condition);
    case 'While':
    case 'Until':
      return lineOf(n.condition);
    case 'FunctionDef':
      return lineOf(n.body);
    case 'Case':
      return lineOf((n.items as Node[])[0]?.body);
    default:
      return lineOf(n.body);
  }
}

/** The text being written, its current line, and the here-document bodies due after the line ends. */
class Writer {
  text = '';
  line: number;
  private hereDocs: string[] = [];

  constructor(line = 1) {
    this.line = line;
  }

  write(piece: string): void {
    this.text += piece;
    this.line += newlines(piece);
  }

  /** Ends the line: the pending here-document bodies follow it. */
  newline(): void {
    this.write('\n');
    for (const body of this.hereDocs) this.write(body);
    this.hereDocs = [];
  }

  /** Moves down to `target` with newlines; false when already there or past it. */
  padTo(target: number | undefined): boolean {
    if (target === undefined || target <= this.line) return false;
    while (this.line < target) this.newline();
    return true;
  }

  /** Ends the text: a here-document still pending is written (after a newline, as it must be). */
  finish(): string {
    if (this.hereDocs.length) this.newline();
    return this.text;
  }

  hereDoc(body: string): void {
    this.hereDocs.push(body);
  }
}

/**
 * `$(…)` / `<(…)` / `>(…)` parts below `node` (not inside their own bodies) become text parts holding their written
 * form, each body laid out on its own lines as in the source; just-bash's serializer then writes them as they are.
 */
function lowerSubstitutions(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) lowerSubstitutions(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const n = node as Node;
  const unparsed = n.type === 'CommandSubstitution' ? (n.body as { spzBadRaw?: unknown } | undefined)?.spzBadRaw : undefined;
  if (typeof unparsed === 'string') {
    // A backquoted text that does not parse is written as it was (bash meets its error when it runs it).
    for (const key of Object.keys(n)) delete n[key];
    Object.assign(n, { type: 'Glob', pattern: `\`${unparsed}\`` });
    return;
  }
  if (n.type === 'CommandSubstitution' || n.type === 'ProcessSubstitution') {
    const open = n.type === 'CommandSubstitution' ? '$(' : n.direction === 'input' ? '<(' : '>(';
    const body = substitutionBody(n.body as Node, typeof n.spzLines === 'number' ? n.spzLines : 0);
    for (const key of Object.keys(n)) delete n[key];
    Object.assign(n, { type: 'Glob', pattern: `${open}${body})` });
    return;
  }
  for (const [key, value] of Object.entries(n)) if (key !== 'type') lowerSubstitutions(value);
}

/**
 * The body of a substitution: its statements on their lines counted from the line of `$(` (the parser numbers a
 * substitution's lines from 1 there), the closing parenthesis `lines` lines below it, as written.
 */
function substitutionBody(body: Node, lines: number): string {
  const w = new Writer(1);
  const statements = (body.statements as Node[] | undefined) ?? [];
  list(w, statements);
  if (w.padTo(1 + lines)) return w.finish();
  // A here-document inside must end before the parenthesis.
  const text = w.finish();
  return text.endsWith('\n') || !statements.length ? text : `${text} `;
}

/** A statement list: each statement on its line, joined by `;` (or after `&` by a blank) where lines are shared. */
function list(w: Writer, statements: Node[], top = false): void {
  let previous: Node | null = null;
  for (const statement of statements) {
    const at = lineOf(statement);
    // A statement the parser marked as sharing its line with the one before (interpreter patch
    // expansion-error-discards-line) stays on it.
    if (previous && statement.spzJoined === true) w.write(previous.background === true ? ' ' : '; ');
    else if (!w.padTo(at)) {
      if (previous) w.write(previous.background === true ? ' ' : '; ');
      else if (!top) w.write(' ');
    }
    writeStatement(w, statement);
    previous = statement;
  }
}

/** Closes a list before a reserved word (`then`, `fi`, `done`, `}` …): `;` unless it ended with `&`. */
function close(w: Writer, statements: Node[], word: string): void {
  const last = statements[statements.length - 1];
  w.write(last?.background === true ? ` ${word}` : `; ${word}`);
}

function writeStatement(w: Writer, statement: Node): void {
  const pipelines = statement.pipelines as Node[];
  const operators = (statement.operators as string[] | undefined) ?? [];
  pipelines.forEach((pipeline, i) => {
    if (i > 0) {
      w.write(` ${operators[i - 1]}`);
      if (!w.padTo(lineOf(pipeline))) w.write(' ');
    }
    writePipeline(w, pipeline);
  });
  if (statement.background === true) w.write(' &');
}

function writePipeline(w: Writer, pipeline: Node): void {
  if (pipeline.timed === true) w.write(pipeline.timePosix === true ? 'time -p ' : 'time ');
  if (pipeline.negated === true) w.write('! ');
  const commands = pipeline.commands as Node[];
  const stderr = (pipeline.pipeStderr as boolean[] | undefined) ?? [];
  commands.forEach((command, i) => {
    if (i > 0) {
      w.write(stderr[i - 1] ? ' |&' : ' |');
      if (!w.padTo(lineOf(command))) w.write(' ');
    }
    writeCommand(w, command);
  });
}

/** A redirection's text; a here-document's body is queued for the end of the line. */
function redirection(w: Writer, r: Node): string {
  lowerSubstitutions(r);
  const text = textOf({ type: 'SimpleCommand', name: null, args: [], assignments: [], redirections: [r] });
  if (!isHereDoc(r)) return text;
  const cut = text.indexOf('\n');
  w.hereDoc(`${text.slice(cut + 1)}\n`);
  return text.slice(0, cut);
}

function redirections(w: Writer, node: Node): void {
  for (const r of (node.redirections as Node[] | undefined) ?? []) w.write(` ${redirection(w, r)}`);
}

function writeCommand(w: Writer, c: Node): void {
  switch (c.type) {
    case 'SimpleCommand': {
      const own = (c.redirections as Node[] | undefined) ?? [];
      lowerSubstitutions([c.name, c.args, c.assignments]);
      const head = textOf({ ...c, redirections: [] });
      w.write(head);
      own.forEach((r, i) => w.write(`${head || i > 0 ? ' ' : ''}${redirection(w, r)}`));
      return;
    }
    case 'If': {
      let previous: Node[] = [];
      (c.clauses as Node[]).forEach((clause, i) => {
        if (i === 0) w.write('if');
        else close(w, previous, 'elif');
        list(w, clause.condition as Node[]);
        close(w, clause.condition as Node[], 'then');
        list(w, (previous = clause.body as Node[]));
      });
      const elseBody = c.elseBody as Node[] | null | undefined;
      if (elseBody?.length) {
        close(w, previous, 'else');
        list(w, elseBody);
        previous = elseBody;
      }
      close(w, previous, 'fi');
      redirections(w, c);
      return;
    }
    case 'For': {
      lowerSubstitutions(c.words);
      const header = textOf({ ...c, body: [], redirections: [] });
      w.write(header.slice(0, header.lastIndexOf('; do')));
      w.write('; do');
      loopBody(w, c);
      return;
    }
    case 'CStyleFor': {
      const header = textOf({ ...c, body: [], redirections: [] });
      w.write(header.slice(0, header.lastIndexOf('; do')));
      w.write('; do');
      loopBody(w, c);
      return;
    }
    case 'While':
    case 'Until': {
      w.write(c.type === 'While' ? 'while' : 'until');
      list(w, c.condition as Node[]);
      close(w, c.condition as Node[], 'do');
      loopBody(w, c);
      return;
    }
    case 'Case': {
      lowerSubstitutions(c.word);
      const header = textOf({ ...c, items: [], redirections: [] });
      w.write(header.slice(0, header.indexOf(' in\n') + 3));
      for (const item of c.items as Node[]) {
        if (!w.padTo(lineOf(item.body))) w.write(' ');
        lowerSubstitutions(item.patterns);
        const patterns = (item.patterns as Node[]).map((p) => textOf({ type: 'SimpleCommand', name: p, args: [], assignments: [], redirections: [] }));
        w.write(`${patterns.join(' | ')})`);
        const body = item.body as Node[];
        list(w, body);
        w.write(body.length && body[body.length - 1]!.background !== true ? String(item.terminator) : ` ${String(item.terminator)}`);
      }
      w.write(' esac');
      redirections(w, c);
      return;
    }
    case 'Subshell': {
      w.write('(');
      list(w, c.body as Node[]);
      w.write(' )');
      redirections(w, c);
      return;
    }
    case 'Group': {
      w.write('{');
      list(w, c.body as Node[]);
      close(w, c.body as Node[], '}');
      redirections(w, c);
      return;
    }
    case 'FunctionDef': {
      w.write(`${String(c.name)}() `);
      writeCommand(w, c.body as Node);
      redirections(w, c);
      return;
    }
    default:
      // `(( … ))` and `[[ … ]]`: one line each.
      lowerSubstitutions(c);
      w.write(textOf(c));
  }
}

function loopBody(w: Writer, c: Node): void {
  list(w, c.body as Node[]);
  close(w, c.body as Node[], 'done');
  redirections(w, c);
}

/**
 * The text of a script whose statements (and the commands inside them) carry the lines they had in the source.
 * @param statements the script's top-level statements, already rewritten
 */
export function writeLines(statements: Node[]): string {
  const w = new Writer(1);
  list(w, statements, true);
  return w.finish();
}
