import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { IDEMPOTENCY_KEY_HEADER } from '../../contract/events';
import { PREFER_MINIMAL, ReviewMinimalResponse, type ApplyRevisionsBody, type RedlineEdit, type ReviewResponse } from '../../contract/review';
import { ROUTES, type RouteSpec } from '../../contract/routes';
import { fetchRoute, readAnswer, type CallOptions } from './client';
import { ApiError } from './errors';
import { forgetListing, heldVersion, listingAfter, listingIfMatch } from './held-listing';
import { isReviewDelta, ReviewDelta } from '../../contract/listing-delta';
import { z } from 'zod';
import { sessionStore } from '../auth/session';

/**
 * The review as the page holds it: the full answer of GET review (content and render variant
 * inline), or the minimal answer of a change (Prefer: return=minimal), whose content the page
 * fetches when it renders it (useRenderContent).
 */
export type ReviewData = ReviewMinimalResponse & Partial<Pick<ReviewResponse, 'contentBase64' | 'renderContentBase64'>>;

/** A minimal answer of the review or of a change: the delta from the listing held, or the whole listing. */
const MinimalAnswer = z.union([ReviewDelta, ReviewMinimalResponse]);

/**
 * The review read minimal: the page renders from the render variant, which useRenderContent
 * fetches at once beside it (the inline content doubled the first load on a long draft). With a
 * listing held for the draft (a refetch after another reviewer's batch, a missed live event, a
 * 412), only what it missed: `since` the version held, answered as the delta from it (or whole,
 * when the service no longer holds that version), applied to the listing held.
 */
export async function readReview(documentId: string, signal?: AbortSignal): Promise<ReviewMinimalResponse> {
  const since = heldVersion(documentId);
  const response = await fetchRoute(ROUTES.getReview, { params: { documentId }, query: since === null ? {} : { since }, headers: { prefer: PREFER_MINIMAL }, signal });
  const answer = await readAnswer(ROUTES.getReview, response, MinimalAnswer);
  if (isReviewDelta(answer) && heldVersion(documentId) !== answer.base) {
    // A change's answer moved the listing held while this read was on its way: read it whole.
    forgetListing(documentId);
    return readReview(documentId, signal);
  }
  return listingAfter(documentId, response, answer);
}

/**
 * A change (apply, undo, redline edits) answered minimal, naming the listing held (If-Match): the
 * answer is the delta from it, applied here, so the page gets the whole listing as before. A
 * draft changed meanwhile (412 listing_changed: nothing changed) is caught up with a delta read
 * and the change sent again on it, once; after that, without If-Match, answered whole.
 */
async function changeMinimal(spec: RouteSpec, documentId: string, options: CallOptions, key: string, catchUp = true): Promise<ReviewMinimalResponse> {
  const ifMatch = listingIfMatch(documentId);
  let response: Response;
  try {
    response = await fetchRoute(spec, { ...options, headers: { prefer: PREFER_MINIMAL, [IDEMPOTENCY_KEY_HEADER]: key, ...ifMatch } });
  } catch (error) {
    if (!(error instanceof ApiError && error.problem?.code === 'listing_changed' && ifMatch['if-match'])) throw error;
    if (catchUp) {
      try {
        await readReview(documentId);
        return await changeMinimal(spec, documentId, options, key, false);
      } catch (retryError) {
        if (!(retryError instanceof ApiError && retryError.problem?.code === 'listing_changed')) throw retryError;
      }
    }
    forgetListing(documentId);
    return changeMinimal(spec, documentId, options, key, false);
  }
  try {
    return listingAfter(documentId, response, await readAnswer(spec, response, MinimalAnswer));
  } catch (error) {
    forgetListing(documentId);
    throw error;
  }
}

/** Apply, undo and redline edits of one draft, each answered minimal, as the delta from the listing held. */
export function draftChanges(documentId: string) {
  const params = { documentId };
  return {
    apply: (body: ApplyRevisionsBody, key: string) => changeMinimal(ROUTES.applyRevisions, documentId, { params, body }, key),
    undo: (key: string) => changeMinimal(ROUTES.undoRevisions, documentId, { params }, key),
    redline: (edits: RedlineEdit[], key: string) => changeMinimal(ROUTES.writeRedlines, documentId, { params, body: { edits } }, key),
  };
}

/** After a minimal answer, the render variant is fetched once the draft has stood still this long: a run of batches fetches it once. */
const RENDER_FETCH_DELAY_MS = 500;

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * What the document view renders (base64 of a .docx): the render variant the review carries
 * inline (the first load), else the one fetched for its content hash once the content has stood
 * still for RENDER_FETCH_DELAY_MS. Until that arrives, the last one rendered: the view shows the
 * decisions made since on it as decided (its own optimistic marks).
 */
export function useRenderContent(data: ReviewData): string | null {
  const documentId = data.document.id;
  const sha = data.document.contentSha256 ?? '';
  const inline = data.contentBase64 === undefined ? null : (data.renderContentBase64 ?? data.contentBase64);
  // Nothing shown yet (the page opened on a minimal answer still cached): fetched at once.
  const [wanted, setWanted] = useState<string | null>(inline === null ? sha : null);
  useEffect(() => {
    if (inline !== null) return;
    const timer = setTimeout(() => setWanted(sha), RENDER_FETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [inline, sha]);
  const fetched = useQuery({
    queryKey: ['org', sessionStore.get()?.orgId ?? '', 'render', documentId, wanted ?? ''] as const,
    queryFn: async ({ signal }) => toBase64(new Uint8Array(await (await fetchRoute(ROUTES.getRender, { params: { documentId }, signal })).arrayBuffer())),
    enabled: inline === null && wanted === sha,
    staleTime: Infinity,
    gcTime: 0,
  });
  // The last content shown, kept while the next is on its way (state adjusted during render).
  const [shown, setShown] = useState<string | null>(inline);
  const latest = inline ?? (fetched.data !== undefined && wanted === sha ? fetched.data : null);
  if (latest !== null && latest !== shown) setShown(latest);
  return latest ?? shown;
}
