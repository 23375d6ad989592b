import { describe, expect, it } from 'vitest';
import { ACCOUNTS, bashGroups, GROUP, GROUP_IDS, GROUP_NAMES, PASSWD, processGroups, ROOT_ACCOUNT, SPRITE_ACCOUNT, spriteUserInGroup, USER_IDS, USER_NAMES } from './accounts.ts';

// A Debian process of uid/gid 1001 with the groups 27 and 100 (setpriv --reuid 1001 --regid 1001 --groups 27,100):
// getgroups(2) [27, 100], bash's GROUPS `1001 27 100`.
describe('the in-memory sprites\' accounts', () => {
  it('the sprite user is 1001:1001 in sprite, sudo and users; root and nobody as on Ubuntu', () => {
    expect(SPRITE_ACCOUNT).toEqual({ uid: 1001, name: 'sprite', gid: 1001, groups: [1001, 27, 100], supplementary: [27, 100] });
    expect(ACCOUNTS.map((a) => a.name)).toEqual(['root', 'sprite', 'nobody']);
    expect([processGroups(SPRITE_ACCOUNT), processGroups(ROOT_ACCOUNT)]).toEqual([[27, 100], [0]]);
    expect([bashGroups(SPRITE_ACCOUNT), bashGroups(ROOT_ACCOUNT)]).toEqual([[1001, 27, 100], [0]]);
    expect([27, 100, 1001, 0, 65534].map(spriteUserInGroup)).toEqual([true, true, true, false, false]);
  });

  it('names users and groups apart (65534 is nobody as a user, nogroup as a group)', () => {
    expect([USER_NAMES[1001], USER_NAMES[65534], USER_NAMES[27]]).toEqual(['sprite', 'nobody', undefined]);
    expect([GROUP_NAMES[1001], GROUP_NAMES[27], GROUP_NAMES[100], GROUP_NAMES[65534]]).toEqual(['sprite', 'sudo', 'users', 'nogroup']);
    expect([USER_IDS.sprite, USER_IDS.sudo, GROUP_IDS.users, GROUP_IDS.nobody]).toEqual([1001, undefined, 100, undefined]);
  });

  it('/etc/passwd and /etc/group hold the same accounts', () => {
    expect(PASSWD).toBe('root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\nsprite:x:1001:1001::/home/sprite:/bin/bash\n');
    expect(GROUP).toBe('root:x:0:\nsudo:x:27:sprite\nusers:x:100:sprite\nnogroup:x:65534:\nsprite:x:1001:\n');
  });
});
