import { randomBytes } from 'node:crypto';

/**
 * UUIDv7 (RFC 9562): 48-bit millisecond timestamp, then random bits. Opaque and
 * unguessable to clients, time-ordered for the database's indexes.
 */
export function newId(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a client-supplied id can be a Sheaf id at all (anything else is simply not found). */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
