/**
 * Hard links on the shell engine, each script compared with the host's bash and GNU tools: `ln`, `link`, `cp -l`
 * and `cp -al` make names of one file (a write, chmod or truncate through one shows through all), link counts in
 * `stat`, `ls -l` and `find -links`, inode numbers in `stat -c %i`, `ls -i`, `find -inum`/`-samefile` and `[ -ef ]`.
 */
import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';
import { runShell } from '../../../../../test/support/shell-run.ts';

describe('hard links, as GNU coreutils on Linux', () => {
  it('ln names the source of a hard link it could not create but for an existing name', async () => {
    const r = await runShell("echo x > a; echo y > b; ln a nope/x; ln a b; ln -s a nope/y");
    expect(r.stderr).toBe("ln: failed to create hard link 'nope/x' => 'a': No such file or directory\nln: failed to create hard link 'b': File exists\nln: failed to create symbolic link 'nope/y': No such file or directory\n");
  });
  it.each([
    "echo one > a; ln a b; stat -c '%h %s' a b; echo two > b; cat a",
    "echo one > a; link a b; ln b c; stat -c %h a; rm c; stat -c %h a b; cat b",
    "echo one > a; cp -l a b; echo more >> a; cat b; stat -c %h b",
    "echo x > a; ln a b; [ a -ef b ] && echo same; cp a c; [ a -ef c ] || echo other; stat -c %h c",
    "echo x > a; ln a b; test \"$(stat -c %i a)\" = \"$(stat -c %i b)\" && echo same-ino; test \"$(stat -c %i a)\" != \"$(stat -c %i /)\" && echo differs",
    "echo x > a; ln a b; ls -i a b | awk '{print $2}'; set -- $(ls -i a b); [ \"$1\" = \"$3\" ] && echo ls-same",
    "echo x > a; ln a b; ls -l a b | awk '{print $1, $2, $5, $NF}'",
    "mkdir -p d/e d/f; echo x > d/g; ls -ld d | awk '{print $2}'; stat -c %h d d/e; find d -links 4",
    "echo x > a; ln a b; echo y > c; find . -samefile a | sort; find . -inum \"$(stat -c %i b)\" | sort; find . -type f -links 2 | sort; find . -type f -links -2",
    "echo x > a; ln a b; mkdir d; mv b d/; echo z >> d/b; cat a; stat -c %h a; mv a d/a2; stat -c %h d/b",
    "echo x > a; ln a b; chmod 600 b; stat -c %a a; truncate -s 0 a; stat -c %s b",
    "mkdir d; echo x > d/f; mkdir d/sub; cp -al d d2; stat -c %h d/f d2/f; echo y >> d2/f; cat d/f; [ d/sub -ef d2/sub ] || echo newdir",
    "echo x > a; ln a b; rm a; cat b; stat -c %h b",
    "echo x > a; ln a b; cp a b; echo $?",
    "echo x > a; ln a b; ln a b; echo $?",
    "mkdir d; ln d e; echo $?",
    "echo x > a; ln -s a s; ln s h; stat -c '%h %F' s h a",
    "echo x > a; ln a b; find . -type f -printf '%n %p\\n' | sort",
    "echo x > a; ln a b; mv a b; echo $?; ls",
    "mkdir d; echo x > d/f; cp -l d d3; echo $?; ls",
    "mkdir d; echo x > d/f; chmod 700 d; cp -rl d d3; stat -c '%a %h' d3 d3/f",
    "echo x > a; ln a b; ls -li a b | awk '{print ($1 > 0), $2, $3}'",
    "echo x > a; ln a b; mkdir d; ls -i | wc -w; ls -is a | wc -w",
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
