import { z } from 'zod';
import { clientString } from './client-text';
import { Timestamp } from './document';

/**
 * Live review and retried batches: the wire contract of GET /documents/{id}/events
 * (Server-Sent Events) and of the Idempotency-Key header on apply, undo and redline edits.
 */

/** Request header on apply, undo and redline edits: a batch sent again with the same key is applied once. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Answer header set when the answer is the recorded result of an earlier request with the same key. */
export const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed';
/** How long the service keeps a key per draft (at least). */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/** Printable ASCII without spaces, 8 to 200 characters (a UUID fits). */
export const IdempotencyKey = clientString().regex(/^[\x21-\x7e]{8,200}$/, 'an Idempotency-Key is 8 to 200 printable ASCII characters without spaces');

/** Request header of a reconnecting event stream: the `id` of the last event it received. */
export const LAST_EVENT_ID_HEADER = 'last-event-id';

/** Event names on the stream. */
export const REVIEW_EVENTS = {
  /** One decision-log entry, as it commits. `id:` is its log sequence number. */
  entry: 'entry',
  /** Who has the draft open now (sent on connect and whenever it changes). */
  presence: 'presence',
  /** Sent once the backlog after Last-Event-ID is out; its `id:` is where the stream now stands. */
  ready: 'ready',
} as const;

/** How often the stream sends a comment line when nothing happens (keeps proxies from closing it). */
export const HEARTBEAT_MS = 10_000;

export const LogEntryKind = z.enum(['decide', 'undo', 'redline']);
export type LogEntryKind = z.infer<typeof LogEntryKind>;

/** One entry of a draft's decision log, as streamed. */
export const DraftLogEvent = z.object({
  seq: z.number().int().positive().describe('Log sequence number; also the event id.'),
  kind: LogEntryKind,
  at: Timestamp,
  userId: z.string().nullable(),
  userName: z.string().nullable().describe('Display name of who made the change, for "Priya accepted Change 12".'),
  /** The Idempotency-Key the batch was sent with: the tab that sent it recognises its own batch. */
  batchKey: z.string().nullable(),
  /** Changes decided (recorded in the track) by a decide entry. */
  decided: z.record(z.string(), z.object({
    state: z.enum(['in', 'back']),
    decidedAt: Timestamp,
    decidedByUserId: z.string().nullable(),
  })),
  /** Proposals withdrawn by their author (they leave the track). */
  withdrawn: z.array(z.string()),
  /** Undo: the entry it undoes, and the changes that are open again. */
  undoesSeq: z.number().int().nullable(),
  reopened: z.array(z.string()),
  /** Redline edits: the new changes written into the draft. */
  proposed: z.array(z.string()),
});
export type DraftLogEvent = z.infer<typeof DraftLogEvent>;

export const Viewer = z.object({
  userId: z.string(),
  name: z.string(),
  /** Open review pages of this user on the draft (tabs, devices, the assistant). */
  connections: z.number().int().positive(),
});
export type Viewer = z.infer<typeof Viewer>;

export const PresenceEvent = z.object({ viewers: z.array(Viewer) });
export type PresenceEvent = z.infer<typeof PresenceEvent>;

/** One parsed Server-Sent Event. */
export interface StreamEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * An incremental parser of the text/event-stream format (WHATWG HTML, 9.2.6): feed it
 * chunks as they arrive, get whole events back. Comment lines (heartbeats) are skipped.
 * Shared by the app and the service's tests so both read the stream the same way.
 */
export class EventStreamParser {
  private buffer = '';
  private id: string | null = null;
  private event = '';
  private data: string[] = [];

  push(chunk: string): StreamEvent[] {
    this.buffer += chunk;
    const events: StreamEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for the next.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      if (line === '') {
        if (this.data.length > 0) events.push({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.data.push(value);
      else if (field === 'event') this.event = value;
      else if (field === 'id' && !value.includes('\0')) this.id = value;
    }
    return events;
  }
}

/** One event in the wire format. */
export function formatStreamEvent(event: string, id: string | number | null, data: unknown): string {
  return `${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
