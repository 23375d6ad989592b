import { describe, expect, it } from 'vitest';
import { StatusCounts, type StatusSource } from './status-counts.ts';

type S = 'on' | 'off';

/** An item that is `on` until `offAt` (epoch ms), then `off`; `forced` overrides (an input change). */
class Item implements StatusSource<S> {
  asked = 0;
  forced: S | undefined;
  constructor(public offAt: number) {}
  statusAt(now: number): { status: S; until: number } {
    this.asked++;
    if (this.forced) return { status: this.forced, until: Infinity };
    return now < this.offAt ? { status: 'on', until: this.offAt } : { status: 'off', until: Infinity };
  }
}

const fresh = () => new StatusCounts<S, Item>(['on', 'off']);

describe('status counts', () => {
  it('start at zero for every status and count added items at the next count', () => {
    const c = fresh();
    expect(c.at(0)).toStrictEqual({ on: 0, off: 0 });
    c.add(new Item(10));
    c.add(new Item(0));
    expect(c.at(5)).toStrictEqual({ on: 1, off: 1 });
  });

  it('move an item when the clock reaches its change, each at its own time, looking at no other', () => {
    const c = fresh();
    const items = [new Item(10), new Item(20), new Item(30)];
    for (const i of items) c.add(i);
    expect(c.at(0)).toStrictEqual({ on: 3, off: 0 });
    expect(c.at(9)).toStrictEqual({ on: 3, off: 0 });
    expect(c.at(10)).toStrictEqual({ on: 2, off: 1 });
    expect(c.at(25)).toStrictEqual({ on: 1, off: 2 });
    expect(c.at(30)).toStrictEqual({ on: 0, off: 3 });
    expect(items.map((i) => i.asked)).toStrictEqual([2, 2, 2]);
    expect(c.at(100)).toStrictEqual({ on: 0, off: 3 });
    expect(c.at(100)).toStrictEqual({ on: 0, off: 3 });
    expect(items.map((i) => i.asked)).toStrictEqual([2, 2, 2]);
    // Statuses that hold until something happens leave nothing waiting.
    expect(c.pending).toBe(0);
  });

  it('read a changed item again, once however often it changed, and only it', () => {
    const c = fresh();
    const [a, b] = [new Item(100), new Item(100)];
    c.add(a);
    c.add(b);
    c.at(0);
    a.forced = 'off';
    c.changed(a);
    c.changed(a);
    expect(c.at(1)).toStrictEqual({ on: 1, off: 1 });
    expect([a.asked, b.asked]).toStrictEqual([2, 1]);
    // Its earlier moment (100) is stale: passing it changes nothing and asks no one.
    expect(c.at(150)).toStrictEqual({ on: 0, off: 2 });
    expect([a.asked, b.asked]).toStrictEqual([2, 2]);
  });

  it('forget removed items, and a change reported by one after it went', () => {
    const c = fresh();
    const [a, b] = [new Item(10), new Item(50)];
    c.add(a);
    c.add(b);
    expect(c.at(0)).toStrictEqual({ on: 2, off: 0 });
    c.remove(a);
    c.changed(a);
    expect(c.at(20)).toStrictEqual({ on: 1, off: 0 });
    expect(a.asked).toBe(1);
    c.remove(a); // twice: nothing more
    c.remove(new Item(0)); // never added
    expect(c.at(60)).toStrictEqual({ on: 0, off: 1 });
  });

  it('forget an item removed before it was ever counted', () => {
    const c = fresh();
    const a = new Item(10);
    c.add(a);
    c.remove(a);
    expect(c.at(0)).toStrictEqual({ on: 0, off: 0 });
    expect(a.asked).toBe(0);
  });

  it('count an item added twice once', () => {
    const c = fresh();
    const a = new Item(10);
    c.add(a);
    c.at(0);
    c.add(a);
    expect(c.at(1)).toStrictEqual({ on: 1, off: 0 });
  });

  it('start again from nothing after clear', () => {
    const c = fresh();
    const a = new Item(10);
    c.add(a);
    c.at(0);
    c.clear();
    expect(c.at(20)).toStrictEqual({ on: 0, off: 0 });
    expect(c.pending).toBe(0);
    c.add(new Item(30));
    expect(c.at(20)).toStrictEqual({ on: 1, off: 0 });
  });

  it('count everything again when the clock goes back', () => {
    const c = fresh();
    const a = new Item(10);
    c.add(a);
    expect(c.at(20)).toStrictEqual({ on: 0, off: 1 });
    expect(c.at(5)).toStrictEqual({ on: 1, off: 0 });
    expect(c.at(15)).toStrictEqual({ on: 0, off: 1 });
  });

  it('answer a copy: changing it changes no later count', () => {
    const c = fresh();
    c.add(new Item(10));
    const first = c.at(0);
    first.on = 99;
    expect(c.at(0)).toStrictEqual({ on: 1, off: 0 });
  });

  it('hand out due moments in time order, whatever order they came in', () => {
    const c = fresh();
    const times = [70, 10, 50, 30, 90, 20, 80, 40, 60, 100, 15, 5];
    const items = times.map((t) => new Item(t));
    for (const i of items) c.add(i);
    c.at(0);
    for (const t of [...times].sort((x, y) => x - y)) {
      expect(c.at(t - 1).off).toBe(times.filter((x) => x < t).length);
      expect(c.at(t).off).toBe(times.filter((x) => x <= t).length);
    }
  });

  it('keep the moments waiting within twice the items (and 64) when one item changes again and again', () => {
    const c = fresh();
    const items = Array.from({ length: 10 }, (_, i) => new Item(1_000_000 + 10 * i));
    for (const i of items) c.add(i);
    c.at(0);
    expect(c.pending).toBe(10);
    // A removed item's moment is stale too.
    c.remove(items[9]!);
    for (let now = 1; now <= 72; now++) {
      c.changed(items[0]!);
      c.at(now);
    }
    expect(c.pending).toBe(2 * 9 + 64);
    c.changed(items[0]!);
    c.at(73);
    expect(c.pending).toBe(9);
    // What is kept still comes due in time order.
    expect(c.at(1_000_000)).toStrictEqual({ on: 8, off: 1 });
    expect(c.at(1_000_045)).toStrictEqual({ on: 4, off: 5 });
    expect(c.at(1_000_080)).toStrictEqual({ on: 0, off: 9 });
  });
});
