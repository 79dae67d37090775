import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Files worth compressing: text, above a size where the encoding's overhead would win. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
const MIN_BYTES = 1024;

/**
 * After the build, writes a brotli (.br) and a gzip (.gz) copy beside every compressible file
 * of the output, at the strongest settings: the server sends them as they are
 * (@fastify/static preCompressed), so no request pays for compressing.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'wallet-ledger:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const files = (fs.readdirSync(outDir, { recursive: true }) as string[]).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const raw = await fs.promises.readFile(full);
          if (raw.length < MIN_BYTES) return;
          const brotli = zlib.brotliCompressSync(raw, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          });
          await fs.promises.writeFile(`${full}.br`, brotli);
          await fs.promises.writeFile(`${full}.gz`, zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION }));
        }),
      );
    },
  };
}
