import { useMembers } from '../account/account-hooks';
import { sessionStore } from '../auth/session';
import { formatDateTime } from '../components/format';
import type { ShownItem } from './controller';

/**
 * Who decided a decided change, when, and how: "Accepted by Priya Nair on 24 Nov 2026, 10:02".
 * Shown under the change's own author and date, which a decided change keeps. (The note, when
 * there is one, follows in its own box.) A change another's decision took says which (`takenWith`).
 */
export function DecisionLine({ entry, takenWith }: { entry: ShownItem; takenWith?: string | null }) {
  const members = useMembers();
  if (entry.state === 'open') return null;
  // Decided by no one: another change's decision took it ("Rejected with Change 44").
  if (takenWith && !entry.pending) return <p className="mt-1 text-sm" data-testid="decision-line">{takenWith}</p>;
  const verdict = entry.state === 'in' ? 'Accepted' : 'Rejected';
  if (entry.pending) return <p className="mt-1 text-sm" data-testid="decision-line">{verdict} by you · saving</p>;
  const { decidedByUserId, decidedAt } = entry.item;
  const me = sessionStore.get()?.user.id;
  const who = decidedByUserId === me ? 'you' : (members.data?.items.find((m) => m.userId === decidedByUserId)?.name ?? (decidedByUserId ? 'a colleague' : 'no one (it went with another change)'));
  return (
    <p className="mt-1 text-sm" data-testid="decision-line">
      {verdict} by {who}
      {decidedAt && (
        <>
          <span className="text-ink-soft"> on </span>
          <time dateTime={decidedAt}>{formatDateTime(decidedAt)}</time>
        </>
      )}
    </p>
  );
}
