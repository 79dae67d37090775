import { spawn } from 'node:child_process';
import path from 'node:path';

// `npm run dev`: the API restarting on change (port 3000) and Vite's dev server with
// hot reload (port 5173), which proxies API calls to the first.
const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/main.ts'], { cwd: root, stdio: 'inherit' }),
  spawn(bin('vite'), ['--config', 'web/vite.config.ts'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
