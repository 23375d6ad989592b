/**
 * Tools that replace a file give its name a new file (GNU sed -i, install, patch, tar x, rsync; Python's os.rename):
 * other hard links of the old file keep the old content and a symlink at the name is replaced, not written through.
 * Shell redirections write into the existing file. Each script is compared with the host's bash and GNU tools.
 */
import { describe, expect, it } from 'vitest';
import { engineBash, hostBash, hostHas } from '../../../../../test/support/host-bash.ts';

describe('replacing a file gives the name a new file', () => {
  it.each([
    'echo x > f; ln f h; sed -i s/x/y/ f; cat h f; stat -c %h f h',
    "echo x > f; chmod 640 f; ln f h; sed -i s/x/y/ f; stat -c '%a %h' f h",
    'echo x > f; chmod 600 f; ln -s f l; sed -i s/x/y/ l; ls -l l | cut -c1; stat -c %a l f; cat f',
    'echo x > f; ln f h; echo y > src; install -m 644 src f; stat -c %h f; cat h',
    'echo x > f; ln -s f l; echo y > src; install src l; ls -l l | cut -c1; cat f; stat -c %a l',
    'ln -s nowhere l; echo y > src; install src l; ls -l l | cut -c1; cat l; ls',
    'mkdir d; echo x > d/f; tar cf a.tar d; echo y > d/f; ln d/f h; tar xf a.tar; stat -c %h d/f; cat h d/f',
    'mkdir d; echo x > d/f; tar cf a.tar d; echo y > t; rm d/f; ln -s ../t d/f; tar xf a.tar; ls -l d/f | cut -c1; cat t d/f',
    'mkdir d; echo x > d/f; tar cf a.tar d; echo y > d/f; ln d/f h; tar xf a.tar --overwrite; stat -c %h d/f; cat h d/f',
    'mkdir d; echo x > d/f; tar cf a.tar d; echo y > d/f; ln d/f h; tar xf a.tar --skip-old-files; stat -c %h d/f; cat h d/f',
    'mkdir d; echo x > d/f; tar cf a.tar d; echo y > t; rm d/f; ln -s ../t d/f; tar xf a.tar --overwrite; ls -l d/f | cut -c1; cat t d/f',
    'mkdir d; echo x > d/f; tar cf a.tar d; mkdir o; tar xf a.tar -C o; ln o/d/f o/h; tar xf a.tar -C o; stat -c %h o/d/f d/f',
    "printf 'a\\n' > f; chmod 640 f; ln f h; printf -- '--- f\\n+++ f\\n@@ -1 +1 @@\\n-a\\n+b\\n' > p; patch -s f < p; cat h f; stat -c '%a %h' f h",
    'echo x > f; ln f h; echo y > f; cat h; cat > f <<< z; cat h',
    'echo x > f; ln f h; sed -i.bak s/x/y/ f; cat h f f.bak; stat -c %h f h f.bak',
    'echo x > f; ln -s f l; sed -i.bak s/x/y/ l; ls -l l.bak | cut -c1; cat f l',
    "echo x > f; ln f h; sed -i.bak 'k' f; echo rc=$?; ls; stat -c %h f h",
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });

  it.skipIf(!hostHas('rsync'))('rsync writes a new file: a hard link keeps the old content, the name keeps its mode', async () => {
    const script = "echo x > f; chmod 600 f; ln f h; echo yyy > src; rsync src f; cat h f; stat -c '%a %h' f h; echo z > f2; ln f2 h2; rsync -a src f2; cat h2 f2";
    expect(await engineBash(script)).toEqual(hostBash(script));
  });

  it.skipIf(!hostHas('python3'))("Python's os.rename and os.replace move the entry: a hard link keeps its file, a symlink is replaced", async () => {
    const script = [
      `echo x > f; ln f h; echo y > t; python3 -c 'import os; os.rename("t","f")'; cat h f; ls`,
      `echo x > g; ln -s g l; echo y > u; python3 -c 'import os; os.replace("u","l")'; ls -l l | cut -c1; cat g l`,
      `mkdir a b; touch b/f; python3 -c 'import os
try: os.rename("a","b")
except OSError as e: print(e)'`,
      `mkdir c d; touch c/f; python3 -c 'import os; os.rename("c","d")'; ls d; ls c 2>/dev/null || echo gone`,
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  }, 60_000);
});
