#!/usr/bin/env node
// Entry point of the `lds` command; the compiled CLI lives in dist/.
import('../dist/cli.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli.js')) {
    console.error('lds: the project is not built yet; run `npm run build` first.');
    process.exit(1);
  }
  throw err;
});
