#!/usr/bin/env node
// `npm run web:size` (WEB-STYLE 6): the first load of the built web app, gzip-compressed,
// from web/dist/.vite/manifest.json: index.html, the entry chunks, every chunk they import
// statically, and their CSS. Fails over 250 KB, when a lazy chunk passes 100 KB, or when
// a chart library is in the first load (charts load on report pages only).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const FIRST_LOAD_BUDGET = 250 * 1024;
const CHUNK_BUDGET = 100 * 1024;
const CHARTS = /echarts|recharts|uplot|chart\.js|d3-/i;
// Chunks with a budget of their own, each loaded only when a person asks for it (never by a page load):
// pdf.js's display layer is ~117 KB gzip by itself (web/src/ui/PdfPages.tsx, which the invoice and estimate
// PDF previews share: a shared chunk, named by the manifest's `name`, docs/decisions.md).
const ON_REQUEST = { PdfPages: 130 * 1024 };

const dist = new URL('../dist/', import.meta.url).pathname;
const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error('web/dist has no manifest: build first (npm run build:web).');
  process.exit(1);
}
const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

// Every entry the page loads: the app (index.html) and the early requests' script (web/src/early.ts).
const entries = Object.keys(m).filter((k) => m[k].isEntry);
const seen = new Set();
const walk = (k) => {
  if (seen.has(k)) return;
  seen.add(k);
  (m[k].imports ?? []).forEach(walk);
};
entries.forEach(walk);

const firstLoad = ['index.html', ...new Set([...seen].flatMap((k) => [m[k].file, ...(m[k].css ?? [])]))];
const rows = firstLoad.map((file) => [file, gz(file)]);
const total = rows.reduce((n, [, size]) => n + size, 0);

const lazy = Object.keys(m)
  .filter((k) => !seen.has(k) && m[k].file.endsWith('.js'))
  .map((k) => [m[k].file, gz(m[k].file), k]);

const problems = [];
if (total > FIRST_LOAD_BUDGET) problems.push(`first load ${kb(total)} is over the ${kb(FIRST_LOAD_BUDGET)} budget`);
for (const [file, size, k] of lazy) {
  const budget = ON_REQUEST[m[k].name] ?? CHUNK_BUDGET;
  if (size > budget) problems.push(`${file} ${kb(size)} is over the ${kb(budget)} chunk budget`);
}
for (const k of seen) if (CHARTS.test(k)) problems.push(`${k} (a chart library) is in the first load`);

const width = Math.max(...[...rows, ...lazy].map(([f]) => f.length), 10);
const line = (name, size) => `  ${name.padEnd(width)}  ${kb(size).padStart(9)}`;
console.log('First load (gzip):');
for (const [file, size] of rows) console.log(line(file, size));
console.log(line('total', total) + `   (budget ${kb(FIRST_LOAD_BUDGET)})`);
console.log(`\nLazy chunks (gzip, budget ${kb(CHUNK_BUDGET)} each):`);
for (const [file, size] of lazy.sort((a, b) => b[1] - a[1])) console.log(line(file, size));

if (problems.length) {
  console.error(`\nweb:size failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('\nweb:size: within budget.');
