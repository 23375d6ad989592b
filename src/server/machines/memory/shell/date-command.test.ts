import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

// GNU date on the shell engine. Dates fixed in the command line are compared with the host's own GNU date (run
// here, never typed); dates relative to now use the engine's test clock, Monday 2026-11-30 09:05:00 UTC.

const gnuDate = spawnSync('date', ['--version'], { encoding: 'utf8' }).stdout?.includes('GNU coreutils') ?? false;


const FIXED = [
  "-d '2024-03-10 12:00:00 2 days 3 hours ago' '+%F %T'", // `ago` negates only the item before it
  "-d '2024-03-10 12:00:00 +1 month' '+%F %T'", // a signed number after a time is its zone
  "-d '2024-01-31 1 month' +%F", "-d '2024-03-10 12:00:00 next week' '+%F %T'", "-d '2024-03-10 monday' '+%F %a'",
  "-d 'Jan 5 2024' '+%F %T'", "-d '5 Jan 2024'", "-d 'January 5, 2024 3pm'", "-d '01/05/2024'", '-d 20240105',
  "-d '2024-01-05T10:20:30Z'", "-d '2024-01-05 10:20:30 +0200'", "-d '2024-01-05 10:20 UTC'", "-d '2024-03-10 12:00:00 third day'",
  "-d '2024-02-30'", '-d 24-01-05', "-d '2024-03-10 12:00:00 week ago'", "-d '2024-03-10 12:00:00 fortnight'", '-d @1700000000.5 +%s.%N',
  '-u -d @0 -R', '-u -d @0 -I', '-u -d @0 -Iseconds', '-u -d @0 --iso-8601=ns', '-u -d @0 --rfc-3339=seconds',
  "-d @86399 '+%H %I %k %l %p %P %r %R %T'", "-u -d @25000 '+%#p %#P %^p %^P %#Z %#a %#b'",
  "-d @1709251200 '+%a %A %b %B %C %d %D %e %F %g %G %h %j %m %u %U %V %w %W %x %X %y %Y %z %:z %::z %:::z %Z %q %s %%'",
  "-d @1709251200 '+%-d %_m %05Y %^a %#A %^B %10A %-j %3N %6N'", "-d '2024-12-30' '+%G-W%V-%u %g'", "-d '2021-01-03' '+%G-W%V %U %W'",
  "-d 'nonsense'", "-d '2024-01-05 24:00'", "-d '2024-01-05 13:00 pm'", "-d '2024-06-01 10:00 PST' -u", "-d 'Thu, 01 Jan 1970 00:00:00 +0000'",
  "-d '2024-01-05 10:20:30.123456789' +%N", '-r /nope', '-R -I', '--iso-8601=bad', '+%Q %',
  // A numeric zone of more than a day is invalid (`+ 90` after a time is a zone); after a named zone, a signed
  // number followed by a unit is a relative item.
  "-u -d '2024-06-15 12:00 + 90 minutes' '+%F %H:%M'", "-u -d '2024-06-15 12:00 +2401'", "-u -d '2024-06-15 12:00 +24:00' '+%F %T'",
  "-u -d '2024-06-15 12:00 UTC +5 min' '+%F %T'", "-u -d '2024-06-15 12:00 UTC +2 hours' '+%F %T'", "-u -d '2024-06-15 + 90 minutes' '+%F %T'",
  // A leading TZ="ZONE" reads the rest in ZONE (an unknown one as UTC); the output stays in TZ (or -u).
  `-u -d 'TZ="America/New_York" 2024-01-01 12:00' '+%F %T'`, `-u -d 'TZ="Asia/Tokyo" 2024-06-01 09:00 +1 hour' '+%F %T %Z'`,
  `-u -d 'TZ=":Europe/London" 2024-08-01 12:00' +%H:%M`, `-u -d 'TZ="Nope/Zone" 2024-01-01' +%s`, `-u -d ' TZ="UTC0" @0' +%s`,
  `-u -d 'TZ="A\\"B" 2024-01-01' +%s`, `-d 'TZ="UTC" TZ="UTC" 2024-01-01'`, `-d 'tz="UTC" 2024-01-01'`,
];

describe.skipIf(!gnuDate)('date with the dates fixed on its command line, as the host\'s GNU date', () => {
  it.each(FIXED)('date %s', async (args) => {
    expect(await engineBash(`date ${args}`)).toEqual(hostBash(`date ${args}`));
  });
  it.each([
    ['America/New_York', "-d '2024-03-10 02:30'"], // skipped by the change to daylight time: invalid
    ['America/New_York', "-d '2024-07-04 12:00' '+%F %T %Z %z'"], ['Asia/Kolkata', "-d @0 '+%F %T %Z %z %:::z'"],
    ['Europe/Paris', "-d '2024-10-27 12:00 +1 day' '+%F %T %Z'"], ['Europe/Paris', "-u -d '2024-06-01 12:00'"], ['Australia/Sydney', "-d '2024-01-01' '+%s %Z'"],
    // POSIX TZ values of a standard time alone: hours west of UTC, the name as the abbreviation.
    ['Asia/Tokyo', `-d 'TZ="UTC" 2024-01-01' '+%F %T %Z'`], ['UTC', `-d 'TZ="Europe/Paris" 2024-07-14 12:00' '+%H:%M %Z'`],
    ['GMT+5', "-d @0 '+%F %T %Z %z'"], ['JST-9', "-d '2024-01-05 10:00' '+%s %Z %:z'"], ['XYZ-3:30', '-d @0'],
  ])('TZ=%s date %s', async (tz, args) => {
    expect(await engineBash(`date ${args}`, tz)).toEqual(hostBash(`date ${args}`, tz));
  });
});

describe('date relative to now (the engine\'s clock)', () => {
  it('prints now in the default format, and its epoch seconds', async () => {
    expect((await runShell('date; date +%s; date -u +%Y-%m-%dT%H:%M:%SZ')).stdout).toBe('Mon Nov 30 09:05:00 UTC 2026\n1796029500\n2026-11-30T09:05:00Z\n');
  });
  it('reads relative items, weekdays and a bare number as GNU does', async () => {
    const r = await runShell("for d in tomorrow yesterday '2 hours ago' '+1 month' monday 'next monday' 'last monday' friday '' now 2024 'next year'; do date -d \"$d\" '+%F %T'; done");
    expect(r.stdout).toBe([
      '2026-12-01 09:05:00', '2026-11-29 09:05:00', '2026-11-30 07:05:00', '2026-12-30 09:05:00', '2026-11-30 00:00:00', '2026-12-07 00:00:00',
      '2026-11-23 00:00:00', '2026-12-04 00:00:00', '2026-11-30 00:00:00', '2026-11-30 09:05:00', '2026-11-30 20:24:00', '2027-11-30 09:05:00', '',
    ].join('\n'));
  });
  it('-f reads one date per line, says which lines are invalid and exits 1', async () => {
    const r = await runShell("printf '@0\\n@60\\nbad\\n' > d; date -u -f d +%M; echo \"st=$?\"; printf '@120\\n' | date -u -f - +%M");
    expect(r).toEqual({ stdout: '00\n01\nst=1\n02\n', stderr: "date: invalid date 'bad'\n", exit: 0 });
  });
  it('-r prints a file\'s modification time; setting the clock is refused loudly', async () => {
    expect((await runShell('touch -d @86400 f; date -u -r f +%F')).stdout).toBe('1970-01-02\n');
    const r = await runShell('date -s tomorrow; echo "st=$?"');
    expect(r.stdout).toBe('st=2\n');
    expect(r.stderr).toContain('--exec sandbox');
  });
});

describe('date in a TZ that names no zone', () => {
  it('takes the letters TZ starts with as the zone name when there are three or more, as glibc does', async () => {
    const r = await runShell("for z in Nowhere/Zone ab :Foo/Bar abc_def; do TZ=$z date -d @0 '+%H [%Z] %z'; done");
    expect(r.stdout).toBe('00 [Nowhere] +0000\n00 [] +0000\n00 [Foo] +0000\n00 [abc] +0000\n');
  });
});
