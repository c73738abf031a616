import {
  DraftLogEvent,
  EventStreamParser,
  HEARTBEAT_MS,
  LAST_EVENT_ID_HEADER,
  PresenceEvent,
  REVIEW_EVENTS,
  type Viewer,
} from '../../contract/events';
import { ROUTES } from '../../contract/routes';
import type { Track, TrackItem } from '../../contract/track';
import { apiUrl, authHeaders } from '../api/client';
import { sessionStore } from '../auth/session';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface LiveHandlers {
  entry(event: DraftLogEvent): void;
  presence(viewers: Viewer[]): void;
  status(status: LiveStatus): void;
}

/**
 * Follows a draft's event stream (GET /documents/{id}/events) with fetch streaming, so the
 * session token travels in the Authorization header as on every call (an EventSource could
 * only put it in the URL). When the connection drops it reconnects with backoff, sending
 * Last-Event-ID, and the service sends every entry after it: nothing is missed. A 401, 403
 * or 404 ends it. Answers a function that stops it.
 */
export function followReview(documentId: string, handlers: LiveHandlers): () => void {
  const abort = new AbortController();
  let lastEventId: string | null = null;
  let failures = 0;

  const connect = async (): Promise<void> => {
    handlers.status(failures === 0 ? 'connecting' : 'reconnecting');
    // A connection that goes silent (no event, not even a heartbeat, for three heartbeats) is
    // dead without saying so (a sleeping laptop, a proxy that lost it): drop it and reconnect.
    const attempt = new AbortController();
    const stopAttempt = () => attempt.abort();
    abort.signal.addEventListener('abort', stopAttempt, { once: true });
    let watchdog = setTimeout(stopAttempt, 3 * HEARTBEAT_MS);
    const alive = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(stopAttempt, 3 * HEARTBEAT_MS);
    };
    try {
      await readStream(attempt.signal, alive);
    } finally {
      clearTimeout(watchdog);
      abort.signal.removeEventListener('abort', stopAttempt);
    }
  };

  const readStream = async (signal: AbortSignal, alive: () => void): Promise<void> => {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...authHeaders() };
    if (lastEventId !== null) headers[LAST_EVENT_ID_HEADER] = lastEventId;
    const response = await fetch(apiUrl(ROUTES.reviewEvents, { params: { documentId } }), { headers, signal, cache: 'no-store' });
    if (response.status === 401) {
      sessionStore.expire();
      throw new StopFollowing();
    }
    if (response.status === 403 || response.status === 404 || response.status === 409) throw new StopFollowing();
    if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`);
    const parser = new EventStreamParser();
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      alive();
      for (const event of parser.push(decoder.decode(value, { stream: true }))) {
        if (event.id !== null) lastEventId = event.id;
        if (event.event === REVIEW_EVENTS.ready) {
          failures = 0;
          handlers.status('live');
        } else if (event.event === REVIEW_EVENTS.entry) {
          const parsed = DraftLogEvent.safeParse(JSON.parse(event.data));
          if (parsed.success) handlers.entry(parsed.data);
        } else if (event.event === REVIEW_EVENTS.presence) {
          const parsed = PresenceEvent.safeParse(JSON.parse(event.data));
          if (parsed.success) handlers.presence(parsed.data.viewers);
        }
      }
    }
  };

  void (async () => {
    while (!abort.signal.aborted) {
      try {
        await connect();
      } catch (error) {
        if (abort.signal.aborted || error instanceof StopFollowing) break;
      }
      if (abort.signal.aborted) break;
      failures++;
      handlers.status('reconnecting');
      // 0.5 s, doubling to 15 s: a killed instance is usually replaced by another at once.
      await sleep(Math.min(15_000, 500 * 2 ** Math.min(failures - 1, 5)), abort.signal);
    }
    handlers.status('closed');
  })();
  return () => abort.abort();
}

class StopFollowing extends Error {}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/**
 * A log entry laid onto a track: decided changes take their state, an undo reopens what it
 * undid, withdrawn proposals leave. Answers null when the entry changes nothing shown
 * (it was this tab's own batch, already reconciled). Redline entries add changes the track
 * cannot know yet: the caller fetches the review for those.
 */
export function applyLogEvent(track: Track, event: DraftLogEvent): Track | null {
  const withdrawn = new Set(event.withdrawn);
  const reopened = new Set(event.reopened);
  let changed = false;
  const items: TrackItem[] = [];
  for (const item of track.items) {
    if (withdrawn.has(item.id)) {
      changed = true;
      continue;
    }
    const decided = event.decided[item.id];
    if (decided && (item.state !== decided.state || item.decidedByUserId !== decided.decidedByUserId)) {
      changed = true;
      items.push({ ...item, state: decided.state, decidedAt: decided.decidedAt, decidedByUserId: decided.decidedByUserId, justification: undefined, date: undefined });
    } else if (reopened.has(item.id) && item.state !== 'open') {
      changed = true;
      const { decidedAt: _at, decidedByUserId: _by, ...open } = item;
      items.push({ ...open, state: 'open' });
    } else items.push(item);
  }
  if (!changed) return null;
  const counts = { open: 0, in: 0, back: 0, total: items.length };
  for (const item of items) counts[item.state]++;
  return { items, counts, hereId: items.find((i) => i.state === 'open')?.id ?? null };
}

/** "Priya accepted Change 12", "Priya decided 3 changes", "Priya undid a batch"... in words, for the notice. */
export function describeLogEvent(event: DraftLogEvent, labelOf: (id: string) => string, me: string | null): string {
  const who = event.userId !== null && event.userId === me ? 'You (in another window)' : (event.userName ?? 'Someone');
  const decided = Object.entries(event.decided);
  if (event.kind === 'redline') return `${who} proposed ${plural(event.proposed.length, 'new change')}.`;
  if (event.kind === 'undo') return `${who} undid a batch: ${event.reopened.length > 0 ? `${listOf(event.reopened.map(labelOf))} ${event.reopened.length === 1 ? 'is' : 'are'} open again` : 'nothing to reopen here'}.`;
  if (decided.length === 0 && event.withdrawn.length > 0) return `${who} withdrew ${plural(event.withdrawn.length, 'proposal')}.`;
  if (decided.length === 1) {
    const [id, d] = decided[0]!;
    return `${who} ${d.state === 'in' ? 'accepted' : 'rejected'} ${labelOf(id)}.`;
  }
  const accepted = decided.filter(([, d]) => d.state === 'in').length;
  return `${who} decided ${plural(decided.length, 'change')} (${accepted} accepted, ${decided.length - accepted} rejected).`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function listOf(labels: string[]): string {
  return labels.length > 4 ? `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more` : labels.join(', ');
}
