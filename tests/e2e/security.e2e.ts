import { expect, test, type Page } from '@playwright/test';
import { screens, signInNewCustomer, solveCaptchaWidget } from './helpers.js';

/** Collects every content-security-policy violation the page reports. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Refused to load: CSP ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return violations;
}

test.describe('the client under the content security policy', () => {
  test.setTimeout(120_000);
  test('registration with the captcha, the dashboard with live updates and QR codes: nothing is blocked', async ({ page, request }) => {
    const violations = await watchViolations(page);
    const response = await page.goto('/register');
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(page.getByRole('heading', { level: 1, name: 'Create Your Wallet Account' })).toBeVisible();
    // The proof-of-work widget runs a worker and injects styles: both allowed by the policy.
    await solveCaptchaWidget(page);

    await signInNewCustomer(page, request, 'csp');
    await page.goto('/dashboard/wallets');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${screens}/security-csp-wallets.png` });
    expect(violations).toEqual([]);
  });

  test('an injected inline script does not run', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Login to Your Wallet' })).toBeVisible();
    const ran = await page.evaluate(async () => {
      (window as unknown as { pwned?: boolean }).pwned = false;
      const img = document.createElement('img');
      img.setAttribute('src', 'x:');
      img.setAttribute('onerror', 'window.pwned = true');
      document.body.appendChild(img);
      const script = document.createElement('script');
      script.textContent = 'window.pwned = true';
      document.body.appendChild(script);
      await new Promise((r) => setTimeout(r, 200));
      return (window as unknown as { pwned?: boolean }).pwned;
    });
    expect(ran).toBe(false);
  });
});
