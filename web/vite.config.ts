import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

const toApi: ProxyOptions = { target: apiTarget, changeOrigin: false };

// Keys starting with '^' are regular expressions; the anchored ones keep
// client routes such as /devices or /documents away from the API.
const proxy: Record<string, ProxyOptions> = {
  '/auth/v1': toApi,
  '/functions/v1': toApi,
  '/api/v1': toApi,
  '/healthz': toApi,
  '^/docs(/|$)': toApi,
  '^/dev(/|$)': toApi,
  '/realtime/v1': { ...toApi, ws: true },
};

/** Every module under web/src/features/<area>/ lands in one chunk named after its area. */
function areaChunkName(moduleId: string): string | null {
  const match = /[\\/]web[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/.exec(moduleId);
  return match ? `area-${match[1]}` : null;
}

export default defineConfig({
  root: webRoot,
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy,
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    proxy,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Higher priority claims a module first. Shared code is claimed before the
          // areas, or an area chunk would swallow it and the others would import that area.
          groups: [
            { name: 'vendor-react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 4 },
            {
              name: 'vendor-router',
              test: /[\\/]node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/,
              priority: 4,
            },
            // Amounts (decimal.js) serve only the signed-in screens: kept out of the first screen's shared chunk.
            { name: 'money', test: /[\\/]web[\\/]src[\\/]lib[\\/]money\.ts$|[\\/]node_modules[\\/]decimal\.js[\\/]/, priority: 3 },
            { name: 'shared', test: /[\\/](web[\\/]src[\\/](components|lib)|node_modules[\\/]ky)[\\/]/, priority: 2 },
            { name: areaChunkName, debugName: 'areas', priority: 1 },
          ],
        },
      },
    },
  },
});
