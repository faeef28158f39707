import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|svg|json)$/;
/** Below this a compressed copy saves less than its own request headers. */
const MIN_BYTES = 1024;

/**
 * Writes `name.br` and `name.gz` beside every compressible hashed asset, at the strongest levels: done once
 * here, the gateway only picks the file the client accepts (apps/gateway/src/web).
 */
export function precompress(options: { dir: string }): Plugin {
  return {
    name: 'mt-precompress',
    apply: 'build',
    async closeBundle() {
      const assets = path.join(options.dir, 'assets');
      const names = await readdir(assets).catch(() => [] as string[]);
      for (const name of names.filter((n) => COMPRESSIBLE.test(n))) {
        const file = path.join(assets, name);
        const content = await readFile(file);
        if (content.length < MIN_BYTES) continue;
        await writeFile(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}
