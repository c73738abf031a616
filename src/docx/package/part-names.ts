import { DocxError } from '../errors';

/**
 * The zip entry names a package may hold: OPC part names (ECMA-376 Part 2, "Part names", rules M1.x),
 * written without their leading "/" as zip item names. A consumer must not read a part whose
 * name breaks them, and a name like "../../x" or "/etc/x" is a path-traversal attempt on
 * whoever unpacks the file later: such a package is refused, naming the entry.
 *
 * Checked: not empty [M1.1]; no empty segments [M1.3] (so no absolute "/x", no "a//b"); no
 * segment ending with "." [M1.9], which takes "." and ".." with it [M1.10]; no percent-encoded
 * "/" or "\" [M1.7]; no "\" at all (a Windows path separator, never a pchar) nor control
 * characters; no two names equal ignoring ASCII case [M1.12]. A zip folder entry ("word/", empty)
 * is no part; many zip tools write them, so one is let through when its segments are valid.
 * The full pchar grammar is not enforced: real files carry spaces and non-ASCII in media names.
 */
export function checkPartNames(entries: readonly { name: string; size: number }[]): void {
  const seen = new Map<string, string>();
  for (const { name, size } of entries) {
    const folder = name.endsWith('/') && size === 0;
    const problem = partNameProblem(folder ? name.slice(0, -1) : name);
    if (problem) throw new DocxError('invalid_docx', `The package holds an entry named ${JSON.stringify(name)}, which is not a valid part name: ${problem}.`);
    if (folder) continue;
    const key = name.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const other = seen.get(key);
    if (other !== undefined) {
      throw new DocxError('invalid_docx', `The package holds entries named ${JSON.stringify(other)} and ${JSON.stringify(name)}, which are the same part name ignoring case.`);
    }
    seen.set(key, name);
  }
}

/** Why `name` (a zip item name: a part name without its leading "/") is not a valid part name, or null. */
export function partNameProblem(name: string): string | null {
  if (name === '') return 'it is empty';
  if (name.includes('\\')) return 'it holds a backslash';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'it holds a control character';
  if (name.startsWith('/')) return 'it is an absolute path';
  for (const segment of name.split('/')) {
    if (segment === '') return 'it has an empty segment';
    if (segment === '.' || segment === '..') return `it has a "${segment}" segment`;
    if (segment.endsWith('.')) return 'a segment ends with "."';
    if (/%(2f|5c)/i.test(segment)) return 'a segment holds a percent-encoded "/" or "\\"';
  }
  return null;
}
