/**
 * The parser of the `spritzer` command's whole-number flags (`--max-json-body`, `--shell-timeout`…): one rule for
 * all of them (a safe integer within a range) and one wording of the refusal. It owns only the parsing; commander
 * puts the flag's name and the given value in front of the message (`option '--max-json-body <bytes>' argument
 * 'x' is invalid. must be …`), and main.ts owns the flags, their defaults and their env equivalents.
 */
import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../core/duration.ts';

/** What a whole-number flag accepts and how its refusal names the value. */
export interface WholeNumberRule {
  /** Smallest accepted value (inclusive). */
  min: number;
  /** Largest accepted value (inclusive); none when undefined (then `Number.MAX_SAFE_INTEGER`). */
  max?: number;
  /** The unit named in the message: `bytes`, `milliseconds`; none for a plain count. */
  unit?: string;
  /** Appended to the message in parentheses, e.g. `0: no limit`. */
  note?: string;
}

/** The refusal text for `rule`: `must be a whole number of bytes, at least 1024`, `… from 0 to 64`. */
export function wholeNumberMessage(rule: WholeNumberRule): string {
  const unit = rule.unit ? ` of ${rule.unit}` : '';
  const range = rule.max !== undefined ? ` from ${rule.min} to ${rule.max}` : rule.min > 0 ? `, at least ${rule.min}` : '';
  return `must be a whole number${unit}${range}${rule.note ? ` (${rule.note})` : ''}`;
}

/**
 * A commander `argParser` for a whole-number flag: the text as a decimal number (`Number()`: surrounding blanks
 * are ignored, `1e3` is 1000) that is a safe integer in `[min, max]`; anything else throws
 * `InvalidArgumentError(wholeNumberMessage(rule))`, which commander reports naming the flag, and exits 1.
 * @see https://github.com/tj/commander.js#custom-option-processing; docs/limits.md (the flags)
 */
export function wholeNumber(rule: WholeNumberRule): (value: string) => number {
  return (value: string) => {
    const n = value.trim() === '' ? Number.NaN : Number(value);
    if (!Number.isSafeInteger(n) || n < rule.min || (rule.max !== undefined && n > rule.max)) {
      throw new InvalidArgumentError(wholeNumberMessage(rule));
    }
    return n;
  };
}

/**
 * A commander `argParser` for a duration flag (`--create-timeout`, `--agent-timeout`): a Go duration (`90s`, `2m`)
 * or whole seconds, as milliseconds, at least 1 ms; anything else throws `InvalidArgumentError` naming `examples`
 * (`must be a duration such as 60s, 2m or 90 (seconds)`).
 */
export function positiveDuration(examples: string): (value: string) => number {
  return (value: string) => {
    let ms: number;
    try {
      ms = parseDuration(value);
    } catch {
      throw new InvalidArgumentError(`must be a duration such as ${examples}`);
    }
    if (!(ms >= 1)) throw new InvalidArgumentError('must be at least 1ms');
    return ms;
  };
}
