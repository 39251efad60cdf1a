// The keys `blogctl config get|set|unset|list` knows, with where they live and how they are checked.
import { UsageError } from '../errors.js';

export interface ConfigKey {
  name: string;
  /** `profile` keys belong to the selected account profile; `global` ones to the whole config. */
  scope: 'profile' | 'global';
  description: string;
  parse(value: string): string | number;
}

const seconds = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400)
    throw new UsageError(`${name}: expected a number of seconds between 0 and 86400, got "${value}"`);
  return n;
};
const integer = (name: string, min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${name}: expected a whole number from ${min} to ${max}, got "${value}"`);
  return n;
};

export const CONFIG_KEYS: ConfigKey[] = [
  {
    name: 'base-url',
    scope: 'profile',
    description: 'Base URL of the service (the part before /api/v1/public)',
    parse(value) {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new UsageError(`base-url: not a URL: "${value}"`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new UsageError(`base-url: must be http or https, got "${value}"`);
      return value.replace(/\/+$/, '').replace(/\/api\/v1\/public$/, '');
    },
  },
  {
    name: 'timeout',
    scope: 'global',
    description: 'Response timeout in seconds (default 60)',
    parse: seconds('timeout'),
  },
  {
    name: 'connect-timeout',
    scope: 'global',
    description: 'Connect timeout in seconds (default 10)',
    parse: seconds('connect-timeout'),
  },
  {
    name: 'create-timeout',
    scope: 'global',
    description: 'Timeout for blog generation in seconds (default 600)',
    parse: seconds('create-timeout'),
  },
  {
    name: 'retries',
    scope: 'global',
    description: 'Retries for requests safe to repeat (default 3)',
    parse: integer('retries', 0, 10),
  },
  {
    name: 'concurrency',
    scope: 'global',
    description: 'Parallel requests for bulk commands (default 4)',
    parse: integer('concurrency', 1, 64),
  },
  {
    name: 'default-site',
    scope: 'global',
    description: 'WordPress site profile used when --site is not given',
    parse(value) {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value))
        throw new UsageError(`default-site: not a site id: "${value}"`);
      return value;
    },
  },
];

export function findKey(name: string): ConfigKey {
  const key = CONFIG_KEYS.find((k) => k.name === name);
  if (!key)
    throw new UsageError(
      `unknown config key "${name}" (known: ${CONFIG_KEYS.map((k) => k.name).join(', ')})`,
    );
  return key;
}
