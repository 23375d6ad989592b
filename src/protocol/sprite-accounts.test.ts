import { describe, expect, it } from 'vitest';
import { SPRITE_GROUP_LINE, SPRITE_PASSWD_LINE, withSpriteGroups, withSpritePasswd } from './sprite-accounts.ts';

// What `useradd -ms /bin/bash -u 1001 sprite && usermod -aG sudo,users sprite` leaves in Debian's files.
describe('the sprite user\'s accounts lines', () => {
  it('are production\'s: uid/gid 1001, an empty comment field, home /home/sprite, bash', () => {
    expect(SPRITE_PASSWD_LINE).toBe('sprite:x:1001:1001::/home/sprite:/bin/bash');
    expect(SPRITE_GROUP_LINE).toBe('sprite:x:1001:');
  });

  it('passwd: appended when missing (a newline first when the file lacks one), left alone when there', () => {
    expect(withSpritePasswd('root:x:0:0:root:/root:/bin/bash\n')).toBe('root:x:0:0:root:/root:/bin/bash\nsprite:x:1001:1001::/home/sprite:/bin/bash\n');
    expect(withSpritePasswd('root:x:0:0:root:/root:/bin/bash')).toBe('root:x:0:0:root:/root:/bin/bash\nsprite:x:1001:1001::/home/sprite:/bin/bash\n');
    expect(withSpritePasswd('')).toBe('sprite:x:1001:1001::/home/sprite:/bin/bash\n');
    const own = 'root:x:0:0:root:/root:/bin/bash\nsprite:x:2000:2000:Me:/home/sprite:/bin/zsh\n';
    expect(withSpritePasswd(own)).toBe(own);
  });

  it('group: sprite joins sudo and users as usermod -aG does, its own group is appended, nothing is doubled', () => {
    expect(withSpriteGroups('root:x:0:\nsudo:x:27:\nusers:x:100:bob\nnogroup:x:65534:\n')).toBe(
      'root:x:0:\nsudo:x:27:sprite\nusers:x:100:bob,sprite\nnogroup:x:65534:\nsprite:x:1001:\n',
    );
    expect(withSpriteGroups('root:x:0:\n')).toBe('root:x:0:\nsudo:x:27:sprite\nusers:x:100:sprite\nsprite:x:1001:\n');
    const done = 'sudo:x:27:ubuntu,sprite\nusers:x:100:sprite\nsprite:x:1001:\n';
    expect(withSpriteGroups(done)).toBe(done);
    expect(withSpriteGroups(withSpriteGroups('sudo:x:27:\n'))).toBe(withSpriteGroups('sudo:x:27:\n'));
  });
});
