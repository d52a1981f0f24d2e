import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go: only public unicast addresses, unless the operator allows private
 * ones (WEBHOOK_ALLOW_PRIVATE, for a receiver on the same network). The check runs on the
 * address the connection is made to (guardedLookup is the request's own DNS lookup), so a
 * name that resolved to a public address when the endpoint was saved and to 127.0.0.1 at
 * delivery (DNS rebinding) is refused at delivery.
 */

/** True for a public unicast address; false for private, loopback, link-local, CGNAT, multicast, reserved and the like. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === 'unicast';
}

export class PrivateAddressError extends Error {
  readonly code = 'EWEBHOOKPRIVATE';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private, loopback or link-local address (set WEBHOOK_ALLOW_PRIVATE=true to allow it)`);
  }
}

/** A literal IP host (brackets removed), or null for a name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : null;
}

export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/**
 * The first non-public address a host stands for, or null: a literal address is checked
 * as it is, a name through `resolve`. A name that does not resolve is not refused here
 * (the delivery fails instead, and is retried).
 */
export async function privateAddressOf(hostname: string, resolve: Resolver = systemResolver): Promise<string | null> {
  // "localhost." is localhost: a name's closing dot (the root) changes nothing, but the resolver may not know it.
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  const literal = literalAddress(name);
  if (literal) return isPublicAddress(literal) ? null : literal;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(name);
  } catch {
    return null;
  }
  return addresses.find((a) => !isPublicAddress(a.address))?.address ?? null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` of an outgoing request: resolves as Node would, and fails the connection
 * when any address of the name is not public. Node calls it with `all: true` when it
 * tries several addresses (autoSelectFamily), and without otherwise.
 */
export function guardedLookup(resolve: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((a) => !isPublicAddress(a.address));
        if (refused) return callback(new PrivateAddressError(hostname, refused.address), options.all ? [] : '');
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, options.all ? [] : ''),
    );
  };
}
