#!/usr/bin/env node
// Runs a TypeScript file with tsx's loader: `node bin/run-ts.js file.ts [args]`.
import { register } from 'tsx/esm/api';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve, sep } from 'node:path';
import { loadServerLibraries } from './server-libraries.js';

const [file, ...args] = process.argv.slice(2);
const path = resolve(file);
// Benchmarks, test fixtures and scripts/ open the database or build the app, so their libraries
// are loaded before the hooks, as by bin/sheaf.js. The web app's own scripts are left out: `prepare`
// (run by every npm install) opens neither, and took 1.1 s with the libraries against 0.4 s without.
if (!path.startsWith(join(fileURLToPath(new URL('..', import.meta.url)), 'web') + sep)) await loadServerLibraries();
register();
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(path).href);
