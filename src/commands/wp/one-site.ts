// `--site` of the wp verbs that act on one site.
import { InvalidArgumentError } from 'commander';

/**
 * `--site` names one site: a second one is refused (exit 2) rather than silently replacing the first. One run
 * publishes to one site, so its identities, look-ups and failures belong to that site; a shell loop publishes
 * to several.
 */
export function oneSite(value: string, previous: string | undefined): string {
  if (previous !== undefined)
    throw new InvalidArgumentError(
      `--site given twice ("${previous}", then "${value}"): one site per run; run once for each site`,
    );
  return value;
}
