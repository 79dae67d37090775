import { anonymous, requestWithStatus } from '@/lib/api-client.js';

export type CaptchaCheck =
  | { outcome: 'passed' }
  /** The check answered and said no; `reason` is its error text, if it gave one. */
  | { outcome: 'rejected'; reason: string | null }
  /** The check answered with an HTTP error and no verdict. */
  | { outcome: 'service-error'; status: number }
  /** No answer at all. */
  | { outcome: 'unreachable' };

type VerifyAnswer = { success?: boolean; error?: string | string[] | null };

function reasonOf(error: VerifyAnswer['error']): string | null {
  if (Array.isArray(error)) return error.length > 0 ? error.join(', ') : null;
  return typeof error === 'string' && error.trim() ? error : null;
}

/** POST /functions/v1/verify-recaptcha: checks the solved widget's token without spending it. */
export async function verifyCaptchaToken(captchaToken: string): Promise<CaptchaCheck> {
  let answer;
  try {
    answer = await requestWithStatus<VerifyAnswer>('post', 'functions/v1/verify-recaptcha', anonymous({ json: { captchaToken } }));
  } catch {
    return { outcome: 'unreachable' };
  }
  const body = answer.body && typeof answer.body === 'object' ? answer.body : null;
  if (body?.success === true && answer.ok) return { outcome: 'passed' };
  if (body && body.success === false) return { outcome: 'rejected', reason: reasonOf(body.error) };
  if (!answer.ok) return { outcome: 'service-error', status: answer.status };
  return { outcome: 'rejected', reason: null };
}
