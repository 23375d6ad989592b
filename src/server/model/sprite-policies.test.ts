import { describe, it, expect } from 'vitest';
import { Vfs } from '../machines/memory/vfs.ts';
import { SpritePolicies } from './sprite-policies.ts';
import { NETWORK_POLICY_PATH } from '../core/network-policy.ts';
import { vfsMachineFs } from '../machines/memory/machine.ts';
import type { MachineFs } from '../machines/port.ts';

// What a sprite's policy copy on disk does across restores and reboots (docs/wire-reference.md §10.2).

const policyOnDisk = (vfs: Vfs): unknown => JSON.parse(new TextDecoder().decode(vfs.readFile(NETWORK_POLICY_PATH)));

describe('SpritePolicies.afterRestore', () => {
  it('writes nothing for a sprite whose policy was never set', async () => {
    const vfs = Vfs.skeleton();
    const policies = new SpritePolicies(vfsMachineFs(vfs));
    const before = vfs.snapshot();
    await policies.afterRestore();
    expect(vfs.snapshot()).toBe(before);
    expect(vfs.exists('/.sprite')).toBe(false);
    expect(policies.network).toStrictEqual({ rules: [] });
  });

  it('puts the copy of the policy in force back after a restore to a tree without it', async () => {
    const vfs = Vfs.skeleton();
    const policies = new SpritePolicies(vfsMachineFs(vfs));
    const bare = vfs.snapshot();
    await policies.setNetwork({ rules: [{ domain: 'a.com', action: 'allow' }] });
    vfs.restore(bare);
    expect(vfs.exists(NETWORK_POLICY_PATH)).toBe(false);
    await policies.afterRestore();
    expect(policyOnDisk(vfs)).toStrictEqual({ rules: [{ domain: 'a.com', action: 'allow' }] });
    expect(new TextDecoder().decode(vfs.readFile(NETWORK_POLICY_PATH))).toBe(
      '{\n  "rules": [\n    {\n      "domain": "a.com",\n      "action": "allow"\n    }\n  ]\n}\n',
    );
    expect(vfs.stat(NETWORK_POLICY_PATH).mode).toBe(0o444);
  });

  it('keeps answering the policy when the restored tree blocks the copy', async () => {
    const vfs = Vfs.skeleton();
    const policies = new SpritePolicies(vfsMachineFs(vfs));
    await policies.setNetwork({ rules: [{ include: 'defaults' }] });
    vfs.rm('/.sprite', { recursive: true });
    vfs.writeFile('/.sprite', 'a file where the policy directory was');
    await expect(policies.afterRestore()).resolves.toBeUndefined();
    expect(policies.network).toStrictEqual({ rules: [{ include: 'defaults' }] });
  });

  it('passes on a failure that is not a filesystem error', async () => {
    const vfs = Vfs.skeleton();
    const fs = vfsMachineFs(vfs);
    let broken = false;
    const flaky: MachineFs = {
      ...fs,
      writeFile: (...args) => (broken ? Promise.reject(new Error('machine gone')) : fs.writeFile(...args)),
    };
    const policies = new SpritePolicies(flaky);
    await policies.setNetwork({ rules: [] });
    broken = true;
    await expect(policies.afterRestore()).rejects.toThrow('machine gone');
  });
});

describe('SpritePolicies persistence hooks (src/server/store)', () => {
  it('reports whether a network policy was ever set', async () => {
    const policies = new SpritePolicies(vfsMachineFs(Vfs.skeleton()));
    expect(policies.networkSet).toBe(false);
    await policies.setNetwork({ rules: [] });
    expect(policies.networkSet).toBe(true);
  });

  it('restores the saved policies without writing to the disk, and rewrites the copy after the next restore', async () => {
    const vfs = Vfs.skeleton();
    const policies = new SpritePolicies(vfsMachineFs(vfs));
    const before = vfs.snapshot();
    const network = { rules: [{ domain: 'b.com', action: 'deny' as const }] };
    policies.restore(network, true, [['resources', { cpus: 2 }]]);
    expect(vfs.snapshot()).toBe(before);
    expect(policies.network).toEqual(network);
    expect(policies.networkSet).toBe(true);
    expect(policies.other.get('resources')).toEqual({ cpus: 2 });
    await policies.afterRestore();
    expect(policyOnDisk(vfs)).toEqual(network);
  });

  it('a restored never-set policy stays off the disk', async () => {
    const vfs = Vfs.skeleton();
    const policies = new SpritePolicies(vfsMachineFs(vfs));
    policies.restore({ rules: [] }, false, []);
    await policies.afterRestore();
    expect(vfs.exists(NETWORK_POLICY_PATH)).toBe(false);
    expect(policies.other.size).toBe(0);
  });
});
