import { describe, expect, it } from 'vitest';
import type { UserEvent } from './events.js';
import { decideUser, evolveUser, initialUserState, NO_MFA_TO_REMOVE, passwordChangeReason, UserError, type UserCommand } from './user.js';

const registered: UserEvent = {
  type: 'user.registered',
  data: { email: 'ada@example.com', fullName: 'Ada', role: 'USER', source: 'self', requiresPasswordChange: false, emailConfirmed: true },
};
const enrolled = (factorId: string): UserEvent => ({ type: 'user.mfa-factor-enrolled', data: { factorId, factorType: 'totp' } });
const verified = (factorId: string): UserEvent => ({ type: 'user.mfa-factor-verified', data: { factorId } });
const method = (m: 'totp' | 'email' | null): UserEvent => ({ type: 'user.mfa-method-changed', data: { method: m } });

/** given events, when command, then events (or a refusal) */
function given(events: UserEvent[]) {
  return {
    when(command: UserCommand) {
      const run = () => decideUser(command, events.reduce(evolveUser, initialUserState()));
      return {
        then: (expected: UserEvent[]) => expect(run()).toEqual(expected),
        thenRefuses: (code: UserError['code'], message: string) => {
          expect(run).toThrow(UserError);
          expect(run).toThrow(message);
          try {
            run();
          } catch (err) {
            expect((err as UserError).code).toBe(code);
          }
        },
      };
    },
  };
}

const EMAIL_ON = 'Email authentication is on. Turn it off before setting up an authenticator app.';
const TOTP_ON = 'An authenticator app is set up. Remove it before turning on email authentication.';

describe('user decider: one second factor at a time (spec 001 section 4)', () => {
  it('enrols an authenticator when e-mail codes are off', () => {
    given([registered])
      .when({ type: 'EnrolFactor', factorId: 'f1' })
      .then([enrolled('f1')]);
    given([registered, method('email'), method(null)])
      .when({ type: 'EnrolFactor', factorId: 'f1' })
      .then([enrolled('f1')]);
  });

  it('refuses to enrol an authenticator while e-mail codes are on', () => {
    given([registered, method('email')])
      .when({ type: 'EnrolFactor', factorId: 'f1' })
      .thenRefuses('invalid', EMAIL_ON);
  });

  it('refuses to verify an enrolment begun before e-mail codes were turned on', () => {
    given([registered, enrolled('f1'), method('email')])
      .when({ type: 'VerifyFactor', factorId: 'f1' })
      .thenRefuses('invalid', EMAIL_ON);
    given([registered, enrolled('f1')])
      .when({ type: 'VerifyFactor', factorId: 'f1' })
      .then([verified('f1')]);
  });

  it('turns e-mail codes on when no authenticator is verified', () => {
    given([registered])
      .when({ type: 'SetMfaMethod', method: 'email' })
      .then([method('email')]);
    // An unfinished enrolment is no authenticator yet.
    given([registered, enrolled('f1')])
      .when({ type: 'SetMfaMethod', method: 'email' })
      .then([method('email')]);
    // Nor is one that was removed.
    given([
      registered,
      enrolled('f1'),
      verified('f1'),
      method('totp'),
      { type: 'user.mfa-factor-removed', data: { factorId: 'f1' } },
      method(null),
    ])
      .when({ type: 'SetMfaMethod', method: 'email' })
      .then([method('email')]);
  });

  it('refuses e-mail codes while a verified authenticator exists', () => {
    given([registered, enrolled('f1'), verified('f1'), method('totp')])
      .when({ type: 'SetMfaMethod', method: 'email' })
      .thenRefuses('invalid', TOTP_ON);
    given([registered, enrolled('f1'), verified('f1')])
      .when({ type: 'SetMfaMethod', method: 'email' })
      .thenRefuses('invalid', TOTP_ON);
  });

  it('still sets the authenticator as the method only with a verified factor, and turns either off', () => {
    given([registered, enrolled('f1')])
      .when({ type: 'SetMfaMethod', method: 'totp' })
      .thenRefuses('invalid', 'No verified authenticator app found for your account.');
    given([registered, enrolled('f1'), verified('f1')])
      .when({ type: 'SetMfaMethod', method: 'totp' })
      .then([method('totp')]);
    given([registered, method('email')])
      .when({ type: 'SetMfaMethod', method: null })
      .then([method(null)]);
  });

  it('a staff removal of the second factor removes every factor and the method, then records the reason', () => {
    given([registered, enrolled('f1'), verified('f1'), method('totp')])
      .when({ type: 'RemoveMfaByStaff', reason: 'Lost phone' })
      .then([
        { type: 'user.mfa-factor-removed', data: { factorId: 'f1' } },
        method(null),
        { type: 'user.mfa-removed-by-staff', data: { reason: 'Lost phone', previousMethod: 'totp' } },
      ]);
    given([registered, method('email')])
      .when({ type: 'RemoveMfaByStaff', reason: 'No mail access' })
      .then([method(null), { type: 'user.mfa-removed-by-staff', data: { reason: 'No mail access', previousMethod: 'email' } }]);
    given([registered]).when({ type: 'RemoveMfaByStaff', reason: 'x' }).thenRefuses('invalid', NO_MFA_TO_REMOVE);
  });

  it('recovery codes are issued only for a verified authenticator', () => {
    given([registered, enrolled('f1')])
      .when({ type: 'IssueRecoveryCodes', count: 10 })
      .thenRefuses('invalid', 'No verified authenticator app found for your account.');
    given([registered, enrolled('f1'), verified('f1')])
      .when({ type: 'IssueRecoveryCodes', count: 10 })
      .then([{ type: 'user.mfa-recovery-codes-issued', data: { count: 10 } }]);
  });
});

describe('why a password change is asked for', () => {
  const registered = { type: 'user.registered', data: {} };
  const changed = (method: string) => ({ type: 'user.password-changed', data: { method } });
  it('a new account with its given password: new_account; after a staff reset: reset; a reset then replaced by the user: not a reset', () => {
    expect(passwordChangeReason([registered])).toBe('new_account');
    expect(passwordChangeReason([registered, changed('forced'), changed('staff-reset')])).toBe('reset');
    expect(passwordChangeReason([registered, changed('staff-reset'), changed('forced')])).toBe('new_account');
  });
});

describe('user decider: notification preferences (Settings > Notifications)', () => {
  const allOn = { transactionsInApp: true, transactionsEmail: false, accountChangesEmail: true, accountChangesInApp: true };
  const mailOff = { ...allOn, accountChangesEmail: false };
  const transactionMail = { ...allOn, transactionsEmail: true };
  const set = (data: typeof allOn): UserEvent => ({ type: 'user.notification-preferences-set', data });

  it('records the choices once they differ from what stands (all on at first, transaction e-mails off)', () => {
    given([registered])
      .when({ type: 'SetNotificationPreferences', preferences: mailOff })
      .then([set(mailOff)]);
    given([registered]).when({ type: 'SetNotificationPreferences', preferences: allOn }).then([]);
    given([registered, set(mailOff)])
      .when({ type: 'SetNotificationPreferences', preferences: mailOff })
      .then([]);
    given([registered, set(mailOff)])
      .when({ type: 'SetNotificationPreferences', preferences: allOn })
      .then([set(allOn)]);
    given([registered])
      .when({ type: 'SetNotificationPreferences', preferences: transactionMail })
      .then([set(transactionMail)]);
    given([registered, set(transactionMail)])
      .when({ type: 'SetNotificationPreferences', preferences: allOn })
      .then([set(allOn)]);
  });

  it('is for customers only, and for an account that exists', () => {
    const worker: UserEvent = {
      type: 'user.registered',
      data: { ...registered.data, role: 'WORKER' } as Extract<UserEvent, { type: 'user.registered' }>['data'],
    };
    given([worker])
      .when({ type: 'SetNotificationPreferences', preferences: mailOff })
      .thenRefuses('invalid', 'Notification preferences are for customer accounts.');
    given([]).when({ type: 'SetNotificationPreferences', preferences: mailOff }).thenRefuses('not_found', 'User not found.');
  });
});
