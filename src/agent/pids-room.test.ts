import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pidsRoom } from './pids-room.ts';

describe('pidsRoom', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const files = (max: string, current: string) => {
    dir = mkdtempSync(join(tmpdir(), 'pids-'));
    writeFileSync(join(dir, 'pids.max'), `${max}\n`);
    writeFileSync(join(dir, 'pids.current'), `${current}\n`);
    return { max: join(dir, 'pids.max'), current: join(dir, 'pids.current') };
  };

  it('is the limit less the tasks there are, from the first readable pair of files', () => {
    expect(pidsRoom([{ max: '/nonexistent/pids.max', current: '/nonexistent/pids.current' }, files('120', '118')])).toBe(2);
  });

  it('is unknown when unlimited or when no files can be read', () => {
    expect(pidsRoom([files('max', '5')])).toBeUndefined();
    expect(pidsRoom([{ max: '/nonexistent/a', current: '/nonexistent/b' }])).toBeUndefined();
  });
});
