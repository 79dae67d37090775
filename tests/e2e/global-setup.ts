import { request, type FullConfig } from '@playwright/test';
import { tradeDemoStaffPasswords } from './helpers.js';

/** Runs once, after the web server is up and before any test (see tradeDemoStaffPasswords). */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const context = await request.newContext({ baseURL: config.projects[0]!.use.baseURL });
  try {
    await tradeDemoStaffPasswords(context);
  } finally {
    await context.dispose();
  }
}
