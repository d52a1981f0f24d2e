#!/usr/bin/env node
// Runs a TypeScript file with tsx's loader: `node bin/run-ts.js file.ts [args]`.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { loadServerLibraries } from './server-libraries.js';

// What this runs (benchmarks, test fixtures, the project's scripts) nearly always opens the
// database or builds the app, so their libraries are loaded before the hooks, as by bin/sheaf.js.
await loadServerLibraries();
register();
const [file, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(resolve(file)).href);
