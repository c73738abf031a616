import { useEffect } from 'react';
import type { ReviewController } from './controller';
import { followReview } from './live';
import type { BatchStore } from './outbox';

/**
 * Connects a review to the network beyond single requests: batches a previous page left
 * queued on this device are restored and sent; the browser's "online" event sends what
 * waits at once; and the draft's live event stream lays everyone's decisions onto the
 * track as they commit, and says who else has the draft open.
 */
export function useReviewNetwork(controller: ReviewController, documentId: string, outbox: BatchStore): void {
  useEffect(() => {
    let cancelled = false;
    outbox.list().then((batches) => {
      if (!cancelled) controller.restore(batches);
    }, () => {});
    const online = () => controller.retryNow();
    window.addEventListener('online', online);
    const stop = followReview(documentId, {
      entry: (event) => controller.receive(event),
      presence: (viewers) => controller.setViewers(viewers),
      status: (status) => controller.setLiveStatus(status),
    });
    return () => {
      cancelled = true;
      window.removeEventListener('online', online);
      stop();
    };
  }, [controller, documentId, outbox]);
}
