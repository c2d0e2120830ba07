// The account operations of /api/auth: profile, password, settings, address verification, password
// reset by e-mail, and the admin calls (their role check is the api router's requireAdmin).
import type { Request, Response } from 'express';
import type { ApiRouter } from '@kaboodle/platform';
import type { AccountService } from './account.service.ts';
import {
  changePassword,
  getProfile,
  getSettings,
  listUsers,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  rotateSigningKey,
  updateProfile,
  updateSettings,
  verifyEmail,
} from './auth.api.ts';
import type { IssuedSession } from './auth-core.ts';
import type { AuthHttp } from './auth-http.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { UserSettings } from './user.repository.ts';

const settingsBody = (s: UserSettings) => ({
  default_instructions: s.defaultInstructions,
  default_destination: s.defaultDestination,
});

export function bindAccountRoutes(
  api: ApiRouter,
  deps: {
    account: AccountService;
    http: AuthHttp;
    limiters: { perIp: RateLimiter };
    replaceSession(req: Request, res: Response, issued: IssuedSession): Promise<void>;
  },
): void {
  const { account, http, limiters } = deps;
  const anonymous = (route: string) => ({ before: [http.anonymous, http.perIp(limiters.perIp, route)] });
  const limited = (route: string) => ({ before: [http.perIp(limiters.perIp, route)] });

  api.handle(getProfile, async ({ user, reply }) => reply(200, { user: await account.profile(user) }));

  api.handle(updateProfile, async ({ user, body, reply }) =>
    reply(
      200,
      await account.updateProfile(user, {
        name: body.name,
        email: body.email,
        currentPassword: body.current_password,
      }),
    ),
  );

  api.handle(
    changePassword,
    async ({ user, body, reply }) =>
      reply(
        200,
        await account.changePassword(user, {
          currentPassword: body.current_password,
          newPassword: body.new_password,
        }),
      ),
    limited('password'),
  );

  api.handle(getSettings, async ({ user, reply }) => reply(200, settingsBody(await account.settings(user))));

  api.handle(updateSettings, async ({ user, body, reply }) =>
    reply(
      200,
      settingsBody(
        await account.updateSettings(user, {
          defaultInstructions: body.default_instructions,
          defaultDestination: body.default_destination,
        }),
      ),
    ),
  );

  api.handle(
    verifyEmail,
    async ({ body, reply }) => reply(200, await account.verifyEmail(body.token)),
    anonymous('verify-email'),
  );

  api.handle(
    resendVerification,
    async ({ user, reply }) => reply(200, await account.resendVerification(user)),
    limited('verify-email-resend'),
  );

  api.handle(
    requestPasswordReset,
    async ({ body, reply }) => reply(202, await account.requestPasswordReset(body.email)),
    anonymous('password-reset'),
  );

  api.handle(
    resetPassword,
    async ({ req, res, body, reply }) => {
      const issued = await account.resetPassword(body.token, body.new_password, http.ctx(req));
      await deps.replaceSession(req, res, issued);
      reply(200, { user: issued.user, message: 'Password reset', token: issued.accessToken });
    },
    anonymous('password-reset-confirm'),
  );

  api.handle(listUsers, async ({ user, query, reply }) =>
    reply(200, { users: await account.listUsers(user, query) }),
  );

  api.handle(rotateSigningKey, async ({ user, body, reply }) =>
    reply(200, await account.rotateSigningKey(user, { immediate: body.immediate === true })),
  );
}
