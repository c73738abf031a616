/**
 * Each font's own line height per em ("normal": ascent + descent + line gap), as the browser
 * draws it: the font itself where the machine has it, else the stand-in it draws with (fonts.ts,
 * the metric-compatible twins), which is the font whose lines the page shows. Measured once per
 * render, all fonts in one layout: a block of `line-height: normal` is one line of its font.
 */
const PROBE_PX = 100;

/** Word's fonts' line heights per em, for a font the browser could not measure (not in a document). */
const KNOWN: Record<string, number> = {
  'times new roman': 1.149,
  arial: 1.149,
  calibri: 1.2207,
  cambria: 1.1719,
  'courier new': 1.1328,
};
export const DEFAULT_NATURAL = 1.15;

const quote = (name: string) => `"${name.replace(/["\\]/g, '')}"`;

/** Measures `families` (stand-in @font-face rules in `faceCss` applied); answers a lookup by family (lower case), the default for any other. */
export async function measureNaturalLines(families: Iterable<string>, faceCss: string): Promise<(family: string | null) => number> {
  const names = [...new Set([...families].map((f) => f.trim()).filter(Boolean))];
  const known = new Map<string, number>();
  if (typeof document !== 'undefined' && names.length > 0) {
    const host = document.createElement('div');
    host.setAttribute('aria-hidden', 'true');
    host.style.cssText = 'position: fixed; left: -10000px; top: 0; visibility: hidden; contain: layout style;';
    if (faceCss) host.append(Object.assign(document.createElement('style'), { textContent: faceCss }));
    const probes = names.map((name) => {
      const div = document.createElement('div');
      div.style.cssText = `font-family: ${quote(name)}; font-size: ${PROBE_PX}px; line-height: normal; white-space: nowrap;`;
      div.textContent = 'Hg';
      host.append(div);
      return div;
    });
    document.body.append(host);
    try {
      // A stand-in face (local()) loads asynchronously: its metrics only once loaded.
      await Promise.all(names.map((name) => document.fonts.load(`${PROBE_PX}px ${quote(name)}`).catch(() => [])));
      probes.forEach((div, i) => {
        const h = div.getBoundingClientRect().height / PROBE_PX;
        if (h > 0.5 && h < 3) known.set(names[i]!.toLowerCase(), Math.round(h * 10000) / 10000);
      });
    } finally {
      host.remove();
    }
  }
  return (family) => {
    const key = family?.toLowerCase() ?? 'times new roman';
    return known.get(key) ?? KNOWN[key] ?? DEFAULT_NATURAL;
  };
}
