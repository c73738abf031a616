import type { Database } from '../store/database';
import type { MailMessage, Mailer } from './mailer';

export interface OutboxMessage extends MailMessage {
  id: number;
  sentAt: Date;
}

/**
 * Development transport: every message is logged and kept in the database (so any
 * instance can answer GET /api/dev/mailbox), and nothing leaves the machine.
 */
export class OutboxMailer implements Mailer {
  readonly mode = 'outbox' as const;

  constructor(
    private readonly db: Database,
    private readonly log: (message: MailMessage) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.db.query('INSERT INTO outbox_messages (to_email, subject, body_text, code) VALUES ($1, $2, $3, $4)', [
      message.to, message.subject, message.text, message.code,
    ]);
    this.log(message);
  }

  async newestTo(address: string): Promise<OutboxMessage | null> {
    const rows = await this.db.query<{ id: string; to_email: string; subject: string; body_text: string; code: string | null; sent_at: Date }>(
      'SELECT id, to_email, subject, body_text, code, sent_at FROM outbox_messages WHERE to_email = $1 ORDER BY id DESC LIMIT 1',
      [address],
    );
    const row = rows[0];
    return row ? { id: Number(row.id), to: row.to_email, subject: row.subject, text: row.body_text, code: row.code, sentAt: row.sent_at } : null;
  }

  async close(): Promise<void> {}
}
