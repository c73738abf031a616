import type { MailMessage } from './mailer';

/** The texts of the e-mails the service sends. Plain text: it is what reaches every client intact. */
export function signInCodeMessage(to: string, code: string, appUrl: string, lifetimeMinutes: number): MailMessage {
  const spaced = `${code.slice(0, 4)} ${code.slice(4)}`;
  return {
    to,
    subject: `Your Redline sign-in code: ${spaced}`,
    code,
    text: [
      `Your Redline sign-in code is ${spaced}.`,
      '',
      `Enter it on the sign-in page (${appUrl}/sign-in) within ${lifetimeMinutes} minutes.`,
      'It works once. If you did not ask for it, ignore this e-mail: nobody can sign in without the code.',
    ].join('\n'),
  };
}

export function noAccountMessage(to: string, appUrl: string): MailMessage {
  return {
    to,
    subject: 'Signing in to Redline',
    code: null,
    text: [
      'Someone (hopefully you) asked to sign in to Redline with this address, but no account uses it.',
      '',
      `If your organisation uses Redline, ask one of its owners to invite this address; or create an account at ${appUrl}/sign-in.`,
      'If you did not ask for this, ignore this e-mail.',
    ].join('\n'),
  };
}

export function invitationMessage(to: string, orgName: string, appUrl: string): MailMessage {
  return {
    to,
    subject: `You have been added to ${orgName} on Redline`,
    code: null,
    text: [
      `You have been added to ${orgName} on Redline, where its lawyers review contract drafts.`,
      '',
      `Sign in with this address at ${appUrl}/sign-in: we e-mail you a one-time code, no password needed.`,
    ].join('\n'),
  };
}
