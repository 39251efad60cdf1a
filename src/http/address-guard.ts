// Connecting only to public addresses (HttpClientOptions.publicOnly): a sandbox listening on 0.0.0.0 relays
// publishes to whatever websiteUrl a key holder sends, which would let them reach this machine's own services
// and the private network behind it. The check runs where the connection is made, on every address a name
// resolves to (a name pointing at 10.0.0.5, or changing between a check and the connect, cannot slip
// through), and on an address written in the URL (which Node connects to without a lookup).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { buildConnector } from 'undici';
import { isPrivateAddress } from '../lib/ip-addresses.js';

export interface PublicOnly {
  /** Called with the host (a name or an address) each time a connection is refused. */
  onRefused(host: string): void;
}

/** The code of the connection error a refused address gives. */
export const PRIVATE_ADDRESS_CODE = 'EPRIVATEADDRESS';

function refusal(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${host} is a loopback, link-local or private address`), {
    code: PRIVATE_ADDRESS_CODE,
  });
}

/** dns.lookup that fails when any address the name resolves to is not public. */
export function publicOnlyLookup(guard: PublicOnly): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.some((a) => isPrivateAddress(a.address))) {
        guard.onRefused(hostname);
        return callback(refusal(hostname), '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** undici's connector, refusing addresses that are not public (see the file's comment). */
export function publicOnlyConnector(
  build: typeof buildConnector,
  connectTimeoutMs: number,
  guard: PublicOnly,
): buildConnector.connector {
  const connectPublic = build({ timeout: connectTimeoutMs, lookup: publicOnlyLookup(guard) });
  return (options, callback) => {
    // An address in the URL is connected to without a lookup: check it here.
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isPrivateAddress(host)) {
      guard.onRefused(host);
      callback(refusal(host), null);
      return;
    }
    connectPublic(options, callback);
  };
}
