/**
 * `tsx bench/profile-summary.ts FILE.cpuprofile [--from µs] [--to µs] [--ops N] [--top N] [--focus REGEX]`:
 * prints the top self-time functions and packages of a `node --cpu-prof` profile as Markdown, and the inclusive
 * time of the functions matching `--focus` (see `lib/cpuprofile.ts`).
 * `bench/run.ts --profile DIR` calls the same code for its load windows; this is for profiles taken by hand.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatSummary, summarizeProfile, type CpuProfile } from './lib/cpuprofile.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { from: { type: 'string' }, to: { type: 'string' }, ops: { type: 'string' }, top: { type: 'string' }, focus: { type: 'string' } },
});
if (positionals.length !== 1) {
  console.error('usage: tsx bench/profile-summary.ts FILE.cpuprofile [--from µs] [--to µs] [--ops N] [--top N] [--focus REGEX]');
  process.exit(2);
}
const num = (s: string | undefined) => (s === undefined ? undefined : Number(s));
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as CpuProfile;
const summary = summarizeProfile(profile, { fromUs: num(values.from), toUs: num(values.to), ops: num(values.ops), top: num(values.top), focus: values.focus ? new RegExp(values.focus) : undefined });
console.log(formatSummary(positionals[0]!, summary));
