import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm install && npm start` serves a current web app with nothing else to run:
 * `sheaf serve` (and npm's `prepare` at install) build web/dist when it is missing or
 * older than what it is built from. The build runs in-process through Vite's API.
 */

/** The web app's sources in this checkout. */
export const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));

/** What a build depends on besides web/src: the page, the build's config, and the installed packages. */
const INPUT_FILES = ['index.html', 'vite.config.ts', 'scripts/precompress.ts', '../package-lock.json'];
const INPUT_DIRS = ['src', 'public'];

export type WebBuildState = 'current' | 'missing' | 'stale' | 'no-sources';

/** The newest modification time (ms) of the files under `dir`, 0 for none. */
function newestIn(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether web/dist can be served as it is: 'missing' and 'stale' need a build; 'no-sources' (an installed copy without web/src) cannot have one. */
export function webBuildState(root = WEB_ROOT): WebBuildState {
  if (!existsSync(join(root, 'src'))) return existsSync(join(root, 'dist', 'index.html')) ? 'current' : 'no-sources';
  const manifest = join(root, 'dist', '.vite', 'manifest.json');
  if (!existsSync(manifest) || !existsSync(join(root, 'dist', 'index.html'))) return 'missing';
  const built = statSync(manifest).mtimeMs;
  const inputs = Math.max(
    ...INPUT_FILES.map((f) => (existsSync(join(root, f)) ? statSync(join(root, f)).mtimeMs : 0)),
    ...INPUT_DIRS.map((d) => newestIn(join(root, d))),
  );
  return inputs > built ? 'stale' : 'current';
}

/**
 * Builds web/dist with Vite, into a fresh directory that then takes dist's place, so a
 * server reading dist never sees half a build, and two builds at once (two `sheaf serve`
 * starting together) each leave a whole one.
 */
export async function buildWebApp(root = WEB_ROOT): Promise<void> {
  const { build } = await import('vite');
  const out = mkdtempSync(join(root, '.dist-'));
  try {
    // Errors only: serve's output is no place for bundle-size advice (npm run build:web and web:size show sizes).
    await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'error', build: { outDir: out, emptyOutDir: true } });
    const dist = join(root, 'dist');
    const old = `${dist}.old-${process.pid}`;
    if (existsSync(dist)) renameSync(dist, old);
    try {
      renameSync(out, dist);
    } catch (err) {
      // Another build put its dist there first: it is as good as this one.
      if (!['ENOTEMPTY', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
    rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export interface PrepareIo {
  info(message: string): void;
  warn(message: string): void;
}

/** Whether Vite (a development dependency) is installed, i.e. whether this copy can build the web app. */
async function canBuild(): Promise<boolean> {
  try {
    await import('vite');
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes web/dist current and returns it, or null when there is no web app to serve.
 * A build that fails leaves the previous dist in use (with a warning): the API must not
 * stay down because of the web app.
 */
export async function prepareWebApp(io: PrepareIo, root = WEB_ROOT, builder: (root: string) => Promise<void> = buildWebApp): Promise<string | null> {
  const dist = join(root, 'dist');
  const state = webBuildState(root);
  if (state === 'no-sources') {
    io.warn(`No web app to serve: ${dist} has no index.html and there are no sources to build it from.`);
    return null;
  }
  if (state !== 'current') {
    if (builder === buildWebApp && !(await canBuild())) {
      io.warn('The web app cannot be built here (Vite, a development dependency, is not installed): run "npm run build:web" where it is.');
    } else {
      io.info(`building the web app… (web/dist is ${state === 'missing' ? 'missing' : 'older than its sources'})`);
      try {
        await builder(root);
      } catch (err) {
        io.warn(`The web app could not be built: ${(err as Error).message}`);
      }
    }
  }
  return existsSync(join(dist, 'index.html')) ? dist : null;
}
