import { expect, test } from './fixtures.ts';
import { visit } from './visit.ts';

/**
 * The web app installs on a phone's home screen (issue 21, item 13): index.html links a
 * manifest served as application/manifest+json under the unchanged CSP, with the app's
 * name, a start_url inside the app, standalone display, a theme color, and 192 and 512 px
 * PNG icons (one maskable) that are reachable and are the size they claim.
 */

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => ({ png: bytes.subarray(1, 4).toString() === 'PNG', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

test('the manifest is linked, served with its content type, and names reachable icons of the sizes it claims', async ({ page }) => {
  await visit(page, '/', 'manifest-home');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#115e59');

  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  expect(res.headers()['content-security-policy']).toContain("default-src 'self'"); // the same policy as every file of the app
  const manifest = await res.json();
  expect(manifest).toMatchObject({ name: 'Sheaf', short_name: 'Sheaf', start_url: '/', scope: '/', display: 'standalone', theme_color: '#115e59' });
  expect(new URL(manifest.start_url, res.url()).origin).toBe(new URL(res.url()).origin);

  const purposes = new Set<string>();
  const sizes = new Set<string>();
  for (const icon of manifest.icons as Array<{ src: string; sizes: string; type: string; purpose?: string }>) {
    expect(icon.type).toBe('image/png');
    const file = await page.request.get(new URL(icon.src, res.url()).href);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type']).toBe('image/png');
    const { png, width, height } = pngSize(await file.body());
    expect(png, icon.src).toBe(true);
    expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    sizes.add(icon.sizes);
    for (const p of (icon.purpose ?? 'any').split(' ')) purposes.add(p);
  }
  expect([...sizes].sort()).toEqual(['192x192', '512x512']);
  expect([...purposes].sort()).toEqual(['any', 'maskable']);
});
