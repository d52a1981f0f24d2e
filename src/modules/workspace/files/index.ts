/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { deleteFile, readFile, sha256Hex, storeFile } from './service.ts';
export type { FileInfo } from './service.ts';
export {
  FORM_FIELD_MAX_BYTES,
  MULTIPART_LIMITS,
  UPLOAD_MAX_BYTES,
  UPLOAD_TYPES,
  normalizeDeclaredType,
  readTextUploadForm,
  readUploadForm,
  safeUploadName,
  sniffUpload,
  uploadContentType,
} from './uploads.ts';
export type { Upload, UploadForm, UploadKind, UploadType } from './uploads.ts';
