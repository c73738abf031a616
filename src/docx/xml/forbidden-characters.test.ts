import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { firstForbiddenCharacter, replaceForbiddenCharacters } from '../../contract/xml-characters';
import { compareDocx, openDocx } from '..';
import { buildDocx, by, ins, p } from '../fixture';
import { decodeXml, escapeAttr, escapeText } from './escape';
import { parseXml } from './parse';
import { hostileFieldText, hostileText } from '../../../test/support/forbidden-text';

/**
 * Issue 31 item 4: whatever text reaches the engine's writer, every part it writes stays
 * well-formed XML. Random strings mix the characters XML 1.0 cannot hold (C0 controls, U+FFFE,
 * U+FFFF, lone surrogates of either half) with markup characters and ordinary text; each text field
 * the service passes to the engine (redline text and author, comment and reply text and author,
 * the comparison's author) gets them, and every XML part of the result and of its render variant
 * is checked for those characters at once and by xmllint at the end, all parts in a few calls.
 */

const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
const work = mkdtempSync(path.join(tmpdir(), 'redline-forbidden-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The XML parts of a package, by name. */
function xmlParts(bytes: Uint8Array): [string, string][] {
  return Object.entries(unzipSync(bytes)).filter(([name]) => /\.(xml|rels)$/.test(name)).map(([name, data]) => [name, strFromU8(data)]);
}

/** Checks each part now (no forbidden character; the engine's parser reads it) and keeps it for xmllint. */
class WrittenParts {
  private files: string[] = [];

  check(label: string, bytes: Uint8Array): void {
    for (const [name, xml] of xmlParts(bytes)) {
      expect(firstForbiddenCharacter(xml), `${label} ${name}`).toBeNull();
      expect(() => parseXml(xml), `${label} ${name}`).not.toThrow();
      const file = path.join(work, `${this.files.length}.xml`);
      writeFileSync(file, xml);
      this.files.push(file);
    }
  }

  /** xmllint over every kept part, a batch at a time: the names of those it refuses. */
  refused(): string[] {
    const refused: string[] = [];
    for (let i = 0; i < this.files.length; i += 200) {
      const run = spawnSync('xmllint', ['--noout', ...this.files.slice(i, i + 200)], { encoding: 'utf8' });
      if (run.status !== 0) refused.push(run.stderr.slice(0, 2000));
    }
    return refused;
  }
}

const alex = by('Alex', '2025-03-01T10:00:00Z');
const base = () => buildDocx({ body: [p('Alpha beta gamma.'), p('The fee is ', ins(alex, 'thirty'), ' days.')] });
const DATE = '2025-04-01T10:00:00Z';

describe('the writer cannot emit a character XML forbids', () => {
  it('escapeText and escapeAttr, once encoded as UTF-8 as every part is, write U+FFFD for each such character and read back as the text with it replaced', () => {
    const utf8 = (s: string) => new TextDecoder().decode(new TextEncoder().encode(s));
    fc.assert(fc.property(hostileText(), (s) => {
      for (const written of [escapeText(s), escapeAttr(s)]) {
        expect(firstForbiddenCharacter(utf8(written))).toBeNull();
        expect(decodeXml(utf8(written))).toBe(replaceForbiddenCharacters(s));
      }
      expect(replaceForbiddenCharacters(s)).toHaveLength(s.length);
    }), { seed: 31, numRuns: 2000 });
  });

  it.skipIf(!hasXmllint)('every part of a redline, a comment, a reply and a comparison stays well-formed, whatever text each field holds', () => {
    const parts = new WrittenParts();
    const fields: Record<string, (value: string) => Uint8Array[]> = {
      'redline text': (value) => {
        const doc = openDocx(base());
        doc.writeRedlines([{ op: 'replace', find: 'beta', text: value }, { op: 'insert', find: 'gamma', text: value }], { author: 'Reviewer', date: DATE });
        return [doc.toBytes(), doc.renderVariant()];
      },
      'redline author': (value) => {
        const doc = openDocx(base());
        doc.writeRedlines([{ op: 'delete', find: 'beta' }], { author: value, date: DATE });
        return [doc.toBytes(), doc.renderVariant()];
      },
      'comment text and author': (value) => {
        const doc = openDocx(base());
        doc.addComment({ find: 'Alpha' }, { author: value, date: DATE, text: value });
        return [doc.toBytes(), doc.renderVariant()];
      },
      'reply text and author': (value) => {
        const doc = openDocx(base());
        const first = doc.addComment({ find: 'Alpha' }, { author: 'Reviewer', date: DATE, text: 'Why?' });
        doc.replyToComment(first, { author: value, initials: value, date: DATE, text: value });
        return [doc.toBytes(), doc.renderVariant()];
      },
      'comparison author': (value) => [compareDocx(buildDocx({ body: [p('Alpha beta.')] }), buildDocx({ body: [p('Alpha delta.')] }), { author: value, date: DATE }).bytes],
    };
    for (const [field, write] of Object.entries(fields)) {
      fc.assert(fc.property(hostileFieldText(), (value) => {
        for (const bytes of write(value)) parts.check(`${field} ${JSON.stringify(value)}`, bytes);
      }), { seed: 31, numRuns: 40 });
    }
    expect(parts.refused()).toEqual([]);
  }, 120_000);
});
