import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

/** Writes `<file>.br` and `<file>.gz` beside every text asset of at least 1 KiB, once, at build time. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'sheaf-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle(options, bundle) {
      const dir = options.dir ?? outDir;
      for (const file of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(file) || file.startsWith('.vite/') || file === 'index.html') continue;
        const path = join(dir, file);
        const body = readFileSync(path);
        if (body.length < 1024) continue;
        writeFileSync(`${path}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}
