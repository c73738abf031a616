/**
 * "Comparison: what changed in v2 since v1, as 2 changes by “Comparison”." The count is the list's
 * (entries: a replaced word is one); without the comparison's summary, the draft's own count.
 */
export function comparedSentence(newer: number, older: number | null, made: { entries: number; author: string | null }): string {
  const what = `${made.entries} ${made.author ? '' : 'tracked '}change${made.entries === 1 ? '' : 's'}${made.author ? ` by “${made.author}”` : ''}`;
  return `Comparison: what changed in v${newer} since ${older === null ? 'the older version' : `v${older}`}, as ${what}.`;
}

/** The phone's one line: "v1 → v2: 2 changes, 1 pending kept" (`kept`: the newer version's own pending changes the draft keeps tracked). */
export function shortComparedSentence(newer: number, older: number | null, entries: number, kept: number): string {
  const versions = `${older === null ? 'Older' : `v${older}`} → v${newer}`;
  if (entries === 0) return `${versions}: no differences`;
  return `${versions}: ${entries} change${entries === 1 ? '' : 's'}${kept > 0 ? `, ${kept} pending kept` : ''}`;
}
