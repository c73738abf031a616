import { ResolvedCompareOptions, resolveCompareOptions, type CompareView } from '../../contract/compare';

/**
 * The compare dialog's choices, remembered per user on this device (localStorage: they are a
 * preference, not data the service needs to keep; another browser starts from the defaults).
 */
export interface CompareSettings {
  /** 'pending': keep the newer version's pending changes (default); 'accepted': compare as Word does. */
  view: Extract<CompareView, 'pending' | 'accepted'>;
  /** Word's compare options, every one set. */
  options: ResolvedCompareOptions;
}

export const DEFAULT_COMPARE_SETTINGS: CompareSettings = { view: 'pending', options: resolveCompareOptions() };

const keyOf = (userId: string) => `redline.compare-settings.${userId}`;

/** The settings a stored text holds; anything unreadable or unknown falls back to the defaults (the view and the options each on their own). */
export function parseCompareSettings(text: string | null): CompareSettings {
  let raw: unknown = null;
  try {
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  const stored = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const options = ResolvedCompareOptions.safeParse(stored.options);
  return {
    view: stored.view === 'accepted' ? 'accepted' : DEFAULT_COMPARE_SETTINGS.view,
    options: options.success ? options.data : DEFAULT_COMPARE_SETTINGS.options,
  };
}

export function loadCompareSettings(userId: string, storage: Pick<Storage, 'getItem'> = localStorage): CompareSettings {
  try {
    return parseCompareSettings(storage.getItem(keyOf(userId)));
  } catch {
    return DEFAULT_COMPARE_SETTINGS;
  }
}

export function saveCompareSettings(userId: string, settings: CompareSettings, storage: Pick<Storage, 'setItem'> = localStorage): void {
  try {
    storage.setItem(keyOf(userId), JSON.stringify(settings));
  } catch {
    /* remembered for this dialog only */
  }
}

/** The options that differ from Word's defaults, as a reader names them: "character level, case ignored". Empty for the defaults. */
export function optionsSentence(options: ResolvedCompareOptions): string {
  const parts: string[] = [];
  if (options.granularity === 'character') parts.push('changes shown at character level');
  if (options.ignoreCase) parts.push('case ignored');
  if (options.ignoreWhitespace) parts.push('white space ignored');
  if (options.ignoreFormatting) parts.push('formatting ignored');
  if (!options.moves) parts.push('moves shown as deletions and insertions');
  const left = [
    ...(options.stories.headersFooters ? [] : ['headers and footers']),
    ...(options.stories.notes ? [] : ['footnotes and endnotes']),
    ...(options.stories.textBoxes ? [] : ['text boxes']),
  ];
  if (left.length) parts.push(`${left.join(', ')} not compared`);
  return parts.join('; ');
}
