/**
 * A script's syntax tree as the shell engine's rewrites see it: just-bash's parser, with a script that does not
 * parse answered as `undefined` so that the rewrite leaves it as written (just-bash then reports the syntax error
 * itself, as bash would), and the way back to text ({@link serializeScript}), which writes the tree so that it
 * reads back as the same script. It owns that entry to the parser and that exit, not what the rewrites do.
 */
import { parse, serialize } from 'just-bash';
import { writeLines } from './script-lines.ts';

/** A node of just-bash's syntax tree, read structurally (`type` names its kind). */
export type ScriptNode = Record<string, unknown> & { type?: string };

/** The statements of `script`, or undefined when it does not parse. */
export function parseScript(script: string): { statements: ScriptNode[] } | undefined {
  try {
    return parse(script) as unknown as { statements: ScriptNode[] };
  } catch {
    return undefined;
  }
}

/** A part written as is: just-bash's serializer writes a `Glob` part's pattern verbatim. */
const raw = (text: string): ScriptNode => ({ type: 'Glob', pattern: text });

/** `text` escaped as just-bash's serializer escapes unquoted text, but for the characters in `keep`. */
const escapeBut = (text: string, keep: string) => text.replace(/[\s\\'"`!|&;()<>{}[\]*?~#]/g, (c) => (keep.includes(c) ? c : `\\${c}`));

/** `$'…'` for a text holding a newline, which a backslash cannot escape (it would join the lines). */
const ansiC = (text: string) => `$'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

const DECLARE = new Set(['declare', 'local', 'typeset', 'readonly', 'export']);
const ARRAY_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=\(/;

/** Whether an arithmetic expression would be written with a leading sign (`-2`), which `${s:-2}` would misread. */
function signed(expr: ScriptNode | undefined): boolean {
  if (!expr) return false;
  if (expr.type === 'ArithUnary') return expr.prefix === true && (expr.operator === '-' || expr.operator === '+');
  if (expr.type === 'ArithNumber') return Number(expr.value) < 0;
  return false;
}

/** The text of a backquoted substitution whose body does not parse (kept by the interpreter as written), or undefined. */
export function unparsedBackquote(n: ScriptNode): string | undefined {
  const raw = (n.body as { spzBadRaw?: unknown } | undefined)?.spzBadRaw;
  return typeof raw === 'string' ? raw : undefined;
}

/**
 * Rewrites, in place, what just-bash's serializer would write so that it reads back differently:
 * - an unquoted `[[ … =~ RE ]]` regex (it would escape `( ) |`, making them literal);
 * - a negative substring offset `${s: -2}` (written `${s:-2}`, a default value) becomes `${s:(-2)}`;
 * - an unquoted text with a newline (`$'a\nb'`) would be written `a\⏎b`, a line continuation;
 * - an array literal in a `declare`/`local` argument (`declare -a a=(1 'b c')`) would be escaped into one word;
 * - `$( (…) )` would be written `$((…))`, an arithmetic expansion, and a backquoted substitution nested in another
 *   would lose its escapes (both are written `$(…)`);
 * - and meanings just-bash lacks: `[!…]` in a `case` or `[[ == ]]` pattern (written `[^…]`, which it knows),
 *   `~+` and `~-` (bash(1) "Tilde Expansion": `$PWD`, `$OLDPWD`), `exec CMD` ending the shell
 *   ({@link execEndsShell}).
 * Here-document bodies are left alone.
 */
function prepare(node: unknown, inQuotes = false): void {
  if (Array.isArray(node)) {
    execEndsShell(node);
    for (const item of node) prepare(item, inQuotes);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const n = node as ScriptNode;
  if (n.type === 'HereDoc') return;
  if (n.type === 'CondBinary' && n.operator === '=~') {
    const right = n.right as { parts?: ScriptNode[] } | undefined;
    if (right?.parts) right.parts = right.parts.map((p) => (p.type === 'Literal' && !String(p.value).includes('\n') ? raw(String(p.value)) : p));
  }
  if (n.type === 'CaseItem' || (n.type === 'CondBinary' && (n.operator === '==' || n.operator === '=' || n.operator === '!='))) {
    const words = (n.type === 'CaseItem' ? n.patterns : [n.right]) as Array<{ parts?: ScriptNode[] }> | undefined;
    for (const word of words ?? []) for (const part of word.parts ?? []) if (part.type === 'Glob') part.pattern = String(part.pattern).replace(/\[!/g, '[^');
  }
  if (n.type === 'Substring') {
    const offset = n.offset as ScriptNode | undefined;
    if (offset && signed(offset.expression as ScriptNode)) offset.expression = { type: 'ArithGroup', expression: offset.expression };
  }
  // A backquoted substitution is written back as `$(…)`: its body is already parsed, and one nested in another
  // would be written without the backslashes that nest it. One whose text does not parse stays as written (bash
  // meets its syntax error when it runs it; patches/just-bash/when-backquote-syntax-error.mjs).
  if (n.type === 'CommandSubstitution' && n.legacy === true && !unparsedBackquote(n)) n.legacy = false;
  if (n.type === 'CommandSubstitution' && n.legacy !== true) {
    const body = (n.body as { statements?: ScriptNode[] } | undefined)?.statements ?? [];
    const first = ((body[0]?.pipelines as ScriptNode[] | undefined)?.[0]?.commands as ScriptNode[] | undefined)?.[0];
    if (first?.type === 'Subshell') n.body = { ...(n.body as object), statements: [{ type: 'Statement', pipelines: [{ type: 'Pipeline', commands: [{ type: 'Group', body, redirections: [] }], negated: false, timed: false, timePosix: false }], operators: [], background: false }] };
  }
  if (n.type === 'SimpleCommand') {
    const name = (n.name as { parts?: ScriptNode[] } | null)?.parts;
    if (name?.length === 1 && name[0]!.type === 'Literal' && DECLARE.has(String(name[0]!.value))) {
      for (const arg of (n.args as Array<{ parts?: ScriptNode[] }> | undefined) ?? []) {
        const parts = arg.parts ?? [];
        if (parts[0]?.type === 'Literal' && ARRAY_ASSIGNMENT.test(String(parts[0].value))) {
          // The literal holds the array's syntax (`=(`, `[k]=`, `)`) as well as values: only a newline in it (from
          // `$'a\nb'`) is written quoted, as `$'\n'`, so the parentheses stay syntax.
          arg.parts = parts.map((p) => (p.type === 'Literal' ? raw(String(p.value).replace(/\n/g, () => "$'\\n'")) : p));
        }
      }
    }
    // An argument's unquoted `!` (`[ "$a" != b ]`) is written bare: it means nothing there to bash, and the
    // serializer's `\!` would read back as a quoted character, which `$BASH_COMMAND` and `declare -f` then show.
    for (const arg of (n.args as Array<{ parts?: ScriptNode[] }> | undefined) ?? []) {
      if (arg.parts) arg.parts = arg.parts.map((p) => (p.type === 'Literal' && /!/.test(String(p.value)) && !String(p.value).includes('\n') ? raw(escapeBut(String(p.value), '!')) : p));
    }
  }
  if (n.type === 'Word' && !inQuotes) {
    const parts = n.parts as ScriptNode[] | undefined;
    if (parts) n.parts = parts.map((p) => (p.type === 'Literal' && String(p.value).includes('\n') ? raw(ansiC(String(p.value))) : p));
    const first = parts?.[0];
    const tilde =
      first?.type === 'Literal' ? /^~([+-])(\/.*)?$/s.exec(String(first.value)) : first?.type === 'TildeExpansion' && (first.user === '+' || first.user === '-') ? ['', first.user] : null;
    if (tilde) {
      const dir = { type: 'DoubleQuoted', parts: [{ type: 'ParameterExpansion', parameter: tilde[1] === '+' ? 'PWD' : 'OLDPWD', operation: null }] };
      n.parts = [dir, ...(tilde[2] ? [{ type: 'Literal', value: tilde[2] }] : []), ...(n.parts as ScriptNode[]).slice(1)];
    }
  }
  for (const [key, value] of Object.entries(n)) {
    if (key === 'type') continue;
    prepare(value, inQuotes || n.type === 'DoubleQuoted');
  }
}

const literalWord = (value: string) => ({ type: 'Word', parts: [{ type: 'Literal', value }] });

/**
 * `exec CMD ARG…` in a list of statements runs CMD in place of the shell: nothing after it runs, and the shell's
 * status is CMD's. just-bash runs CMD and goes on, so an `exit` follows the statement. The statement stays the
 * `exec` builtin, which traces as `+ exec CMD`, says `exec: CMD: not found`, and drops the EXIT trap once CMD ran (the
 * shell it belonged to is gone: patches/just-bash/exec-not-found.mjs). `exec` with only redirections, or with
 * options (`exec -a`), is left as is.
 */
function execEndsShell(list: unknown[]): void {
  for (let i = 0; i < list.length; i++) {
    const statement = list[i] as ScriptNode | null;
    if (statement?.type !== 'Statement' || statement.background === true || (statement.operators as unknown[] | undefined)?.length) continue;
    const pipelines = statement.pipelines as ScriptNode[] | undefined;
    const commands = pipelines?.length === 1 && pipelines[0]!.negated !== true ? (pipelines[0]!.commands as ScriptNode[]) : [];
    const command = commands.length === 1 ? commands[0]! : null;
    if (command?.type !== 'SimpleCommand') continue;
    const name = (command.name as { parts?: ScriptNode[] } | null)?.parts;
    const args = (command.args as Array<{ parts?: ScriptNode[] }> | undefined) ?? [];
    const first = args[0]?.parts;
    if (name?.length !== 1 || name[0]!.type !== 'Literal' || name[0]!.value !== 'exec') continue;
    if (first?.length !== 1 || first[0]!.type !== 'Literal' || String(first[0]!.value).startsWith('-')) continue;
    const exit = { type: 'SimpleCommand', name: literalWord('exit'), args: [], assignments: [], redirections: [] };
    list.splice(i + 1, 0, { type: 'Statement', pipelines: [{ type: 'Pipeline', commands: [exit], negated: false, timed: false, timePosix: false }], operators: [], background: false });
    i++;
  }
}

/**
 * The text of a (rewritten) tree, written so that just-bash reads it back as the same script (see `prepare`), every
 * command on the line it was on ({@link writeLines}), so `$LINENO` and the `line N:` of a message count as in the
 * original (just-bash's serializer puts every statement on a line of its own and reflows compound commands).
 * `keepLines` false writes them just-bash's way (a statement quoted into a word of another command).
 */
export function serializeScript(ast: unknown, keepLines = true): string {
  prepare(ast);
  const statements = (ast as { statements?: unknown }).statements;
  if (!keepLines || !Array.isArray(statements)) return serialize(ast as Parameters<typeof serialize>[0]);
  return writeLines(statements as ScriptNode[]);
}
