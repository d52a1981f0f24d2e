// npm's `prepare` (after `npm install` / `npm ci`): builds web/dist when it is missing or
// older than its sources (~5 s), so the first `npm start` serves the app at once.
// Never fails the install: without Vite (a production install) it only says so.
import { prepareWebApp } from '../../src/cli/web-build.ts';

await prepareWebApp({ info: (m) => console.log(`sheaf: ${m}`), warn: (m) => console.warn(`sheaf: ${m}`) });
