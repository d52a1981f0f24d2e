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
);
