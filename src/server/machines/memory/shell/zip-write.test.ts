/**
 * `zip` writes archives as Info-ZIP's zip 3.0: GNU's deflate sizes, zip's headers and extra fields, data
 * descriptors to a pipe. The sums were measured with Info-ZIP zip 3.0 run as uid and gid 1001 (the sprite user) on
 * the same files and times.
 */
import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

const files = `seq 1 3000 > f; printf 'x\\0y' > b; touch -d '2020-01-02 03:04:05' f b; `;

describe('zip archives as Info-ZIP writes them', () => {
  it("deflates as zip does: its percentage, size and bytes, a binary file that does not shrink stored", async () => {
    const r = await runShell(`${files}zip z.zip f b; stat -c %s z.zip; sha256sum z.zip`);
    expect(r).toEqual({
      stdout: '  adding: f (deflated 53%)\n  adding: b (stored 0%)\n6749\nd0bb323d8712ce2e6287367e7b7c6e2e1de3d15f2976b1f7cf4e11e4708abf90  z.zip\n',
      stderr: '',
      exit: 0,
    });
  });
  it('leaves the extra fields out with -X and writes data descriptors when the archive goes to a pipe', async () => {
    // zip stores the access time too, which reading the file moves on Linux: each archive is made of a file just touched.
    const r = await runShell(`${files}zip -q - f | sha256sum; zip -q -X x.zip f; sha256sum x.zip`);
    expect(r.stdout).toBe('abc6f465971b29a2b6fb202b4b05a20e769d49ac9704feadb1f6bc8309aa1afc  -\n00cebeef56b5e3839640c17c625ab5e240a5c14dddd842501907be5dc6bc919f  x.zip\n');
  });
  it('marks the deflate option of -1 and -9 and keeps the UT time to the second for unzip and zip -u', async () => {
    const r = await runShell(`${files}zip -q -9 n.zip f; zip -q -1 o.zip f; unzip -v n.zip | sed -n 4p | awk '{print $2}'; unzip -v o.zip | sed -n 4p | awk '{print $2}'; touch -d '2020-01-02 03:04:06' f; zip -u n.zip f; rm f; unzip -q n.zip; stat -c %Y f`);
    expect(r).toEqual({ stdout: 'Defl:X\nDefl:F\nupdating: f (deflated 53%)\n1577934246\n', stderr: '', exit: 0 });
  });
});
