#!/usr/bin/env node
// The `sheaf` command. Sheaf is TypeScript run through tsx's loader, so there is
// no build step between `npm install` and `npm start`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
