import type { FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { ApiError, badRequest } from '../../../errors.ts';
import { sha256Hex } from './service.ts';

/**
 * The checks every uploaded document passes (an expense's receipt, an invoice's
 * attachment; DESIGN.md "Receipts"): at most 10 MiB (413), a PDF, PNG, JPEG, GIF
 * or HEIC/HEIF by its magic bytes and by its declared type (415 when either is
 * not one of those, 400 when they disagree), and a safe file name; and the
 * reading of a multipart/form-data body that carries one such file part.
 * What differs between uploads is only the part's name and the word for it in
 * the messages (`UploadKind`).
 */

export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** A form field's value (notes are at most 10,000 characters, metadata 4 KB). */
export const FORM_FIELD_MAX_BYTES = 64 * 1024;
const FORM_FIELDS_MAX = 32;

export const UPLOAD_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/heic', 'image/heif'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];
type Kind = 'pdf' | 'png' | 'jpeg' | 'gif' | 'heic';

/** What an upload is called: its form part's name and the words the messages use for it. */
export interface UploadKind {
  /** The name of the file part (and the `field` of errors). */
  part: string;
  /** "A receipt", "An attachment": the start of a sentence about one. */
  article: string;
  /** "receipt", "attachment": the word in the middle of a sentence. */
  noun: string;
}

const KIND_OF_TYPE: Record<UploadType, Kind> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/heic': 'heic',
  'image/heif': 'heic',
};

/** Other names clients use for the accepted types. */
const ALIASES: Record<string, UploadType> = {
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
 * The accepted type the bytes are, by their magic numbers, or null. A PDF's
 * header may follow up to 1 KiB of junk, as PDF readers allow; HEIC/HEIF is an
 * ISO-BMFF `ftyp` box whose major or a compatible brand is an HEIF brand.
 */
export function sniffUpload(data: Buffer): UploadType | null {
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

const isUploadType = (type: string): type is UploadType => (UPLOAD_TYPES as readonly string[]).includes(type);

const ACCEPTED = 'PDF, PNG, JPEG, GIF or HEIC';

/**
 * The content type to store for an upload: the declared one when it is an
 * accepted type matching the bytes, the detected one when nothing useful was
 * declared. 415 when the bytes or the declared type are not an accepted type,
 * 400 when both are accepted types but disagree, or the file is empty.
 */
export function uploadContentType(kind: UploadKind, data: Buffer, declared: string | undefined): UploadType {
  const field = kind.part;
  if (data.length === 0) throw badRequest(`The ${kind.noun} file is empty.`, { field });
  const type = normalizeDeclaredType(declared);
  if (!UNDECLARED.has(type) && !isUploadType(type)) {
    // RFC 7578: a file part without a Content-Type header is text/plain.
    const hint = type === 'text/plain' ? " (a file part without a Content-Type header counts as text/plain: send the file's type)" : '';
    throw new ApiError('unsupported_media_type', `${kind.article} must be a ${ACCEPTED} file; '${type}' is not accepted${hint}.`, { field });
  }
  const detected = sniffUpload(data);
  if (!detected) {
    throw new ApiError('unsupported_media_type', `${kind.article} must be a ${ACCEPTED} file; the uploaded bytes are none of these.`, { field });
  }
  if (UNDECLARED.has(type)) return detected;
  if (KIND_OF_TYPE[type as UploadType] !== KIND_OF_TYPE[detected]) {
    throw badRequest(`The ${kind.noun} is declared as ${type} but its content is ${detected}.`, { field });
  }
  return type as UploadType;
}

/**
 * A file name safe to store and to send back in Content-Disposition: the last
 * path segment, without control characters, at most 255 characters (keeping the
 * extension); `<noun>.<ext>` when nothing is left.
 */
export function safeUploadName(kind: UploadKind, name: string | undefined, type: UploadType): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  let clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (clean === '' || clean === '.' || clean === '..') clean = `${kind.noun}.${EXTENSION[KIND_OF_TYPE[type]]}`;
  const chars = [...clean];
  if (chars.length > 255) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 16 ? [...clean.slice(dot)] : [];
    clean = [...chars.slice(0, 255 - ext.length), ...ext].join('');
  }
  return clean;
}

/** A checked upload, ready to store. */
export interface Upload {
  filename: string;
  contentType: UploadType;
  data: Buffer;
  sha256: string;
}

/** What a multipart body carries: its text fields (JSON-typed fields already parsed) and the file. */
export interface UploadForm {
  fields: Record<string, unknown>;
  /** The fields sent as `Content-Type: application/json` parts (their values are already JSON values). */
  jsonFields: Set<string>;
  file: Upload | null;
}

/** Maps @fastify/multipart's and busboy's errors to the API's. */
function multipartError(kind: UploadKind, err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; message?: string };
  switch (e?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiError('payload_too_large', `The ${kind.noun} is larger than the ${UPLOAD_MAX_BYTES / 1024 / 1024} MiB limit.`, { field: kind.part });
    case 'FST_FILES_LIMIT':
      return badRequest(`Send at most one file part, named ${kind.part}.`, { field: kind.part });
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

/** The limits to register @fastify/multipart with, for a plugin whose routes take uploads. */
export const MULTIPART_LIMITS = { fileSize: UPLOAD_MAX_BYTES, files: 1, fieldSize: FORM_FIELD_MAX_BYTES };

/**
 * Reads a multipart body: every text field once (a repeated name is a 400), at
 * most one file part, which must be named `kind.part`, at most 10 MiB (413).
 */
export async function readUploadForm(request: FastifyRequest, kind: UploadKind): Promise<UploadForm> {
  const form = await readForm(request, kind, async (part) => {
    const data = await part.toBuffer();
    const contentType = uploadContentType(kind, data, part.mimetype);
    return { filename: safeUploadName(kind, part.filename, contentType), contentType, data, sha256: sha256Hex(data) };
  });
  return { fields: form.fields, jsonFields: form.jsonFields, file: form.file };
}

/**
 * Reads a multipart body whose file is text of any kind (an import's CSV export): the same
 * limits and answers as readUploadForm (10 MiB, 413; one file part named `kind.part`;
 * fields once each), without the document type checks, which are for stored files. An empty
 * file is the reader's to refuse: the importer says so in a word the web app translates.
 */
export async function readTextUploadForm(request: FastifyRequest, kind: UploadKind): Promise<{ fields: Record<string, string>; file: { filename: string; data: Buffer } | null }> {
  const form = await readForm(request, kind, async (part) => {
    return { filename: part.filename, data: await part.toBuffer() };
  });
  return { fields: Object.fromEntries(Object.entries(form.fields).map(([name, value]) => [name, String(value)])), file: form.file };
}

/** The one multipart reader of both: its limits, its refusals, and `takeFile` for the file part named `kind.part`. */
async function readForm<F>(request: FastifyRequest, kind: UploadKind, takeFile: (part: MultipartFile) => Promise<F>) {
  const fields: Record<string, unknown> = {};
  const jsonFields = new Set<string>();
  let file: F | null = null;
  try {
    const parts: AsyncIterableIterator<Multipart> = request.parts({
      limits: {
        fileSize: UPLOAD_MAX_BYTES,
        files: 1,
        fields: FORM_FIELDS_MAX,
        parts: FORM_FIELDS_MAX + 1,
        fieldSize: FORM_FIELD_MAX_BYTES,
        fieldNameSize: 100,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== kind.part) {
          part.file.resume();
          throw new ApiError('unknown_field', `Unknown file part '${part.fieldname}'; the ${kind.noun}'s part is named ${kind.part}.`, {
            field: part.fieldname,
          });
        }
        file = await takeFile(part);
        continue;
      }
      const name = part.fieldname;
      if (name === kind.part) throw badRequest(`${kind.part} must be a file part (with a filename), not a text field.`, { field: kind.part });
      if (part.valueTruncated || part.fieldnameTruncated) {
        throw new ApiError('payload_too_large', `The form field '${name}' is larger than ${FORM_FIELD_MAX_BYTES / 1024} KiB.`, { field: name });
      }
      if (Object.hasOwn(fields, name)) throw badRequest(`The form field '${name}' is given more than once.`, { field: name });
      fields[name] = part.value;
      if (part.mimetype === 'application/json') jsonFields.add(name);
    }
  } catch (err) {
    throw multipartError(kind, err);
  }
  return { fields, jsonFields, file };
}
