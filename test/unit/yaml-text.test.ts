// YAML read within bounds (front matter and blogctl.yml are untrusted text: a post anyone may send in a pull
// request): size, depth and alias expansion each end in an error naming the line and column, quoting nothing.
import { describe, expect, it } from 'vitest';
import { readYaml, YAML_LIMITS, YamlTextError } from '../../src/lib/yaml-text.js';
import { ALIAS_BOMB } from '../helpers/hostile-yaml.js';

function problem(text: string): YamlTextError {
  try {
    readYaml(text);
  } catch (error) {
    if (error instanceof YamlTextError) return error;
    throw error;
  }
  throw new Error('read without a problem');
}

describe('readYaml: bounded', () => {
  it('an alias bomb: refused at the alias where the expansion passes the limit', () => {
    const error = problem(ALIAS_BOMB);
    expect(error.message).toBe(
      `aliases expand to more than ${YAML_LIMITS.maxValues} values at line 6, column 8`,
    );
  });

  it('aliases within the limit are read, merge keys included', () => {
    const { data } = readYaml('base: &b {x: 1, y: [1, 2]}\none: *b\ntwo:\n  <<: *b\n  z: 3\n');
    expect(data).toEqual({
      base: { x: 1, y: [1, 2] },
      one: { x: 1, y: [1, 2] },
      two: { x: 1, y: [1, 2], z: 3 },
    });
  });

  it('nesting past the depth limit, in flow and block collections, before the recursive steps run', () => {
    const depth = YAML_LIMITS.maxDepth;
    const flow = `a: ${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    expect(problem(flow).message).toBe(
      `nested more than ${depth} levels deep at line 1, column ${depth + 4}`,
    );
    // Compact block sequences nest on one line: the library's composer would overflow the stack on these.
    const block = `a:\n  ${'- '.repeat(5_000)}x`;
    expect(problem(block).message).toMatch(new RegExp(`^nested more than ${depth} levels deep at line 2,`));
    expect(readYaml(`a: ${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}`).data).toBeTruthy();
  });

  it('a text longer than the limit, named at the line where it passes it', () => {
    const line = `k${'x'.repeat(98)}\n`;
    const text = line.repeat(Math.ceil((YAML_LIMITS.maxChars + 1) / line.length));
    const error = problem(text);
    expect(error.reason).toBe(`longer than ${YAML_LIMITS.maxChars} characters`);
    expect(error.line).toBe(Math.floor(YAML_LIMITS.maxChars / line.length) + 1);
  });

  it('thousands of keys in one mapping: a key written twice found without comparing every pair', () => {
    const keys = Array.from({ length: 5_000 }, (_, i) => `k${i}: ${i}`);
    expect(Object.keys(readYaml(keys.join('\n')).data as object)).toHaveLength(5_000);
    expect(problem(`${keys.join('\n')}\nk7: again`).message).toBe(
      'a key written twice at line 5001, column 1',
    );
  });

  it('positions of keys and items, and plain scalars as written', () => {
    const yaml = readYaml(
      '\nsite: blog\ndefaults:\n  status: draft\nsources:\n  - posts\n  - more\nslug: 007\n',
    );
    expect(yaml.lineOf(['defaults', 'status'])).toBe(4);
    expect(yaml.lineOf(['sources', 1])).toBe(7);
    expect(yaml.lineOf(['defaults', 'nothing'])).toBe(3);
    expect(yaml.plainScalarOf('slug')).toBe('007');
    expect(yaml.plainScalarOf('site')).toBe('blog');
    expect(yaml.plainScalarOf('defaults')).toBeUndefined();
  });

  it('quotes nothing of the text in a reason', () => {
    for (const text of ['a: !secret-tag x', 'a: *secret_anchor', '[secret]: 1', 'a: 1\n---\nb: 2'])
      expect(problem(text).message).not.toContain('secret');
  });
});
