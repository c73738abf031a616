/** A message the service sends. `code` is set on sign-in code e-mails (the dev outbox exposes it). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  code: string | null;
}

/** One interface, two transports: the development outbox and SMTP. */
export interface Mailer {
  readonly mode: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
