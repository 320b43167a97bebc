import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';

const API_TARGET = 'http://localhost:5000';

/** Writes .br and .gz next to each text asset so the server sends them precompressed, at no CPU cost per request. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'darepool-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(js|css|html|svg|json)$/.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * Whether a module is loaded by the first page: reachable from the entry through static imports
 * only. A vendor module reached only through a dynamic import (wallet code, zod, Radix Select) must
 * not be pulled into a first-load vendor chunk, or the lazy split buys nothing.
 */
function isInFirstLoad(id: string, getModuleInfo: Rollup.GetModuleInfo, seen = new Set<string>()): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  const info = getModuleInfo(id);
  if (!info) return false;
  if (info.isEntry) return true;
  return info.importers.some((importer) => isInFirstLoad(importer, getModuleInfo, seen));
}

const REACT_FAMILY = /node_modules\/(react|react-dom|scheduler|react-router|cookie|@tanstack\/[^/]+)\//;

export default defineConfig({
  root: 'src/web',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    rollupOptions: {
      output: {
        // Vendor code changes less often than ours: it gets its own long-cached chunks, split so a
        // UI-kit upgrade does not invalidate React. Lazy-only vendor code stays with its route.
        manualChunks(id, { getModuleInfo }) {
          if (!id.includes('/node_modules/') || !isInFirstLoad(id, getModuleInfo)) return undefined;
          return REACT_FAMILY.test(id) ? 'react-vendor' : 'ui-vendor';
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': API_TARGET,
      '/ws': { target: API_TARGET, ws: true },
    },
  },
});
