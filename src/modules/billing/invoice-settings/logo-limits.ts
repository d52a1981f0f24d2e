/**
 * What a logo may be (logo.ts checks it): the limits alone, without the SVG
 * cleaner's jsdom, for the routes and the web app's upload hint. No imports.
 */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
