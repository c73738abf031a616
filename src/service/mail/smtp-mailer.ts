import nodemailer from 'nodemailer';
import type { MailMessage, Mailer } from './mailer';

/** Real mail through any SMTP server, e.g. SMTP_URL=smtps://user:pass@mail.example.com:465. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    mode: 'smtp',
    async send(message: MailMessage) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    async close() {
      transport.close();
    },
  };
}
