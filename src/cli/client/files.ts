import { createWriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError } from '../output.ts';
import type { Output } from '../output.ts';

/**
 * Files the person commands write (export, invoice pdf): a download streamed
 * into a file, never held whole; one that cannot be written is bad input (exit
 * 2) said in words, not node's "ENOENT: no such file or directory, open …".
 */

const WHY: Record<string, (path: string) => string> = {
  ENOENT: (path) => `the directory ${dirname(path)} does not exist`,
  ENOTDIR: (path) => `${dirname(path)} is not a directory`,
  EISDIR: () => 'it is a directory',
  EACCES: () => 'permission denied',
  EPERM: () => 'permission denied',
  EROFS: () => 'the file system is read-only',
};

/** Writes `body` to `path` (named by `option` in errors); returns the bytes written. */
export async function writeDownload(body: Readable, path: string, option: string): Promise<number> {
  let bytes = 0;
  body.on('data', (chunk: Buffer) => (bytes += chunk.length));
  try {
    await pipeline(body, createWriteStream(path));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // Only the file's own failure; a download that broke off is reported as such.
    const why = e.path === path && e.code ? WHY[e.code] : undefined;
    throw why ? new UsageError(`${option}: cannot write ${path}: ${why(path)}.`) : err;
  }
  return bytes;
}

/**
 * --json promises one JSON document on stdout, so a file written to stdout
 * (export without --out, invoice pdf --out -) and --json cannot go together:
 * refused before any request, saying how to have either.
 */
export function refuseJsonOnStdout(output: Output, toStdout: boolean, what: string) {
  if (output.json && toStdout) {
    throw new UsageError(`--json prints one JSON document on stdout, where ${what} would go: write it with --out FILE (--json then describes the file written), or leave out --json.`);
  }
}
