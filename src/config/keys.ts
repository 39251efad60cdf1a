// The keys `blogctl config get|set|unset|list` knows, with where they live, how they are checked and what
// applies when they are unset.
import { UsageError } from '../errors.js';
import { serviceBaseUrl } from '../lib/url-shape.js';

export interface ConfigKey {
  name: string;
  /** `profile` keys belong to the selected account profile; `global` ones to the whole config. */
  scope: 'profile' | 'global';
  description: string;
  /** What applies when the key is unset (none for base-url and default-site: nothing stands in for them). */
  default?: number;
  parse(value: string): string | number;
}

/** The one place the numeric defaults are written: resolve.ts applies them, `config get|list` show them. */
export const CONFIG_DEFAULTS = {
  timeout: 60,
  'connect-timeout': 10,
  'create-timeout': 600,
  retries: 3,
  concurrency: 4,
} as const;

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
      return serviceBaseUrl(value, 'base-url');
    },
  },
  {
    name: 'timeout',
    scope: 'global',
    description: 'Response timeout in seconds',
    default: CONFIG_DEFAULTS['timeout'],
    parse: seconds('timeout'),
  },
  {
    name: 'connect-timeout',
    scope: 'global',
    description: 'Connect timeout in seconds',
    default: CONFIG_DEFAULTS['connect-timeout'],
    parse: seconds('connect-timeout'),
  },
  {
    name: 'create-timeout',
    scope: 'global',
    description: 'Timeout for blog generation in seconds',
    default: CONFIG_DEFAULTS['create-timeout'],
    parse: seconds('create-timeout'),
  },
  {
    name: 'retries',
    scope: 'global',
    description: 'Retries for requests safe to repeat',
    default: CONFIG_DEFAULTS['retries'],
    parse: integer('retries', 0, 10),
  },
  {
    name: 'concurrency',
    scope: 'global',
    description: 'Parallel requests for bulk commands',
    default: CONFIG_DEFAULTS['concurrency'],
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
