import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { precompress } from './vite-precompress.js';

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

/**
 * Every module under web/src/features/<area>/ lands in one chunk named after its area; the auth
 * area's pages other than sign-in get their own, so the sign-in screen loads none of them.
 */
function areaChunkName(moduleId: string): string | null {
  if (/[\\/]features[\\/]auth[\\/](register-page|update-password-page|force-password-change-page)\.tsx$/.test(moduleId))
    return 'area-auth-pages';
  const match = /[\\/]web[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/.exec(moduleId);
  return match ? `area-${match[1]}` : null;
}

/** The shared modules the sign-in screen needs; the other shared ones load with the dashboard. */
const FIRST_SCREEN =
  /[\\/]web[\\/]src[\\/](components[\\/](banner|button|card|field|code-field|captcha-widget|new-password-fields|submit-messages)|lib[\\/](api-client|auth-types|session|stored-session|jwt|use-focus-first-error|use-submit|error-text|email))\.tsx?$|[\\/]ledger[\\/]contract[\\/]access-constants\.ts$|[\\/]node_modules[\\/](ky|zustand)[\\/]/;

export default defineConfig({
  root: webRoot,
  plugins: [react(), precompress()],
  // zod without eval, for the content security policy (lib/zod-jitless.ts).
  resolve: {
    alias: [
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod-jitless.ts', import.meta.url)) },
      // `@/x` is web/src/x and `@ledger/x` ledger/x (the contracts); tsconfig.json's paths and
      // scripts/lint/boundaries.js read them the same way.
      { find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) },
      { find: /^@ledger\//, replacement: fileURLToPath(new URL('../ledger/', import.meta.url)) },
    ],
  },
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
            // What the sign-in screen needs, claimed before any group below can pull it in as a dependency.
            { name: 'shared', test: FIRST_SCREEN, priority: 3 },
            // Amounts (decimal.js), devices (bowser), the live connection and the access screens'
            // background serve only some screens: each its own chunk, loaded with them.
            { name: 'money', test: /[\\/]web[\\/]src[\\/]lib[\\/]money\.ts$|[\\/]node_modules[\\/]decimal\.js[\\/]/, priority: 2 },
            { name: 'device', test: /[\\/]web[\\/]src[\\/]lib[\\/]device\.ts$|[\\/]node_modules[\\/]bowser[\\/]/, priority: 2 },
            // The signed-in screens' data cache and the answers' schemas.
            {
              name: 'vendor-query',
              test: /[\\/]node_modules[\\/](@tanstack|zod)[\\/]|[\\/]web[\\/]src[\\/]lib[\\/](query|query-realtime|zod-jitless)\.tsx?$|[\\/]ledger[\\/]contract[\\/]/,
              priority: 2,
            },
            { name: 'realtime', test: /[\\/]web[\\/]src[\\/]lib[\\/]realtime\.ts$/, priority: 2 },
            { name: 'particles', test: /[\\/]web[\\/]src[\\/]components[\\/]particle-background\.tsx$/, priority: 2 },
            { name: 'shared-dashboard', test: /[\\/](web[\\/]src[\\/](components|lib))[\\/]/, priority: 1.5 },
            { name: areaChunkName, debugName: 'areas', priority: 1 },
          ],
        },
      },
    },
  },
});
