import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import PDFDocument from 'pdfkit';
import { ApiError, badRequest } from '../../../errors.ts';
import { LOGO_MAX_BYTES, LOGO_TYPES, type LogoType } from './logo-limits.ts';

/**
 * The invoice logo (issue 25 item 1): a PNG, JPEG or SVG file of at most
 * 512 KiB. The type is decided by the bytes (the declared type only has to
 * agree), PNG and JPEG must be images pdfkit can place, and an SVG is refused
 * when it carries anything active or external (script elements, event-handler
 * attributes, links or images outside the file, foreignObject): a logo has no
 * use for them, and refusing says so instead of printing something other than
 * what was uploaded. What passes is still run through DOMPurify's SVG profile
 * before it is stored, so what the browser and the PDF read is the cleaned file.
 */


const ALIASES: Record<string, LogoType> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'image/svg': 'image/svg+xml' };
/** Declared types that say nothing: the bytes decide. */
const UNDECLARED = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

const invalid = (message: string) => new ApiError('unsupported_media_type', message, { field: 'logo' });

/** The logo type the bytes are, or null. */
export function sniffLogo(data: Buffer): LogoType | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  const head = data.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '');
  // An XML declaration, comments and a doctype may come before the root element.
  const rest = head.replace(/^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*/i, '');
  if (/^<svg[\s>]/.test(rest)) return 'image/svg+xml';
  return null;
}

export interface CheckedLogo {
  contentType: LogoType;
  data: Buffer;
}

/**
 * Checks an upload and returns what to store: 413 over the size limit, 415 when
 * the bytes or the declared type are not PNG, JPEG or SVG, 400 when they disagree,
 * the image cannot be read, or an SVG has active or external content.
 */
export function checkLogo(data: Buffer, declared: string | undefined): CheckedLogo {
  if (data.length === 0) throw badRequest('The logo file is empty.', { field: 'logo' });
  if (data.length > LOGO_MAX_BYTES) throw new ApiError('payload_too_large', `The logo is larger than the ${LOGO_MAX_BYTES / 1024} KiB limit.`, { field: 'logo' });
  const raw = (declared ?? '').split(';')[0].trim().toLowerCase();
  const type = ALIASES[raw] ?? raw;
  if (!UNDECLARED.has(type) && !(LOGO_TYPES as readonly string[]).includes(type)) {
    throw invalid(`A logo must be a PNG, JPEG or SVG image; '${type}' is not accepted.`);
  }
  const detected = sniffLogo(data);
  if (!detected) throw invalid('A logo must be a PNG, JPEG or SVG image; the uploaded file is none of these.');
  if (!UNDECLARED.has(type) && type !== detected) throw badRequest(`The logo is declared as ${type} but its content is ${detected}.`, { field: 'logo' });
  if (detected === 'image/svg+xml') return { contentType: detected, data: Buffer.from(sanitizeSvg(data.toString('utf8'))) };
  try {
    // pdfkit reads the image as it will when printing it: a file it cannot place is refused now, not at print time.
    (new PDFDocument({ autoFirstPage: false }) as unknown as ImageOpener).openImage(data);
  } catch {
    throw badRequest(`The logo is not a readable ${detected === 'image/png' ? 'PNG' : 'JPEG'} image.`, { field: 'logo' });
  }
  return { contentType: detected, data };
}

/** pdfkit's image reader (in its JavaScript, not in its type declarations). */
export interface ImageOpener {
  openImage(src: Buffer): { width: number; height: number };
}

const window = new JSDOM('').window;
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);

const ACTIVE_ELEMENTS = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'audio', 'video', 'handler', 'listener']);

/** What makes an SVG active or external, or null: the first such thing found. */
export function svgHazard(svg: Document): string | null {
  for (const el of Array.from(svg.getElementsByTagName('*'))) {
    const name = el.localName.toLowerCase();
    if (ACTIVE_ELEMENTS.has(name)) return `a <${el.localName}> element`;
    for (const attr of Array.from(el.attributes)) {
      const attrName = attr.localName.toLowerCase();
      if (attrName.startsWith('on')) return `an event handler (${attr.name})`;
      if (attrName === 'href' || attrName === 'src') {
        if (!attr.value.trim().startsWith('#')) return `a link outside the file (${attr.name})`;
      }
      if (attrName === 'style' && /url\s*\(\s*['"]?(?!#)/i.test(attr.value)) return 'a style that loads something from outside the file';
    }
    if (name === 'style' && /@import|url\s*\(\s*['"]?(?!#)/i.test(el.textContent ?? '')) return 'a style sheet that loads something from outside the file';
  }
  return null;
}

/** Parses, refuses active or external content (400 naming `logo`), and returns DOMPurify's cleaned SVG. */
export function sanitizeSvg(text: string): string {
  const parsed = new window.DOMParser().parseFromString(text, 'image/svg+xml');
  if (parsed.getElementsByTagName('parsererror').length > 0 || parsed.documentElement.localName !== 'svg') {
    throw badRequest('The SVG logo is not well-formed XML with an <svg> root.', { field: 'logo' });
  }
  const hazard = svgHazard(parsed);
  if (hazard) throw badRequest(`The SVG logo contains ${hazard}; logos may not carry scripts or load anything from outside the file.`, { field: 'logo' });
  // The root alone (no XML declaration or doctype). DOMPurify's HTML parser reads SVG as
  // foreign content and keeps its mixed-case names (viewBox, linearGradient); `use` is
  // allowed back, as its links were just checked to stay inside the file.
  const root = new window.XMLSerializer().serializeToString(parsed.documentElement);
  const clean = purify.sanitize(root, { USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['use'] });
  const check = new window.DOMParser().parseFromString(clean, 'image/svg+xml');
  if (check.getElementsByTagName('parsererror').length > 0 || check.documentElement.localName !== 'svg') {
    throw badRequest('The SVG logo has nothing printable left after cleaning.', { field: 'logo' });
  }
  return clean;
}

const EXTENSION: Record<LogoType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/svg+xml': 'svg' };

/** The name to keep with the file: the upload's last path segment without control characters, else `logo.<ext>`. */
export function logoFileName(name: string | undefined, type: LogoType): string {
  // eslint-disable-next-line no-control-regex
  const base = (name ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base && base !== '.' && base !== '..' ? [...base].slice(-255).join('') : `logo.${EXTENSION[type]}`;
}
