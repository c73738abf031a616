import { useEffect, useId, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { MAX_COMMENT_CHARS, type Comment, type TextAnchor } from '../../contract/comments';
import type { ReviewMinimalResponse } from '../../contract/review';
import { describeError } from '../api/client';
import { formatDateTime } from '../components/format';
import { threadsOf, useComments, useCommentWriter, type Thread } from './comments-api';
import { useCommentHighlight } from './highlight';
import { selectionAnchor } from './selection';

/** What the page asks of the comments: `c` starts a comment on the selection or the current change. */
export interface CommentsHandle {
  startComment(): void;
}

type Composer =
  | { kind: 'change'; changeId: string; label: string }
  | { kind: 'anchor'; anchor: TextAnchor; quote: string }
  | { kind: 'reply'; to: Comment };

/**
 * The current change's comments under it in the sidebar: each thread (its first comment and the
 * replies), resolved or open, with reply and resolve/reopen; and the comment editor `c` opens,
 * on the text selected in the draft or else on the current change. The threads' ranges are
 * highlighted in the draft. A justification comment's text is the justification shown above,
 * so its thread shows only its replies.
 */
export function CommentsPanel({
  ref,
  review,
  currentId,
  currentLabel,
  say,
  beforeWrite,
  returnFocus,
}: {
  ref?: Ref<CommentsHandle>;
  review: ReviewMinimalResponse;
  currentId: string | null;
  currentLabel: string | null;
  say: (notice: { tone: 'info' | 'error'; text: string }) => void;
  /** Called before a write (the page sends its open batch of decisions first). */
  beforeWrite: () => void;
  /** Gives the keys back to the list once the composer closes, saved or cancelled. */
  returnFocus: () => void;
}) {
  const comments = useComments(review);
  const write = useCommentWriter(review.document.id);
  const [composer, setComposer] = useState<Composer | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const present = useMemo(() => new Set(review.revisions.map((r) => r.change_id)), [review.revisions]);

  // The current change's threads; or, on request, every thread of the draft (comments on text that is not a change).
  const [showAll, setShowAll] = useState(false);
  const [threadsShown, setThreadsShown] = useState(false);
  const allThreads = useMemo(() => threadsOf(comments.data ?? []), [comments.data]);
  const threads = useMemo(
    () => (showAll ? allThreads : currentId ? allThreads.filter((t) => t.root.changeIds.includes(currentId)) : []),
    [allThreads, currentId, showAll],
  );
  useCommentHighlight(useMemo(() => threads.map((t) => t.root.id), [threads]));

  useImperativeHandle(ref, () => ({
    startComment() {
      const selected = selectionAnchor();
      if (selected && 'error' in selected) return say({ tone: 'info', text: selected.error });
      if (selected) return setComposer({ kind: 'anchor', anchor: selected.anchor, quote: selected.text });
      if (!currentId || !present.has(currentId)) {
        return say({ tone: 'info', text: 'Select text in the draft, or go to an open change, to comment on it.' });
      }
      setComposer({ kind: 'change', changeId: currentId, label: currentLabel ?? currentId });
    },
  }), [currentId, currentLabel, present, say]);

  async function run(action: () => Promise<unknown>, done: string) {
    beforeWrite();
    setBusy(true);
    try {
      await action();
      say({ tone: 'info', text: done });
      return true;
    } catch (error) {
      say({ tone: 'error', text: `The comment was not saved: ${describeError(error)}` });
      return false;
    } finally {
      setBusy(false);
    }
  }

  // The composer closed (saved or cancelled): the keys go back to the list entry it came from.
  const closeComposer = () => {
    setComposer(null);
    returnFocus();
  };

  async function submit(text: string) {
    if (!composer) return;
    const ok = await run(async () => {
      if (composer.kind === 'reply') await write({ kind: 'reply', commentId: composer.to.id, text });
      else if (composer.kind === 'change') await write({ kind: 'add', body: { changeId: composer.changeId, text } });
      else await write({ kind: 'add', body: { anchor: composer.anchor, text } });
    }, composer.kind === 'reply' ? 'Reply added.' : 'Comment added.');
    if (ok) closeComposer();
  }

  const resolve = (thread: Thread, resolved: boolean) =>
    void run(() => write({ kind: 'resolve', commentId: thread.root.id, resolved }), resolved ? 'Thread resolved.' : 'Thread reopened.');

  return (
    // On a phone, no comments and no editor: the section gives its height to the document (c still starts one).
    <section aria-labelledby={headingId} className={`mt-2 ${allThreads.length === 0 && !composer ? 'max-md:hidden' : ''}`} data-testid="comments">
      <div className="flex items-center gap-2">
        <h3 id={headingId} className="text-xs font-medium uppercase tracking-wide text-ink-soft">
          {showAll ? 'All comments' : 'Comments'}{threads.length ? ` (${threads.length})` : ''}
        </h3>
        {/* On a phone the threads fold to their heading until asked for: the document keeps the height. */}
        {threads.length > 0 && (
          <button type="button" className="btn btn-quiet px-1.5 py-0 text-xs md:hidden" aria-expanded={threadsShown} onClick={() => setThreadsShown((v) => !v)}>
            {threadsShown ? 'Hide' : 'Show'}
          </button>
        )}
        <button type="button" className="btn btn-quiet ml-auto px-1.5 py-0 text-xs" aria-pressed={showAll} onClick={() => setShowAll((v) => !v)}>
          {showAll ? 'This change only' : `All comments (${allThreads.length})`}
        </button>
      </div>
      {comments.isError && <p className="text-sm text-danger">Comments could not be loaded: {describeError(comments.error)}</p>}
      {threads.length === 0 && !composer && !comments.isError && (
        <p className="text-sm text-ink-soft">No comments {showAll ? 'in this draft' : 'on this change'}. Press <kbd>c</kbd> to comment.</p>
      )}
      <ol className={`mt-1 flex max-h-64 flex-col gap-1.5 overflow-auto max-md:max-h-40 ${threadsShown ? '' : 'max-md:hidden'}`}>
        {threads.map((thread) => (
          <ThreadView key={thread.root.id} thread={thread} busy={busy} onReply={() => setComposer({ kind: 'reply', to: thread.root })} onResolve={(r) => resolve(thread, r)} />
        ))}
      </ol>
      {composer && (
        <CommentEditor
          key={composer.kind === 'reply' ? `reply-${composer.to.id}` : composer.kind === 'change' ? composer.changeId : composer.quote}
          title={composer.kind === 'reply' ? `Reply to ${composer.to.author}` : composer.kind === 'change' ? `Comment on ${composer.label}` : `Comment on “${clip(composer.quote)}”`}
          busy={busy}
          onSubmit={(text) => void submit(text)}
          onCancel={closeComposer}
        />
      )}
    </section>
  );
}

function ThreadView({ thread, busy, onReply, onResolve }: { thread: Thread; busy: boolean; onReply: () => void; onResolve: (resolved: boolean) => void }) {
  const { root, replies } = thread;
  const shown = root.justification ? replies : [root, ...replies];
  return (
    <li className={`rounded border border-line p-2 text-sm ${root.resolved ? 'bg-canvas text-ink-soft' : 'bg-paper'}`} data-comment-id={root.id} data-resolved={root.resolved}>
      <div className="flex items-center gap-2">
        {root.justification && (
          <span className="text-xs text-ink-soft">
            {replies.length ? 'Replies to the justification' : `The justification above is ${root.author || 'a'}’s comment`}
          </span>
        )}
        {root.resolved && <span className="rounded border border-line px-1 text-xs">Resolved</span>}
        {!root.justification && root.anchorText && <span className="truncate text-xs text-ink-soft">on: {clip(root.anchorText)}</span>}
      </div>
      <ul className="flex flex-col gap-1">
        {shown.map((c) => (
          <li key={c.id} className={c.parentId ? 'ml-3 border-l-2 border-line pl-2' : ''}>
            <p className="text-xs text-ink-soft">
              <span className="font-medium text-ink">{c.author || 'Unknown author'}</span>
              {c.date && <> · <time dateTime={c.date}>{formatDateTime(c.date)}</time></>}
            </p>
            <p className="whitespace-pre-wrap">{c.text}</p>
          </li>
        ))}
      </ul>
      <div className="mt-1 flex gap-1">
        <button type="button" className="btn btn-quiet px-1.5 py-0 text-xs" onClick={onReply} disabled={busy}>Reply</button>
        <button type="button" className="btn btn-quiet px-1.5 py-0 text-xs" onClick={() => onResolve(!root.resolved)} disabled={busy} aria-pressed={root.resolved}>
          {root.resolved ? 'Reopen' : 'Resolve'}
        </button>
      </div>
    </li>
  );
}

/** The comment editor: Ctrl+Enter (or ⌘+Enter) saves, Escape cancels; the focus starts in it. */
function CommentEditor({ title, busy, onSubmit, onCancel }: { title: string; busy: boolean; onSubmit: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const tooLong = text.length > MAX_COMMENT_CHARS;
  const canSave = text.trim().length > 0 && !tooLong && !busy;
  useEffect(() => area.current?.focus(), []);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (canSave) onSubmit(text.trim());
    }
  }

  return (
    <form
      className="mt-2 flex flex-col gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSave) onSubmit(text.trim());
      }}
    >
      <label htmlFor={id} className="text-sm font-medium">{title}</label>
      <textarea
        ref={area}
        id={id}
        className="field min-h-20 text-sm"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby={`${id}-hint`}
        aria-invalid={tooLong}
      />
      <p id={`${id}-hint`} className={`text-xs ${tooLong ? 'text-danger' : 'text-ink-soft'}`}>
        {tooLong ? `${text.length.toLocaleString('en')} characters: at most ${MAX_COMMENT_CHARS.toLocaleString('en')}.` : 'Ctrl+Enter saves, Escape cancels.'}
      </p>
      <div className="flex gap-1.5">
        <button type="submit" className="btn" disabled={!canSave}>{busy ? 'Saving…' : 'Save comment'}</button>
        <button type="button" className="btn btn-quiet" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
