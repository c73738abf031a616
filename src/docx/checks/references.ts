import type { CheckParagraph, Place, ViewFacts, ViewFinding } from './model';
import { wholeParagraph } from './model';

/**
 * broken_cross_reference and numbering_out_of_sequence, over the numbering as Word shows it: the
 * engine's clause labels ("7.3(a)") and the numbers typed at the start of a paragraph ("7.3 ",
 * "(b) "), and the titles of schedules, annexes, exhibits and appendices ("Schedule 3", "EXHIBIT A").
 *
 * A citation is "Section 14.2", "Clause 7(b)", "clauses 4 and 5", "Sections 3.1 to 3.4",
 * "Schedule 3", "paragraph (c) above". It cites something of another document (not checked)
 * when "of", "under" or "in" and a name other than this agreement follow it ("Section 409A of
 * the Code"), when a statute's name comes before it ("Government Code Section 65852.2"), and when
 * its number is a statute's (three digits or more, a part with a leading zero, "1.704-1"). It is broken when the document has no clause, paragraph or schedule so numbered.
 */

const CLAUSE_WORDS = 'sections?|clauses?|articles?|sub-?clauses?|paragraphs?|sub-?paragraphs?|sub-?sections?';
const ANNEX_WORDS = 'schedules?|annex(?:es)?|exhibits?|appendix|appendices|attachments?';
const NUMBER = String.raw`(?:\d+(?:\.\d+)*[A-Z]?(?:\s?\([a-zA-Z0-9]{1,5}\))*|\([a-zA-Z0-9]{1,5}\)(?:\s?\([a-zA-Z0-9]{1,5}\))*)`;
const ANNEX_NUMBER = String.raw`(?:\d+|[A-Z]{1,2}(?:-\d+)?|[IVX]+)\b`;
const CITATION = new RegExp(String.raw`\b(${CLAUSE_WORDS}|${ANNEX_WORDS})\s+(${NUMBER}|${ANNEX_NUMBER})((?:\s*(?:,|and|or|to|through|and/or)\s*(?:${NUMBER}))*)`, 'giu');
/**
 * A stem every citation word holds (same flags, so the same case folding): a paragraph without one
 * cites nothing, and this test is a fraction of the citation pattern's cost (34-48 -> 15-22 ms per
 * view of the 100-page benchmark draft).
 */
const CITATION_STEM = /section|clause|article|paragraph|schedule|annex|exhibit|appendi|attachment/iu;
const ANNEX_WORD = new RegExp(`^(?:${ANNEX_WORDS})$`, 'i');
const ANNEX_CITED = new RegExp(`^(?:${ANNEX_WORDS})\\b`, 'i');
const NUMBERS = new RegExp(NUMBER, 'gu');
/** A statute's or code's citation style: "Government Code Section 65852.2", "Treasury Regulations Section 1.704-1(b)", "Section 17.06.040". */
const FOREIGN_BEFORE = /\b(?:Code|Act|Acts|Regulations?|Regs?\.|Rules?|U\.S\.C\.|C\.F\.R\.|Constitution|Ordinance|Treaty|Convention|Directive|Statutes?|Law)\s*$/u;
const TAX_FORM_AFTER = /^\s*\(?\s*(?:to\s+)?(?:IRS\s+)?Form\s+\d/u;
const TAX_FORM_BEFORE = /\b(?:IRS|Internal Revenue Service|Forms?\s+\d+[A-Z-]*|federal(?: income)? tax)[\s,]*$/iu;
const FOREIGN_NUMBER = /^\d{3,}|(?:^|\.)0\d|^\d+(?:\.\d+)*-\d/;
const FOREIGN = /^\s*(?:of|under|in|to)\s+(?:the\s+)?(?!this\b|these\b|hereof|herein|the agreement\b|the contract\b|this agreement\b)[A-Z\p{Lu}]/u;

/** The normalised form of a clause number: "14.2." → "14.2", "7 (b)" → "7(b)", lower case. */
export function normaliseClause(s: string): string {
  return s.replace(/\s+/g, '').replace(/\.$/, '').replace(/^(?:clause|section|article|paragraph)/i, '').toLowerCase();
}

const MANUAL_NUMBER = /^\s*((?:\d+\.)*\d+\.?|\([a-z]{1,4}\)|\([ivxlc]{1,6}\)|\(\d{1,3}\)|[a-z]\)|[A-Z]\.)(?=[\s\u00a0])/u;
const ANNEX_TITLE = new RegExp(String.raw`^\s*(${ANNEX_WORDS})\s+(${ANNEX_NUMBER})`, 'iu');
const ARTICLE_TITLE = /^\s*(article|section|clause)\s+(\d+(?:\.\d+)*|[IVX]+)\b/iu;

/** The number a paragraph shows: its engine label, else the number typed at its start. */
export function numberOf(p: CheckParagraph): { label: string; manual: boolean } | null {
  if (p.numbering !== undefined) return { label: p.numbering, manual: false };
  const m = MANUAL_NUMBER.exec(p.text);
  return m ? { label: m[1]!, manual: true } : null;
}

/** Every clause, paragraph and annex the document holds, by normalised reference; and the labels' last parts ("(c)"). */
export function clauseIndex(paragraphs: readonly CheckParagraph[], facts: ViewFacts): Set<string> {
  const tails = new Set<string>();
  // A loop calling a module function rather than a callback making its own helper per paragraph: the service runs
  // through tsx, which names every local function as it is made (a property definition each time).
  const clauses = facts.clauses;
  for (let i = 0; i < paragraphs.length; i++) {
    const p = paragraphs[i]!;
    if (p.story !== 'body') continue;
    const n = numberOf(p);
    if (n) {
      const label = normaliseClause(n.label);
      addClause(clauses, label, i);
      const tail = /\([a-z0-9]+\)$/.exec(label)?.[0];
      if (tail) tails.add(tail);
      else if (/^[a-z0-9]+\)$/.test(label)) tails.add(`(${label}`);
      // A label that repeats the article ("Article 5", "Section 5.") is cited by its number alone.
      const m = /^(?:article|section|clause)\s*(.+)$/i.exec(n.label.trim());
      if (m) addClause(clauses, normaliseClause(m[1]!), i);
    }
    const annex = ANNEX_TITLE.exec(p.text);
    if (annex) addClause(clauses, `${annexWord(annex[1]!)} ${annex[2]!.toLowerCase()}`, i);
    // "Article 5 Confidentiality" as a title: short, no sentence ("Clause 3 survives termination." cites, it is no title).
    const article = ARTICLE_TITLE.exec(p.text);
    if (article && p.text.trim().length <= 80 && !/[.;,]$/.test(p.text.trim())) addClause(clauses, normaliseClause(article[2]!), i);
  }
  return tails;
}

/** The first paragraph to hold a reference is the one it finds. */
function addClause(clauses: Map<string, number>, ref: string, block: number): void {
  if (!clauses.has(ref)) clauses.set(ref, block);
}

function annexWord(w: string): string {
  const s = w.toLowerCase();
  if (s.startsWith('schedule')) return 'schedule';
  if (s.startsWith('annex')) return 'annex';
  if (s.startsWith('exhibit')) return 'exhibit';
  if (s.startsWith('append')) return 'appendix';
  return 'attachment';
}

/** A citation as the pattern matches it in a paragraph's text: where, the whole match and its groups. */
export interface CitationMatch {
  index: number;
  match: string;
  word: string;
  first: string;
  rest: string | undefined;
}

/** The citations the pattern finds in a text: none without a citation word's stem. What the text alone decides (the views share it). */
export function citationMatches(text: string): CitationMatch[] {
  if (!CITATION_STEM.test(text)) return [];
  return [...text.matchAll(CITATION)].map((m) => ({ index: m.index, match: m[0], word: m[1]!, first: m[2]!, rest: m[3] }));
}

/** `citations` gives paragraph `block`'s citationMatches (kept across views by the caller, or read afresh). */
export function crossReferenceFindings(
  paragraphs: readonly CheckParagraph[], facts: ViewFacts,
  citations: (block: number) => readonly CitationMatch[] = (block) => citationMatches(paragraphs[block]!.text),
): ViewFinding[] {
  const tails = clauseIndex(paragraphs, facts);
  const hasClauses = [...facts.clauses.keys()].some((k) => /^[\d(]/.test(k));
  // Every clause's heads ("7" and "7.3" of "7.3(a)"): a citation of a head cites the clause that opens it.
  const heads = new Set<string>();
  for (const k of facts.clauses.keys()) for (const m of k.matchAll(/[.(]/g)) heads.add(k.slice(0, m.index));
  const out: ViewFinding[] = [];
  // The clause numbers cited, by whether the document has them (annexes aside: see below).
  const resolved = new Set<string>();
  const missing = new Set<string>();
  paragraphs.forEach((p, block) => {
    if (p.story === 'comment') return;
    for (const m of citations(block)) {
      const word = m.word.toLowerCase();
      const end = m.index + m.match.length;
      if (FOREIGN.test(p.text.slice(end, end + 60)) || FOREIGN_BEFORE.test(p.text.slice(Math.max(0, m.index - 40), m.index))) continue;
      if (FOREIGN_NUMBER.test(p.text.slice(m.index + m.word.length + 1, end + 2))) continue;
      // "Article 5" in a title is the article itself, not a citation.
      if (m.index === 0 && numberOf(p) === null && ARTICLE_TITLE.test(p.text) || ANNEX_TITLE.test(p.text) && m.index <= 2) continue;
      const annex = ANNEX_WORD.test(word);
      // "schedule to", "schedules or": a lower-case word after it is no letter of a schedule.
      if (annex && /^\p{Ll}/u.test(m.first)) continue;
      // A tax form's schedule ("Schedule K-1 (Form 1065)", "IRS Schedule K-1"): another document's.
      if (annex && (TAX_FORM_AFTER.test(p.text.slice(end, end + 20)) || TAX_FORM_BEFORE.test(p.text.slice(Math.max(0, m.index - 40), m.index)))) continue;
      const numbers = [m.first, ...[...(m.rest ?? '').matchAll(NUMBERS)].map((x) => x[0])];
      const range = /\bto\b|\bthrough\b/.test(m.rest ?? '');
      for (const [k, number] of numbers.entries()) {
        if (range && k > 0 && k < numbers.length - 1) continue;
        const found = annex ? facts.clauses.has(`${annexWord(word)} ${number.toLowerCase()}`) : this_(number, facts, heads, tails, hasClauses);
        if (!annex && found !== null && !number.startsWith('(')) (found ? resolved : missing).add(normaliseClause(number));
        if (found !== false) continue;
        const at = k === 0 ? m.index : m.index + m.match.lastIndexOf(number);
        const place: Place = { block, start: at, end: k === 0 ? m.index + m.word.length + 1 + number.length : at + number.length };
        const reference = k === 0 ? p.text.slice(at, place.end) : `${m.word} ${number}`;
        const what = annex ? annexWord(word) : /paragraph/i.test(word) ? 'paragraph' : /article/i.test(word) ? 'article' : /section/i.test(word) ? 'section' : 'clause';
        out.push({
          kind: 'broken_cross_reference', term: null, reference, at: place, excerpt: p.text.slice(place.start, place.end),
          message: `${reference} is cited, but the document has no ${what} ${number}.`,
          replaceWith: null, identity: 'place', evidence: [place],
        });
      }
    }
  });
  // Many of the clauses a document cites missing (five or more, and a quarter of those cited) is
  // no drafting slip but numbering this reading cannot follow (numbers Word computes from fields
  // or styles it does not see, an extract of a longer agreement): its clause citations say
  // nothing then, and are not reported one by one. A slip is one or two among dozens found.
  if (missing.size >= UNREADABLE_NUMBERING_MIN && missing.size * 3 >= resolved.size) {
    return out.filter((f) => ANNEX_CITED.test(f.reference!));
  }
  return out;
}

/** How many distinct clause numbers cited and missing (a quarter of those cited or more) say the numbering was not read. */
const UNREADABLE_NUMBERING_MIN = 5;

/** Whether a clause number is in the document: true, false, or null when it cannot be told (a "(c)" in a document without numbering). */
function this_(number: string, facts: ViewFacts, heads: Set<string>, tails: Set<string>, hasClauses: boolean): boolean | null {
  const n = normaliseClause(number);
  if (facts.clauses.has(n)) return true;
  // "paragraph (c)" cites a sub-paragraph of the clause it is in: any "(c)" will do.
  if (n.startsWith('(')) return tails.has(n) ? true : hasClauses ? false : null;
  // "7(b)" where the engine labels it "7.1(b)" is a guess too far; "7" when only "7.1" exists is the clause's head.
  if (heads.has(n)) return true;
  // A clause number a document without any numbering cites is missing all the same.
  return false;
}

// ---- numbering_out_of_sequence ----

interface Part {
  value: number;
  /** The shape of the part, so "(a)" and "1." count in separate sequences. */
  shape: string;
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

function romanValue(s: string): number | null {
  if (!/^[ivxlc]+$/i.test(s)) return null;
  let total = 0;
  const t = s.toLowerCase();
  for (let i = 0; i < t.length; i++) {
    const v = ROMAN[t[i]!]!;
    const next = ROMAN[t[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

/** A label's parts: "7.3(a)" → 7 / 3 / (a); letters and roman numerals by value. */
function partsOf(label: string, previous: Part | undefined): Part[] | null {
  const out: Part[] = [];
  const re = /(\d+)|\(([a-z]{1,4}|\d+)\)|([a-z]{1,4})\)|([A-Z])\./gy;
  const s = label.replace(/\s+/g, '').replace(/^(?:article|section|clause)/i, '');
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < s.length) {
    re.lastIndex = at;
    m = re.exec(s);
    if (!m) {
      if (s[at] === '.') {
        at++;
        continue;
      }
      return null;
    }
    at = re.lastIndex;
    if (m[1]) out.push({ value: Number(m[1]), shape: 'n' });
    else if (m[4]) out.push({ value: m[4].charCodeAt(0) - 64, shape: 'A.' });
    else {
      const inner = (m[2] ?? m[3])!;
      const wrap = m[2] !== undefined ? '()' : ')';
      if (/^\d+$/.test(inner)) out.push({ value: Number(inner), shape: `${wrap}n` });
      else {
        // "(i)" after "(h)" is a letter; otherwise a roman numeral reads as one.
        const roman = romanValue(inner);
        const letter = inner.length === 1 ? inner.toLowerCase().charCodeAt(0) - 96 : null;
        const prevIsLetter = previous?.shape === `${wrap}a`;
        if (roman !== null && !(prevIsLetter && letter !== null && previous!.value === letter - 1)) out.push({ value: roman, shape: `${wrap}i` });
        else if (letter !== null) out.push({ value: letter, shape: `${wrap}a` });
        else return null;
      }
    }
  }
  return out.length ? out : null;
}

export function numberingFindings(paragraphs: readonly CheckParagraph[]): ViewFinding[] {
  const out: ViewFinding[] = [];
  // The last number seen under each parent ("7.3" for 7.3(a)'s siblings), per source and shape.
  let last = new Map<string, { value: number; block: number }>();
  paragraphs.forEach((p, block) => {
    if (p.story !== 'body') return;
    if (ANNEX_TITLE.test(p.text) && p.text.trim().length < 120) {
      // A schedule starts its own numbering.
      last = new Map();
      return;
    }
    const n = numberOf(p);
    if (!n) return;
    const source = n.manual ? 'typed' : 'auto';
    const probeKey = (parts: Part[]) => `${source}|${parts.slice(0, -1).map((x) => `${x.shape}${x.value}`).join('.')}`;
    // Read the label once to find its parent, then again with the sibling before it (for "(i)" after "(h)").
    const first = partsOf(n.label, undefined);
    if (!first) return;
    const parent = probeKey(first);
    // The sibling a letter would follow: the letters' sequence under this parent, not a roman numerals' one that came first
    // ("(c)" after "(b)" is a letter even where an "(i), (ii)" list ran under the same parent before).
    const siblings = [...last.entries()].filter(([k]) => k.startsWith(`${parent}|`));
    const lastShape = siblings.find(([k]) => k.endsWith('a')) ?? siblings[0];
    const parts = partsOf(n.label, lastShape ? { value: lastShape[1].value, shape: lastShape[0].slice(parent.length + 1) } : undefined)!;
    const tail = parts[parts.length - 1]!;
    const key = `${probeKey(parts)}|${tail.shape}`;
    const noun = /^\s*\(/.test(n.label) ? 'Paragraph' : 'Clause';
    const before = last.get(key);
    // A deeper level starting again under a new parent is no skip; a return to the first number is a new list.
    if (before && tail.value !== 1) {
      const label = n.label.trim();
      if (tail.value === before.value) {
        out.push(numberingFinding(paragraphs, block, before.block, label, `${noun} ${label} is numbered the same as the one before it.`));
      } else if (tail.value > before.value + 1) {
        out.push(numberingFinding(paragraphs, block, before.block, label, `${noun} ${label} follows ${paragraphs[before.block]!.numbering ?? numberOf(paragraphs[before.block]!)!.label.trim()}: the numbering skips ${skipped(before.value, tail.value, tail.shape)}.`));
      } else if (tail.value < before.value) {
        out.push(numberingFinding(paragraphs, block, before.block, label, `${noun} ${label} comes after ${paragraphs[before.block]!.numbering ?? numberOf(paragraphs[before.block]!)!.label.trim()}: the numbering goes backwards.`));
      }
    }
    last.set(key, { value: tail.value, block });
    // A new parent clears the sequences below the old one.
    const depth = parts.length;
    for (const k of [...last.keys()]) if (k.startsWith(`${source}|`) && k.split('|')[1]!.split('.').filter(Boolean).length >= depth) last.delete(k);
  });
  return out;
}

function skipped(from: number, to: number, shape: string): string {
  const show = (v: number) => (shape.endsWith('a') ? String.fromCharCode(96 + v) : shape === 'A.' ? String.fromCharCode(64 + v) : String(v));
  return to - from === 2 ? show(from + 1) : `${show(from + 1)} to ${show(to - 1)}`;
}

function numberingFinding(paragraphs: readonly CheckParagraph[], block: number, before: number, label: string, message: string): ViewFinding {
  const p = paragraphs[block]!;
  const manual = p.numbering === undefined;
  const at: Place = manual ? { block, start: p.text.indexOf(label), end: p.text.indexOf(label) + label.length } : { block, start: 0, end: Math.min(p.text.length, 60) };
  return {
    kind: 'numbering_out_of_sequence', term: null, reference: label, at, excerpt: manual ? label : p.text.slice(at.start, at.end),
    message, replaceWith: null, identity: 'place', evidence: [wholeParagraph(paragraphs, block), wholeParagraph(paragraphs, before)],
  };
}
