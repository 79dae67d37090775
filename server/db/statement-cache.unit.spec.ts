import { describe, expect, it } from 'vitest';
import { StatementNames } from './statement-cache.js';

describe('statement names', () => {
  it('names a parameterised query from its second use, the same name every time after', () => {
    const names = new StatementNames();
    const text = 'select * from users where id = $1';
    expect(names.nameFor(text)).toBeUndefined();
    const name = names.nameFor(text);
    expect(name).toMatch(/^s\d+$/);
    expect(names.nameFor(text)).toBe(name);
    expect(names.nameFor('select * from users where email = $1')).toBeUndefined();
  });

  it('never names statements without parameters, transaction control or utility statements', () => {
    const names = new StatementNames();
    for (const text of ['begin', 'commit', 'select 1', 'vacuum analyze events', 'create table t (id int)']) {
      names.nameFor(text);
      expect(names.nameFor(text)).toBeUndefined();
    }
  });

  it('stops naming at its bound, so texts of varying shape cannot grow it without limit', () => {
    const names = new StatementNames();
    const given = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const text = `select * from t where id in (${Array.from({ length: i + 1 }, (_, k) => `$${k + 1}`).join(', ')})`;
      names.nameFor(text);
      const name = names.nameFor(text);
      if (name) given.add(name);
    }
    expect(given.size).toBe(400);
  });
});
