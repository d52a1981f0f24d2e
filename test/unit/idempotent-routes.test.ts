import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../cli-runner.ts';

/**
 * Every route that accepts an Idempotency-Key hands its service requestDb(request)
 * (src/http/idempotency.ts), never app.db: only then does its work commit in the
 * same transaction as the stored response, so a crash between the two cannot
 * leave an invoice created and its key unanswerable (or answer a retry with a
 * second one). Checked on the route sources, since nothing at run time tells a
 * route that did its work elsewhere from one that did none.
 */
it('idempotent routes run their work on requestDb(request)', () => {
  const dir = join(ROOT, 'src/modules');
  let checked = 0;
  let declared = 0;
  // every routes file of every area, src/modules/<domain>/<area>/(web-)routes.ts
  const routesFiles = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /(^|\/)(web-)?routes\.ts$/.test(f));
  for (const module of routesFiles) {
    const source = readFileSync(join(dir, module), 'utf8');
    declared += source.split('idempotent: true').length - 1;
    // One block per route registration: `app.post(`, `timers.patch(`, ...
    for (const block of source.split(/\n\s*\w+\.(?:get|post|put|patch|delete)\(\s*\n/).slice(1)) {
      if (!/idempotent: true/.test(block)) continue;
      checked++;
      const route = `${module}: ${/'(\/api\/v2\/[^']*)'/.exec(block)?.[1]}`;
      expect(block, route).toContain('requestDb(request)');
      expect(block, route).not.toContain('app.db');
    }
  }
  // Every declaration was found in a route block of its own (21 routes today).
  expect(checked).toBe(declared);
  expect(checked).toBeGreaterThanOrEqual(21);
});
