import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * package.json's `engines.node` names the Node.js lines CI tests on. Every
 * package the lock file installs must support all of them, or `npm ci` warns
 * EBADENGINE and the promise in the README is not true.
 */
const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8'));

describe('engines', () => {
  const promised: string = pkg.engines.node;

  it('promise the Node.js lines the README names and CI runs', () => {
    expect(semver.validRange(promised)).not.toBeNull();
    for (const version of ['20.19.0', '22.13.0', '24.0.0']) expect(semver.satisfies(version, promised)).toBe(true);
    expect(semver.satisfies(process.version, promised), `this Node.js ${process.version}`).toBe(true);
  });

  it('are supported by every installed package', () => {
    const unsupported = Object.entries(lock.packages as Record<string, { engines?: { node?: string } | string[] }>)
      .filter(([path, entry]) => path !== '' && !Array.isArray(entry.engines) && entry.engines?.node)
      .filter(([, entry]) => !semver.subset(promised, (entry.engines as { node: string }).node, { includePrerelease: true }))
      .map(([path, entry]) => `${path} requires node ${(entry.engines as { node: string }).node}`);
    expect(unsupported).toEqual([]);
  });
});
