import { createHash } from 'node:crypto';
import type { Tx } from '../../../db/tenant.ts';
import { newId } from '../../../ids.ts';

/**
 * Uploaded files (receipts, attachments) in the `files` table: the bytes as
 * bytea with their SHA-256, size, content type and file name. Stored in the
 * caller's tenant transaction, so a file and the record that points at it are
 * written (or rolled back) together and are backed up with the database.
 */

export interface FileInfo {
  id: string;
  filename: string;
  content_type: string;
  byte_size: number;
  sha256: string;
  created_at: Date;
}

export interface StoredFile extends FileInfo {
  data: Buffer;
}

export interface NewFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Lower-case hex SHA-256 of the bytes (the `sha256` column). */
export const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Stores the bytes and returns the new file's description (never the bytes). */
export async function storeFile(trx: Tx, companyId: string, file: NewFile, now: Date): Promise<FileInfo> {
  const info: FileInfo = {
    id: newId(now.getTime()),
    filename: file.filename,
    content_type: file.contentType,
    byte_size: file.data.length,
    sha256: sha256Hex(file.data),
    created_at: now,
  };
  await trx
    .insertInto('files')
    .values({ company_id: companyId, ...info, data: file.data })
    .execute();
  return info;
}

/** A file with its bytes, or undefined. */
export async function readFile(trx: Tx, companyId: string, id: string): Promise<StoredFile | undefined> {
  return trx
    .selectFrom('files')
    .select(['id', 'filename', 'content_type', 'byte_size', 'sha256', 'created_at', 'data'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Deletes a file; the caller makes sure nothing points at it any more. */
export async function deleteFile(trx: Tx, companyId: string, id: string): Promise<void> {
  await trx.deleteFrom('files').where('company_id', '=', companyId).where('id', '=', id).execute();
}
