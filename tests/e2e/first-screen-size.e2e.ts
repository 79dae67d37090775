import http from 'node:http';
import zlib from 'node:zlib';
import { expect, test } from '@playwright/test';

/*
 * What a phone downloads before it can sign in: the sign-in screen's JavaScript stays under
 * 110 KB as sent gzipped, without the captcha's code (only a sign-in that the server asks a
 * captcha of loads it), and the server sends its precompressed brotli or gzip copies.
 */

const SIGN_IN_JS_BUDGET = 110_000;

/** The raw answer to a GET, without any decoding. */
function rawGet(url: string, acceptEncoding?: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** The scripts the sign-in screen loads, once it is shown and has settled. */
async function signInScripts(page: import('@playwright/test').Page): Promise<string[]> {
  const scripts: string[] = [];
  page.on('response', (r) => r.request().resourceType() === 'script' && scripts.push(r.url()));
  await page.goto('/login', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1, name: 'Login to Your Wallet' })).toBeVisible();
  return scripts;
}

test('the sign-in screen loads under 110 KB of gzipped JavaScript and no captcha code', async ({ page }) => {
  const scripts = await signInScripts(page);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => /altcha/i.test(url))).toEqual([]);
  let total = 0;
  const sizes: string[] = [];
  for (const url of scripts) {
    // As sent to a browser that takes gzip (files under 1 KB go as they are).
    const { body } = await rawGet(url, 'gzip');
    total += body.length;
    sizes.push(`${url.split('/').pop()}: ${body.length}`);
  }
  expect(total, sizes.join('\n')).toBeLessThan(SIGN_IN_JS_BUDGET);
});

test('a script is sent as its brotli or gzip copy by Accept-Encoding, and as it is without one', async ({ page }) => {
  const [url] = (await signInScripts(page)).filter((u) => /\/assets\/vendor-react-/.test(u));
  expect(url).toBeTruthy();
  const plain = await rawGet(url!);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.headers['vary']).toMatch(/accept-encoding/i);

  const br = await rawGet(url!, 'br, gzip');
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers['vary']).toMatch(/accept-encoding/i);
  expect(br.headers['content-type']).toMatch(/javascript/);
  expect(br.headers['cache-control']).toContain('immutable');
  expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  expect(br.body.length).toBeLessThan(plain.body.length / 3);

  const gz = await rawGet(url!, 'gzip');
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);

  // The page itself too.
  const html = await rawGet(new URL('/login', url).toString(), 'br');
  expect(html.headers['content-encoding']).toBe('br');
  expect(zlib.brotliDecompressSync(html.body).toString()).toContain('<div id="root">');
});
