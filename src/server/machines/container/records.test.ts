/**
 * Container sprites' records on spritzer's host: kept whole, read back, forgotten; a damaged file is no record; only
 * the user running spritzer can read them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRecordDir, HostRecords } from './records.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('HostRecords', () => {
  it('keeps a record per sprite id, reads it back, and forgets it', async () => {
    const base = mkdtempSync(join(tmpdir(), 'records-'));
    dirs.push(base);
    const dir = join(base, 'ns');
    const records = new HostRecords(dir);
    const record = { createdAt: 1700000000000, labels: ['team'], urlSettings: { auth: 'public' as const } };
    await records.write('sprite/1', record);
    expect(await records.read('sprite/1')).toEqual(record);
    expect(await records.read('other')).toBeUndefined();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, `${encodeURIComponent('sprite/1')}.json`)).mode & 0o777).toBe(0o600);
    await records.remove('sprite/1');
    expect(await records.read('sprite/1')).toBeUndefined();
    // The namespace's directory goes with its last record.
    expect(existsSync(dir)).toBe(false);
    await records.remove('sprite/1');
  });

  it('keeps the directory while it holds another record', async () => {
    const base = mkdtempSync(join(tmpdir(), 'records-'));
    dirs.push(base);
    const records = new HostRecords(join(base, 'ns'));
    await records.write('a', { createdAt: 1 });
    await records.write('b', { createdAt: 2 });
    await records.remove('a');
    expect(await records.read('b')).toEqual({ createdAt: 2 });
  });

  it('prune forgets every record but the kept ones, leaves other files, and the empty directory goes', async () => {
    const base = mkdtempSync(join(tmpdir(), 'records-'));
    dirs.push(base);
    const dir = join(base, 'ns');
    const records = new HostRecords(dir);
    for (const id of ['sprite/1', 'sprite-2', 'sprite-3']) await records.write(id, { createdAt: 1 });
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, '%E0%A4%A.json'), '{}'); // not a name it writes: left alone
    await records.prune(new Set(['sprite-2']));
    expect(readdirSync(dir).sort()).toEqual(['%E0%A4%A.json', 'notes.txt', 'sprite-2.json']);
    rmSync(join(dir, 'notes.txt'));
    rmSync(join(dir, '%E0%A4%A.json'));
    await records.prune(new Set());
    expect(existsSync(dir)).toBe(false);
    await records.prune(new Set()); // no directory: nothing to do
  });

  it('a file that does not parse, or has no creation time, is no record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'records-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'a.json'), '{not json');
    writeFileSync(join(dir, 'b.json'), '{"labels":["x"]}');
    const records = new HostRecords(dir);
    expect([await records.read('a'), await records.read('b')]).toEqual([undefined, undefined]);
  });

  it('lives under XDG_STATE_HOME (else ~/.local/state), per namespace', () => {
    expect(defaultRecordDir('ns', { XDG_STATE_HOME: '/s' })).toBe('/s/spritzer/container/ns');
    expect(defaultRecordDir('ns', {})).toMatch(/\/\.local\/state\/spritzer\/container\/ns$/);
    expect(defaultRecordDir('ns', { HOME: '/home/u' })).toBe('/home/u/.local/state/spritzer/container/ns');
  });

  it('a uid without a home (HOME=/, as a container gives a uid its passwd lacks) keeps them in the temp dir', () => {
    expect(defaultRecordDir('ns', { HOME: '/' }, 1000)).toBe(join(tmpdir(), 'spritzer-state-1000', 'spritzer', 'container', 'ns'));
    expect(defaultRecordDir('ns', { HOME: '' }, 1000)).toBe(join(tmpdir(), 'spritzer-state-1000', 'spritzer', 'container', 'ns'));
    expect(defaultRecordDir('ns', { HOME: '/', XDG_STATE_HOME: '/s' }, 1000)).toBe('/s/spritzer/container/ns');
  });
});
