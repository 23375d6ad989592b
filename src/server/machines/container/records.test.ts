/**
 * Container sprites' records on spritzer's host: kept whole, read back, forgotten; a damaged file is no record; only
 * the user running spritzer can read them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
    await records.remove('sprite/1');
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
