import { resolve } from 'node:path';
import type { HtmlTagDescriptor, Plugin } from 'vite';

/**
 * web/src/early.ts as a page script of its own, ahead of the app (issue 24): it asks for a
 * time page's data while the browser is still loading and evaluating the app's modules.
 * Written into index.html as a second <script type="module">, Vite would bundle it into the
 * app's entry chunk, which runs only after every chunk the app imports has been evaluated,
 * so it is a second entry of the build instead, and this plugin puts its script (and a
 * modulepreload of what it imports) first in the page's head. It is `async`: a deferred
 * module script waits for the document to be parsed and for the browser to compile the
 * app's modules (about 180 ms on the loaded bench machine); an async one runs as soon as its
 * two small files are in. Should it ever run after the app's client is loaded, it sends
 * nothing (api/early.ts), so a request is never made twice.
 */
export function earlyScript(): Plugin {
  let root = '';
  return {
    name: 'sheaf-early-script',
    config(config) {
      root = resolve(config.root ?? '.');
      return { build: { rollupOptions: { input: { index: resolve(root, 'index.html'), early: resolve(root, 'src/early.ts') } } } };
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx): HtmlTagDescriptor[] {
        // The dev server serves the source module itself.
        if (!ctx.bundle) return [{ tag: 'script', attrs: { type: 'module', async: true, src: '/src/early.ts' }, injectTo: 'head-prepend' }];
        const chunk = Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.isEntry && c.name === 'early');
        if (!chunk || chunk.type !== 'chunk') throw new Error('the build has no "early" entry chunk (web/src/early.ts)');
        return [
          { tag: 'script', attrs: { type: 'module', async: true, crossorigin: true, src: `/${chunk.fileName}` }, injectTo: 'head-prepend' },
          ...chunk.imports.map((file): HtmlTagDescriptor => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head-prepend' })),
        ];
      },
    },
  };
}
