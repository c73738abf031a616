import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { DocumentRow } from '../../contract/document';
import { useCompareVersions, useUntrackedCheck } from '../api/compare';
import { describeError } from '../api/client';
import { sessionStore } from '../auth/session';
import { DEFAULT_COMPARE_SETTINGS, loadCompareSettings, optionsSentence, saveCompareSettings, type CompareSettings } from './compare-settings';
import { pendingSentence } from './pending-sentence';
import { isCheckedVersion } from './UntrackedWarning';
import { Dialog } from '../components/Dialog';
import { formatDateTime } from '../components/format';

/**
 * The version a comparison of `target` starts from: the one it was added to (or drafted from),
 * else the newest version before it.
 */
export function previousVersionOf(target: DocumentRow, series: readonly DocumentRow[]): DocumentRow | null {
  const others = series.filter((row) => row.id !== target.id);
  const parent = others.find((row) => row.id === target.parentUploadId);
  if (parent) return parent;
  const earlier = others.filter((row) => row.documentVersion < target.documentVersion).sort((a, b) => b.documentVersion - a.documentVersion);
  return earlier[0] ?? others[0] ?? null;
}

const KIND: Record<DocumentRow['versionKind'], string> = { original: 'original', working_draft: 'working draft' };

/** "v1 · original · Nov 24, 2026, 6:27 AM", with the file name when it differs from the version compared. */
export function describeVersion(row: DocumentRow, target: DocumentRow): string {
  return [`v${row.documentVersion}`, KIND[row.versionKind], formatDateTime(row.createdAt), ...(row.fileName === target.fileName ? [] : [row.fileName])].join(' · ');
}

/**
 * "Compare with…": pick the older version (the previous one is chosen already), and the new
 * working draft holding every difference as a tracked change opens in review at once.
 */
export function CompareDialog({ target, series, onClose }: { target: DocumentRow | null; series: readonly DocumentRow[]; onClose: () => void }) {
  return (
    <Dialog open={target !== null} title={target ? `Compare v${target.documentVersion} with…` : 'Compare'} onClose={onClose} className="w-[calc(100vw-2rem)]">
      {target && <CompareForm key={target.id} target={target} series={series} onClose={onClose} />}
    </Dialog>
  );
}

function CompareForm({ target, series, onClose }: { target: DocumentRow; series: readonly DocumentRow[]; onClose: () => void }) {
  const compare = useCompareVersions();
  const navigate = useNavigate();
  const selectId = useId();
  // Only older versions: "what changed in v3 since v5" reads backwards.
  const others = series.filter((row) => row.documentVersion < target.documentVersion).sort((a, b) => b.documentVersion - a.documentVersion);
  const [against, setAgainst] = useState(previousVersionOf(target, series)?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  const [identical, setIdentical] = useState<string | null>(null);
  const userId = sessionStore.get()?.user.id ?? '';
  const [settings, setSettings] = useState<CompareSettings>(() => loadCompareSettings(userId));
  const change = (next: CompareSettings) => {
    setSettings(next);
    setIdentical(null);
    saveCompareSettings(userId, next);
  };
  const older = series.find((row) => row.id === against) ?? null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!against) return;
    setError(null);
    setIdentical(null);
    try {
      const draft = await compare.mutateAsync({ uploadId: target.id, against, view: settings.view, options: settings.options });
      if ('identical' in draft) {
        // Nothing to review: say so here and stay, rather than open an empty draft.
        const name = `v${older?.documentVersion ?? '?'}`;
        const pending = draft.pending.older + draft.pending.newer > 0 ? ` ${pendingSentence(draft.pending, name, `v${target.documentVersion}`, 'Comparison')}` : '';
        return setIdentical(`v${target.documentVersion} and ${name} are identical: nothing to review.${pending}`);
      }
      onClose();
      navigate(`/documents/${draft.document.id}`);
    } catch (failure) {
      setError(`The comparison failed: ${describeError(failure)}`);
    }
  }

  if (others.length === 0) {
    return (
      <div className="text-sm">
        <p>v{target.documentVersion} is the oldest version of this series: there is nothing older to compare it with. Add a new version first, then compare the two.</p>
        <div className="mt-4 flex justify-end"><button type="button" className="btn" onClick={onClose} autoFocus>Close</button></div>
      </div>
    );
  }
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2 text-sm">
      <p className="text-ink-soft">
        A new working draft of v{target.documentVersion} shows every difference from the version you choose as a tracked change,
        ready to review.
      </p>
      <label htmlFor={selectId} className="mt-1 font-medium">Older version</label>
      <select id={selectId} className="field w-full" value={against} onChange={(e) => { setAgainst(e.target.value); setIdentical(null); }} autoFocus>
        {others.map((row) => (
          <option key={row.id} value={row.id}>{describeVersion(row, target)}</option>
        ))}
      </select>
      <PendingChoice target={target} older={older} settings={settings} onChange={change} />
      <OptionsChoice settings={settings} onChange={change} />
      {error && <p role="alert" className="rounded border border-danger bg-danger-soft p-2 text-danger">{error}</p>}
      <p role="status" className={identical ? 'rounded border border-line bg-canvas p-2' : 'sr-only'}>{identical}</p>
      <div className="mt-3 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onClose}>Cancel</button>
        <button type="submit" className="btn btn-primary" disabled={compare.isPending || !against}>
          {compare.isPending ? 'Comparing…' : 'Compare and review'}
        </button>
      </div>
    </form>
  );
}

/**
 * What happens to the tracked changes the two versions already carry: kept (the default), or
 * compared as Word does; with how many each version holds, when the newer version's untracked
 * check (made against the version it was added to) has counted them.
 */
function PendingChoice({ target, older, settings, onChange }: {
  target: DocumentRow; older: DocumentRow | null; settings: CompareSettings; onChange: (next: CompareSettings) => void;
}) {
  const name = useId();
  const counted = useUntrackedCheck(isCheckedVersion(target) ? target.id : null).data;
  const pending = counted?.state === 'ready' && older && counted.report.against === older.id ? counted.report.pending : null;
  const newer = `v${target.documentVersion}`;
  const olderName = older ? `v${older.documentVersion}` : 'the older version';
  const choices = [
    { view: 'pending', label: `Keep ${newer}'s pending tracked changes`, help: `They stay tracked under their own authors beside the comparison's; a pending change of ${olderName} that ${newer} no longer holds is shown as a difference.` },
    { view: 'accepted', label: 'Compare as Word does', help: 'Both versions as if every tracked change were accepted: no pending change is shown.' },
  ] as const;
  return (
    <fieldset className="mt-2 flex flex-col gap-1.5" data-testid="compare-pending">
      <legend className="font-medium">Tracked changes already in the versions</legend>
      <p className="text-ink-soft" data-testid="compare-pending-counts">
        {pending
          ? `${olderName} holds ${pending.older} pending tracked change${pending.older === 1 ? '' : 's'}; ${newer} holds ${pending.newer}.`
          : 'How many each version holds is shown with the comparison.'}
      </p>
      {choices.map((choice) => (
        <label key={choice.view} className="flex items-start gap-2">
          <input type="radio" name={name} className="mt-1" checked={settings.view === choice.view} onChange={() => onChange({ ...settings, view: choice.view })} />
          <span><span className="font-medium">{choice.label}</span><span className="block text-xs text-ink-soft">{choice.help}</span></span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Word's compare options (Review > Compare > More), folded away under a summary that names those
 * set otherwise than Word's defaults, so a changed default is never hidden.
 */
function OptionsChoice({ settings, onChange }: { settings: CompareSettings; onChange: (next: CompareSettings) => void }) {
  const name = useId();
  const { options } = settings;
  const set = (next: Partial<CompareSettings['options']>) => onChange({ ...settings, options: { ...options, ...next } });
  const setStory = (story: keyof CompareSettings['options']['stories'], value: boolean) => set({ stories: { ...options.stories, [story]: value } });
  const changed = optionsSentence(options);
  const box = (label: string, checked: boolean, toggle: (value: boolean) => void) => (
    <label className="flex items-center gap-2"><input type="checkbox" checked={checked} onChange={(e) => toggle(e.target.checked)} />{label}</label>
  );
  return (
    <details className="mt-1 rounded border border-line px-2 py-1.5" data-testid="compare-options">
      <summary className="cursor-pointer font-medium">
        Options <span className="font-normal text-ink-soft">({changed || 'as Word’s defaults'})</span>
      </summary>
      <div className="mt-2 grid gap-x-6 gap-y-3 sm:grid-cols-2">
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-xs font-medium uppercase tracking-wide text-ink-soft">Show changes at</legend>
          {(['word', 'character'] as const).map((level) => (
            <label key={level} className="flex items-center gap-2">
              <input type="radio" name={name} checked={options.granularity === level} onChange={() => set({ granularity: level })} />
              {level === 'word' ? 'Word level' : 'Character level'}
            </label>
          ))}
        </fieldset>
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-xs font-medium uppercase tracking-wide text-ink-soft">Comparison settings</legend>
          {box('Moves', options.moves, (moves) => set({ moves }))}
          {box('Formatting', !options.ignoreFormatting, (v) => set({ ignoreFormatting: !v }))}
          {box('Case changes', !options.ignoreCase, (v) => set({ ignoreCase: !v }))}
          {box('White space', !options.ignoreWhitespace, (v) => set({ ignoreWhitespace: !v }))}
        </fieldset>
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-xs font-medium uppercase tracking-wide text-ink-soft">Also compare</legend>
          {box('Headers and footers', options.stories.headersFooters, (v) => setStory('headersFooters', v))}
          {box('Footnotes and endnotes', options.stories.notes, (v) => setStory('notes', v))}
          {box('Text boxes', options.stories.textBoxes, (v) => setStory('textBoxes', v))}
        </fieldset>
        <div className="flex items-end">
          <button type="button" className="btn btn-quiet px-1.5 py-0 text-xs" disabled={!changed} onClick={() => onChange({ ...settings, options: DEFAULT_COMPARE_SETTINGS.options })}>
            Reset to Word’s defaults
          </button>
        </div>
      </div>
    </details>
  );
}
