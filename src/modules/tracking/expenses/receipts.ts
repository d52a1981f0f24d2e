import { Decimal } from 'decimal.js';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../../errors.ts';
import {
  FORM_FIELD_MAX_BYTES,
  UPLOAD_MAX_BYTES,
  UPLOAD_TYPES,
  readUploadForm,
  safeUploadName,
  uploadContentType,
  type Upload,
  type UploadType,
} from '../../workspace/files/index.ts';

/**
 * Receipts: `POST`/`PATCH /api/v2/expenses` also take `multipart/form-data`,
 * the expense's fields as form fields plus one `receipt` file part (DESIGN.md
 * "Receipts"). The file checks (10 MiB, PDF/PNG/JPEG/GIF/HEIC by magic bytes and
 * declared type, a safe name) and the reading of the form are the ones every
 * upload passes (workspace/files/uploads.ts); this file names them for receipts
 * and converts the form's text fields to the JSON body the schemas validate.
 */

const RECEIPT = { part: 'receipt', article: 'A receipt', noun: 'receipt' } as const;

export const RECEIPT_MAX_BYTES = UPLOAD_MAX_BYTES;
export { FORM_FIELD_MAX_BYTES };
export const RECEIPT_TYPES = UPLOAD_TYPES;
export type ReceiptType = UploadType;
export type ReceiptUpload = Upload;

export const receiptContentType = (data: Buffer, declared: string | undefined) => uploadContentType(RECEIPT, data, declared);
export const safeFileName = (name: string | undefined, type: ReceiptType) => safeUploadName(RECEIPT, name, type);

/** What a multipart body carries: its text fields (JSON-typed fields already parsed) and the receipt. */
export interface ReceiptForm {
  fields: Record<string, unknown>;
  /** The fields sent as `Content-Type: application/json` parts (their values are already JSON values). */
  jsonFields: Set<string>;
  receipt: ReceiptUpload | null;
}

/** Reads a multipart body: every text field once, at most one file part, named `receipt`, at most 10 MiB (413). */
export async function readReceiptForm(request: FastifyRequest): Promise<ReceiptForm> {
  const { fields, jsonFields, file } = await readUploadForm(request, RECEIPT);
  return { fields, jsonFields, receipt: file };
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
