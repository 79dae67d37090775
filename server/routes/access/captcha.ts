import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CaptchaVerifier } from '../../captcha/captcha.js';
import {
  CaptchaChallenge as ChallengeSchema,
  CaptchaVerdict as VerifyAnswerSchema,
  CaptchaVerifyBody as VerifyBodySchema,
} from '../../../ledger/contract/access.js';

export const autoPrefix = '/functions/v1';

/**
 * `GET captcha-challenge` and `POST verify-recaptcha` (under /functions/v1). `costFor`
 * answers the challenge's cost for the calling client (its failures and request rate).
 */
export function captchaRoutes(captcha: CaptchaVerifier, costFor?: (client: string) => Promise<number>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/captcha-challenge',
      {
        config: { rateLimit: { max: 60, timeWindow: '1 minute' }, auth: 'public' },
        schema: {
          tags: ['functions'],
          summary: 'A fresh captcha challenge (ALTCHA proof of work by default)',
          response: { 200: ChallengeSchema },
        },
      },
      async (request, reply) => {
        const cost = costFor && (await costFor(request.ip ?? 'unknown'));
        const challenge = (await captcha.challenge(cost)) as z.infer<typeof ChallengeSchema>;
        return reply.header('cache-control', 'no-store').send(challenge);
      },
    );

    app.post(
      '/verify-recaptcha',
      {
        config: { rateLimit: { max: 60, timeWindow: '1 minute' }, auth: 'public' },
        schema: {
          tags: ['functions'],
          summary: 'Checks a captcha solution without using it up',
          body: VerifyBodySchema,
          response: { 200: VerifyAnswerSchema },
        },
      },
      async (request) => {
        const result = await captcha.check(request.body.captchaToken);
        return result.ok ? { success: true as const } : { success: false as const, error: result.error };
      },
    );
  };
}

/** Loaded by autoload from server/routes/: the app's captcha, its challenge's cost set by the sign-in throttle (server/auth/failures.ts). */
const captchaFunctions: FastifyPluginAsyncZod = async (app) => {
  const { captcha, throttle } = app.authServices;
  await app.register(captchaRoutes(captcha, (client) => throttle.challengeCost(client)));
};
export default captchaFunctions;
