#!/usr/bin/env node
// Runs a TypeScript file with tsx's loader: `node bin/run-ts.js file.ts [args]`.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

register();
const [file, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(resolve(file)).href);
