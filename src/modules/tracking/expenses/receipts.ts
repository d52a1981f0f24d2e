import { Decimal } from 'decimal.js';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { ApiError, badRequest } from '../../../errors.ts';
import { sha256Hex } from '../../workspace/files/index.ts';

/**
 * Receipts: `POST`/`PATCH /api/v2/expenses` also take `multipart/form-data`,
 * the expense's fields as form fields plus one `receipt` file part (DESIGN.md
 * "Receipts"). This file reads such a body (limits, field types), and checks the
 * file: at most 10 MiB (413), a PDF, PNG, JPEG, GIF or HEIC/HEIF by its magic
 * bytes and by its declared type (415 when either is not one of those, 400 when
 * they disagree), and a safe file name.
 */

export const RECEIPT_MAX_BYTES = 10 * 1024 * 1024;
/** A form field's value (notes are at most 10,000 characters, metadata 4 KB). */
export const FORM_FIELD_MAX_BYTES = 64 * 1024;
const FORM_FIELDS_MAX = 32;

export const RECEIPT_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/heic', 'image/heif'] as const;
export type ReceiptType = (typeof RECEIPT_TYPES)[number];
type Kind = 'pdf' | 'png' | 'jpeg' | 'gif' | 'heic';

const KIND_OF_TYPE: Record<ReceiptType, Kind> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/heic': 'heic',
  'image/heif': 'heic',
};

/** Other names clients use for the accepted types. */
const ALIASES: Record<string, ReceiptType> = {
  'application/x-pdf': 'application/pdf',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/heic-sequence': 'image/heic',
  'image/heif-sequence': 'image/heif',
};

/** Declared types that say nothing: the bytes decide. */
const UNDECLARED = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

const EXTENSION: Record<Kind, string> = { pdf: 'pdf', png: 'png', jpeg: 'jpg', gif: 'gif', heic: 'heic' };

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'heif']);

const startsWith = (data: Buffer, bytes: number[], offset = 0) =>
  data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);

/**
 * The receipt type the bytes are, by their magic numbers, or null. A PDF's
 * header may follow up to 1 KiB of junk, as PDF readers allow; HEIC/HEIF is an
 * ISO-BMFF `ftyp` box whose major or a compatible brand is an HEIF brand.
 */
export function sniffReceipt(data: Buffer): ReceiptType | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  const head6 = data.subarray(0, 6).toString('latin1');
  if (head6 === 'GIF87a' || head6 === 'GIF89a') return 'image/gif';
  if (data.subarray(0, 1024).includes('%PDF-', 0, 'latin1')) return 'application/pdf';
  if (data.length >= 12 && data.subarray(4, 8).toString('latin1') === 'ftyp') {
    const boxSize = Math.min(data.readUInt32BE(0), data.length, 256);
    const brands = [data.subarray(8, 12).toString('latin1')];
    for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(data.subarray(at, at + 4).toString('latin1'));
    if (brands.some((b) => HEIC_BRANDS.has(b))) return 'image/heic';
    if (brands.some((b) => HEIF_BRANDS.has(b))) return 'image/heif';
  }
  return null;
}

/** The declared type without parameters, lower case, aliases resolved; '' when none. */
export function normalizeDeclaredType(value: string | undefined): string {
  const type = (value ?? '').split(';')[0].trim().toLowerCase();
  return ALIASES[type] ?? type;
}

const isReceiptType = (type: string): type is ReceiptType => (RECEIPT_TYPES as readonly string[]).includes(type);

const ACCEPTED = 'PDF, PNG, JPEG, GIF or HEIC';

/**
 * The content type to store for an upload: the declared one when it is an
 * accepted type matching the bytes, the detected one when nothing useful was
 * declared. 415 when the bytes or the declared type are not an accepted type,
 * 400 when both are accepted types but disagree, or the file is empty.
 */
export function receiptContentType(data: Buffer, declared: string | undefined): ReceiptType {
  if (data.length === 0) throw badRequest('The receipt file is empty.', { field: 'receipt' });
  const type = normalizeDeclaredType(declared);
  if (!UNDECLARED.has(type) && !isReceiptType(type)) {
    // RFC 7578: a file part without a Content-Type header is text/plain.
    const hint = type === 'text/plain' ? " (a file part without a Content-Type header counts as text/plain: send the file's type)" : '';
    throw new ApiError('unsupported_media_type', `A receipt must be a ${ACCEPTED} file; '${type}' is not accepted${hint}.`, { field: 'receipt' });
  }
  const detected = sniffReceipt(data);
  if (!detected) {
    throw new ApiError('unsupported_media_type', `A receipt must be a ${ACCEPTED} file; the uploaded bytes are none of these.`, {
      field: 'receipt',
    });
  }
  if (UNDECLARED.has(type)) return detected;
  if (KIND_OF_TYPE[type as ReceiptType] !== KIND_OF_TYPE[detected]) {
    throw badRequest(`The receipt is declared as ${type} but its content is ${detected}.`, { field: 'receipt' });
  }
  return type as ReceiptType;
}

/**
 * A file name safe to store and to send back in Content-Disposition: the last
 * path segment, without control characters, at most 255 characters (keeping the
 * extension); `receipt.<ext>` when nothing is left.
 */
export function safeFileName(name: string | undefined, type: ReceiptType): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  let clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (clean === '' || clean === '.' || clean === '..') clean = `receipt.${EXTENSION[KIND_OF_TYPE[type]]}`;
  const chars = [...clean];
  if (chars.length > 255) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 16 ? [...clean.slice(dot)] : [];
    clean = [...chars.slice(0, 255 - ext.length), ...ext].join('');
  }
  return clean;
}

/** A checked upload, ready to store. */
export interface ReceiptUpload {
  filename: string;
  contentType: ReceiptType;
  data: Buffer;
  sha256: string;
}

/** What a multipart body carries: its text fields (JSON-typed fields already parsed) and the receipt. */
export interface ReceiptForm {
  fields: Record<string, unknown>;
  /** The fields sent as `Content-Type: application/json` parts (their values are already JSON values). */
  jsonFields: Set<string>;
  receipt: ReceiptUpload | null;
}

/** Maps @fastify/multipart's and busboy's errors to the API's. */
function multipartError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; message?: string };
  switch (e?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiError('payload_too_large', `The receipt is larger than the ${RECEIPT_MAX_BYTES / 1024 / 1024} MiB limit.`, { field: 'receipt' });
    case 'FST_FILES_LIMIT':
      return badRequest('Send at most one file part, named receipt.', { field: 'receipt' });
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new ApiError('payload_too_large', 'The form has too many parts.');
    case 'FST_PROTO_VIOLATION':
      return badRequest('A form field name is not allowed.');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('A form field declared as application/json is not valid JSON.');
  }
  return badRequest(`The multipart/form-data body is malformed${e?.message ? `: ${e.message}` : ''}.`);
}

/**
 * Reads a multipart body: every text field once (a repeated name is a 400), at
 * most one file part, which must be named `receipt`, at most 10 MiB (413).
 */
export async function readReceiptForm(request: FastifyRequest): Promise<ReceiptForm> {
  const fields: Record<string, unknown> = {};
  const jsonFields = new Set<string>();
  let receipt: ReceiptUpload | null = null;
  try {
    const parts: AsyncIterableIterator<Multipart> = request.parts({
      limits: {
        fileSize: RECEIPT_MAX_BYTES,
        files: 1,
        fields: FORM_FIELDS_MAX,
        parts: FORM_FIELDS_MAX + 1,
        fieldSize: FORM_FIELD_MAX_BYTES,
        fieldNameSize: 100,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'receipt') {
          part.file.resume();
          throw new ApiError('unknown_field', `Unknown file part '${part.fieldname}'; the receipt's part is named receipt.`, {
            field: part.fieldname,
          });
        }
        const data = await part.toBuffer();
        const contentType = receiptContentType(data, part.mimetype);
        receipt = { filename: safeFileName(part.filename, contentType), contentType, data, sha256: sha256Hex(data) };
        continue;
      }
      const name = part.fieldname;
      if (name === 'receipt') throw badRequest('receipt must be a file part (with a filename), not a text field.', { field: 'receipt' });
      if (part.valueTruncated || part.fieldnameTruncated) {
        throw new ApiError('payload_too_large', `The form field '${name}' is larger than ${FORM_FIELD_MAX_BYTES / 1024} KiB.`, { field: name });
      }
      if (Object.hasOwn(fields, name)) throw badRequest(`The form field '${name}' is given more than once.`, { field: name });
      fields[name] = part.value;
      if (part.mimetype === 'application/json') jsonFields.add(name);
    }
  } catch (err) {
    throw multipartError(err);
  }
  return { fields, jsonFields, receipt };
}

// ---- form fields to a JSON-shaped body ----

export type FormFieldType = 'string' | 'number' | 'boolean' | 'json';

const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** Whether the number is exactly the decimal written (decimal.js reads a number by its shortest rendering). */
const sameDecimal = (text: string, n: number) => new Decimal(text).eq(new Decimal(n));

/**
 * Converts text form fields to the JSON types the body schema expects, so a
 * multipart body is validated exactly as a JSON one: numbers (`12.50`),
 * booleans (`true`/`false`), JSON objects (`{"k":"v"}` or `null`). A value that
 * does not convert is a 400 naming the field; unknown names pass through for
 * the schema to refuse. A part sent with `Content-Type: application/json` arrives
 * parsed and is passed on unchanged (`12`, `true`, `{"k":1}`), for the schema
 * to check like a JSON body's property.
 */
export function formToBody(
  fields: Record<string, unknown>,
  types: Record<string, FormFieldType>,
  jsonFields: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(fields)) {
    const type = types[name];
    // Unknown names, text fields, and parts sent as application/json (already
    // parsed to their JSON value, a JSON string too) go to the schema as they are,
    // so a JSON part is checked exactly as the same property of a JSON body.
    if (type === undefined || type === 'string' || jsonFields.has(name) || typeof raw !== 'string') {
      body[name] = raw;
      continue;
    }
    if (type === 'json') {
      try {
        body[name] = JSON.parse(raw);
      } catch {
        throw badRequest(`${name} must be a JSON object (or null).`, { field: name });
      }
      continue;
    }
    const text = raw.trim();
    if (type === 'number') {
      if (!DECIMAL.test(text)) throw badRequest(`${name} must be a number.`, { field: name });
      const n = Number(text);
      // The exact digits must survive the conversion (never a silently rounded amount).
      if (!Number.isFinite(n) || !sameDecimal(text, n)) throw badRequest(`${name} has more digits than it can take.`, { field: name });
      body[name] = n;
    } else {
      if (text !== 'true' && text !== 'false') throw badRequest(`${name} must be true or false.`, { field: name });
      body[name] = text === 'true';
    }
  }
  return body;
}
