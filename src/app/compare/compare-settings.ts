import type { CompareView } from '../../contract/compare';

/**
 * The compare dialog's choices, remembered per user on this device (localStorage: they are a
 * preference, not data the service needs to keep; another browser starts from the defaults).
 */
export interface CompareSettings {
  /** 'pending': keep the newer version's pending changes (default); 'accepted': compare as Word does. */
  view: Extract<CompareView, 'pending' | 'accepted'>;
}

export const DEFAULT_COMPARE_SETTINGS: CompareSettings = { view: 'pending' };

const keyOf = (userId: string) => `redline.compare-settings.${userId}`;

/** The settings a stored text holds; anything unreadable or unknown falls back to the defaults, field by field. */
export function parseCompareSettings(text: string | null): CompareSettings {
  let raw: unknown = null;
  try {
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  const stored = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return { view: stored.view === 'accepted' ? 'accepted' : DEFAULT_COMPARE_SETTINGS.view };
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
