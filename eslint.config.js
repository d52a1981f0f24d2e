import { dirname, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const WEB_SRC = resolve('web/src');

/** The layer of a file under web/src: 'app', 'ui', 'api', 'areas/<name>', or null outside it. */
function webLayer(file) {
  const rel = relative(WEB_SRC, file).split(sep);
  if (rel[0] === '..' || rel.length < 2) return null;
  return rel[0] === 'areas' ? `areas/${rel[1]}` : rel[0];
}

/**
 * Who may import whom in web/src (WEB-STYLE 1): ui -> api -> areas -> app; an area never imports
 * another. api builds on ui (its error sentences go through ui's translations, useFormat makes ui's
 * formatter from the session); ui knows nothing of the server.
 */
function mayImport(from, to) {
  if (from === to || to === null || from === 'app') return true;
  if (from === 'ui') return false;
  if (from === 'api') return to === 'ui';
  if (from.startsWith('areas/')) return to === 'ui' || to === 'api';
  return true;
}

const webBoundaries = {
  rules: {
    layers: {
      meta: { type: 'problem', messages: { crossing: '{{from}} must not import from {{to}} (web/src layers: ui -> api -> areas -> app).' } },
      create(context) {
        const from = webLayer(context.filename);
        if (!from) return {};
        const check = (source) => {
          if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
          const to = webLayer(resolve(dirname(context.filename), source.value));
          if (!mayImport(from, to)) context.report({ node: source, messageId: 'crossing', data: { from, to } });
        };
        return {
          ImportDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source),
          ExportNamedDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
        };
      },
    },
  },
};

const SRC = resolve('src');
/** The domains of src/modules, lowest first: a domain imports only domains before it (docs/architecture.md). */
const DOMAINS = ['workspace', 'people', 'catalog', 'planning', 'tracking', 'billing', 'reports', 'integrations'];
/** The composition layer (src/ files and folders that wire areas together); everything else outside src/modules is core. */
const COMPOSITION = new Set(['app.ts', 'server.ts', 'bootstrap.ts', 'provisioning.ts', 'cli']);

/** Where a file sits in src/: { kind: 'module', domain, area, file } | { kind: 'composition' } | { kind: 'core' } | null. */
function srcPlace(file) {
  const rel = relative(SRC, file).split(sep);
  if (rel[0] === '..' || rel[0] === '') return null;
  if (rel[0] === 'modules') return { kind: 'module', domain: rel[1], area: rel.length > 3 ? rel[2] : null, file: rel.slice(3).join('/') };
  return COMPOSITION.has(rel[0]) ? { kind: 'composition' } : { kind: 'core' };
}

/** Why `from` may not import `to`, or null when it may. */
function srcCrossing(from, to) {
  if (!to) return null;
  if (from.kind === 'composition') return to.kind === 'module' && to.file !== 'index.ts' ? `another area only through its index.ts` : null;
  if (from.kind === 'core') return to.kind === 'core' ? null : 'core code never imports a module or the composition layer';
  if (to.kind === 'composition') return 'a module never imports the composition layer';
  if (to.kind === 'core') return null;
  if (from.domain === to.domain && from.area === to.area) return null;
  const a = DOMAINS.indexOf(from.domain);
  const b = DOMAINS.indexOf(to.domain);
  if (a < 0 || b < 0) return `unknown domain (${a < 0 ? from.domain : to.domain}); add it to docs/architecture.md and DOMAINS`;
  if (b > a) return `${from.domain} may not import ${to.domain}: domains depend downward (${DOMAINS.join(' <- ')})`;
  if (to.file !== 'index.ts') return `another area only through its index.ts (${to.domain}/${to.area}/index.ts)`;
  return null;
}

const srcBoundaries = {
  rules: {
    domains: {
      meta: { type: 'problem', messages: { crossing: 'Import of {{to}}: {{why}} (docs/architecture.md).' } },
      create(context) {
        const from = srcPlace(context.filename);
        if (!from) return {};
        const check = (source, lazy = false) => {
          if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
          const target = resolve(dirname(context.filename), source.value);
          const to = srcPlace(target);
          // the composition layer may load an area's heavy file lazily (pdfkit at the first PDF, not at start)
          if (lazy && from.kind === 'composition' && to?.kind === 'module') return;
          const why = srcCrossing(from, to);
          if (why) context.report({ node: source, messageId: 'crossing', data: { to: relative(SRC, target), why } });
        };
        return {
          ImportDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source, true),
          ExportNamedDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
        };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: ['node_modules/', 'data/', 'scratch/', '.bench/', 'web/dist/', 'web/.dist-*/', 'web/src/api/schema.d.ts', 'test-results/', 'playwright-report/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The browser app: DOM globals (TypeScript checks names; no-undef is off for .ts/.tsx) and its layers.
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { web: webBoundaries },
    rules: { 'web/layers': 'error' },
  },
  {
    // The server: domains depend downward, areas meet through their index.ts, core knows no module.
    files: ['src/**/*.ts'],
    plugins: { src: srcBoundaries },
    rules: { 'src/domains': 'error' },
  },
);
