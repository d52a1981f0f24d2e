import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareWebApp, webBuildState } from '../../src/cli/web-build.ts';

/** When `sheaf serve` (and npm's prepare) build web/dist: a stand-in web/ directory, with file times set by hand. */

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const T0 = new Date('2026-01-01T10:00:00Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function webDir({ built, sources = true }: { built?: Date; sources?: boolean }) {
  // A checkout: web/ beside package-lock.json.
  const checkout = mkdtempSync(join(tmpdir(), 'sheaf-checkout-'));
  dirs.push(checkout);
  const root = join(checkout, 'web');
  const write = (path: string, time: Date) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), path);
    utimesSync(join(root, path), time, time);
  };
  mkdirSync(root);
  write('../package-lock.json', T0);
  if (sources) {
    write('index.html', T0);
    write('vite.config.ts', T0);
    write('src/main.tsx', T0);
    write('src/areas/session/SignInPage.tsx', T0);
  }
  if (built) {
    write('dist/index.html', built);
    write('dist/.vite/manifest.json', built);
  }
  return { root, write };
}

const quiet = () => {
  const said: string[] = [];
  return { io: { info: (m: string) => void said.push(`info: ${m}`), warn: (m: string) => void said.push(`warn: ${m}`) }, said };
};

describe('webBuildState', () => {
  it('missing: no dist yet (a fresh checkout)', () => {
    expect(webBuildState(webDir({}).root)).toBe('missing');
  });
  it('current: built after the last change', () => {
    expect(webBuildState(webDir({ built: later(60) }).root)).toBe('current');
  });
  it('stale: a source file deep in web/src changed after the build', () => {
    const { root, write } = webDir({ built: later(60) });
    write('src/areas/session/SignInPage.tsx', later(120));
    expect(webBuildState(root)).toBe('stale');
  });
  it('stale: the installed packages changed (package-lock.json beside web/)', () => {
    const { root, write } = webDir({ built: later(60) });
    write('../package-lock.json', later(120));
    expect(webBuildState(root)).toBe('stale');
  });
  it('no sources and no dist: nothing to serve; no sources but a dist: served as it is', () => {
    expect(webBuildState(webDir({ sources: false }).root)).toBe('no-sources');
    expect(webBuildState(webDir({ sources: false, built: T0 }).root)).toBe('current');
  });
});

describe('prepareWebApp', () => {
  it('builds a missing dist, says so, and returns it', async () => {
    const { root, write } = webDir({});
    const { io, said } = quiet();
    const built: string[] = [];
    const dist = await prepareWebApp(io, root, async (r) => {
      built.push(r);
      write('dist/index.html', later(5));
      write('dist/.vite/manifest.json', later(5));
    });
    expect(built).toEqual([root]);
    expect(dist).toBe(join(root, 'dist'));
    expect(said).toEqual(['info: building the web app… (web/dist is missing)']);
  });

  it('leaves a current dist alone (no build at every start)', async () => {
    const { root } = webDir({ built: later(60) });
    const { io, said } = quiet();
    let builds = 0;
    expect(await prepareWebApp(io, root, async () => void builds++)).toBe(join(root, 'dist'));
    expect(builds).toBe(0);
    expect(said).toEqual([]);
  });

  it('rebuilds a stale dist', async () => {
    const { root, write } = webDir({ built: later(60) });
    write('src/main.tsx', later(120));
    const { io, said } = quiet();
    let builds = 0;
    await prepareWebApp(io, root, async () => void builds++);
    expect(builds).toBe(1);
    expect(said).toEqual(['info: building the web app… (web/dist is older than its sources)']);
  });

  it('a failed build keeps serving the previous dist, with a warning (the API stays up)', async () => {
    const { root, write } = webDir({ built: later(60) });
    write('src/main.tsx', later(120));
    const { io, said } = quiet();
    const dist = await prepareWebApp(io, root, async () => {
      throw new Error('Transform failed: src/main.tsx: Unexpected token');
    });
    expect(dist).toBe(join(root, 'dist'));
    expect(said.at(-1)).toBe('warn: The web app could not be built: Transform failed: src/main.tsx: Unexpected token');
  });

  it('a failed first build serves the API alone', async () => {
    const { root } = webDir({});
    const { io } = quiet();
    expect(await prepareWebApp(io, root, async () => Promise.reject(new Error('no')))).toBeNull();
  });
});
