// The live dashboard served at /dashboard: static files from the package's public/ folder, no build
// step and no CDN, so it works offline and from any install (src/ under tests, dist/ in production).
// The page itself needs no key; it asks the person for one and sends it on its own API calls.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** The folder of the page, found by walking up to the package root from this module. */
export function publicDir(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'public', 'index.html')))
      return join(dir, 'public');
    if (dirname(dir) === dir) throw new Error(`public/index.html not found above ${from}`);
  }
}

// Only same-origin scripts, styles and calls: the page holds an API key, so nothing third-party may
// run beside it, and frame-ancestors stops it from being framed for clickjacking.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const FILE = /^[a-z0-9][a-z0-9-]*\.(?:html|js|css|svg)$/;

export async function dashboardPlugin(app: FastifyInstance) {
  const root = publicDir();
  await app.register(fastifyStatic, { root, serve: false });

  app.addHook('onSend', async (req, reply) => {
    if (!req.url.startsWith('/dashboard')) return;
    reply.header('Content-Security-Policy', CSP);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
  });

  // Revalidate on every load (ETag makes that cheap) so a deploy never leaves an old script beside
  // a new page.
  const send = { cacheControl: false };

  app.get('/dashboard', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    // The router ignores trailing slashes; the page's relative asset URLs need one.
    const [path, query] = req.url.split('?');
    if (!path.endsWith('/')) return reply.redirect(`${path}/${query ? `?${query}` : ''}`, 308);
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html', send);
  });

  app.get<{ Params: { file: string } }>(
    '/dashboard/:file',
    { config: { public: true }, schema: { hide: true } },
    async (req, reply) => {
      const { file } = req.params;
      if (!FILE.test(file) || !existsSync(join(root, file)))
        return reply.sendError('not_found', `No dashboard file ${file}.`);
      return reply.header('Cache-Control', 'no-cache').sendFile(file, send);
    },
  );
}
