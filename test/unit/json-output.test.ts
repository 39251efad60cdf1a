// jsonOutput(): how every command reads `--json [fields]`.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { fieldsOf, jsonOutput } from '../../src/output/json.js';

function fakeIO(): {
  json: (v: unknown) => void;
  warn: (t: string) => void;
  docs: unknown[];
  warnings: string[];
} {
  const docs: unknown[] = [];
  const warnings: string[] = [];
  return { json: (v) => docs.push(v), warn: (t) => warnings.push(t), docs, warnings };
}

describe('jsonOutput', () => {
  it('every form of --json is enabled: bare, --json= (as commander gives it) and a field list', () => {
    expect(jsonOutput(undefined, ['a']).enabled).toBe(false);
    expect(jsonOutput(false, ['a']).enabled).toBe(false);
    for (const flag of [true, '', 'a']) expect(jsonOutput(flag, ['a']).enabled).toBe(true);
    expect(jsonOutput('', ['a']).fields).toBeUndefined();
  });

  it('a fixed shape refuses an unknown field (exit 2), naming it and every available field', () => {
    const run = (): unknown => jsonOutput('id,bogus,nope', ['id', 'url']);
    expect(run).toThrow(UsageError);
    expect(run).toThrow('--json: unknown fields "bogus", "nope" (available: id, url)');
    expect(() => jsonOutput('bogus', ['id'])).toThrow('--json: unknown field "bogus" (available: id)');
  });

  it('a dotted path is checked by its first field', () => {
    const io = fakeIO();
    jsonOutput('user.roles', ['user']).print(io, { user: { roles: ['admin'], id: 1 }, other: 2 });
    expect(io.docs).toEqual([{ 'user.roles': ['admin'] }]);
    expect(() => jsonOutput('usr.roles', ['user'])).toThrow('unknown field "usr.roles"');
  });

  it('selects from each element of an array; without fields prints the whole value', () => {
    const io = fakeIO();
    jsonOutput('id', ['id', 'url']).print(io, [
      { id: 1, url: 'a' },
      { id: 2, url: 'b' },
    ]);
    jsonOutput(true, ['id']).print(io, { id: 1, url: 'a' });
    jsonOutput(undefined, ['id']).print(io, { id: 1, url: 'a' });
    expect(io.docs).toEqual([[{ id: 1 }, { id: 2 }], { id: 1, url: 'a' }, { id: 1, url: 'a' }]);
  });

  it('an open shape accepts any field and warns about one that no item has', () => {
    const io = fakeIO();
    jsonOutput('id,bogus', { open: 'blog' }).print(io, [{ id: 1, title: 't' }, { id: 2 }]);
    expect(io.docs).toEqual([[{ id: 1 }, { id: 2 }]]);
    expect(io.warnings).toEqual(['--json: no blog has the field "bogus" (it has: id, title)']);
  });

  it('an open shape: the singular for one item, nothing when some item has it or there are none', () => {
    const io = fakeIO();
    jsonOutput('a,b', { open: 'blog' }).print(io, { id: 1 });
    expect(io.warnings).toEqual(['--json: the blog has no fields "a", "b" (it has: id)']);
    const quiet = fakeIO();
    jsonOutput('a', { open: 'blog' }).print(quiet, [{ id: 1 }, { a: 2 }]);
    jsonOutput('a', { open: 'blog' }).print(quiet, []);
    jsonOutput(true, { open: 'blog' }).print(quiet, [{ id: 1 }]);
    expect(quiet.warnings).toEqual([]);
  });

  it('fieldsOf lists the keys it is given', () => {
    expect(fieldsOf<{ a: number; b?: string }>({ a: true, b: true })).toEqual(['a', 'b']);
  });
});
