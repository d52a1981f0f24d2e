/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { deleteFile, readFile, sha256Hex, storeFile } from './service.ts';
export type { FileInfo } from './service.ts';
