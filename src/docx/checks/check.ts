import type { CheckFinding, CheckView } from '../../contract/checks';
import type { Block, ParagraphBlock } from '../../contract/reading';
import { contentTag } from '../reading/tag';
import { Alignment, changesAt, structuralChanges } from './alignment';
import type { CheckParagraph, Place, ViewAnalysis, ViewFacts, ViewFinding } from './model';
import { wholeParagraph } from './model';
import { placeholderFindings } from './placeholders';
import { crossReferenceFindings, normaliseClause, numberingFindings } from './references';
import { ParagraphReads, TermChecks, termKey } from './terms';

/** About how many characters of body text a printed page of a contract holds (11 pt, normal margins). */
const CHARS_PER_PAGE = 3000;

/** The paragraphs of blocks in reading order, table cells included. */
export function paragraphsOf(blocks: readonly Block[]): ParagraphBlock[] {
  const out: ParagraphBlock[] = [];
  const visit = (list: readonly Block[]): void => {
    for (const b of list) {
      if (b.type === 'paragraph') out.push(b);
      else for (const row of b.rows) for (const cell of row.cells) visit(cell.blocks);
    }
  };
  visit(blocks);
  return out;
}

/** The findings of one view of a document, with the facts another view's findings are weighed against. */
export function analyseView(paragraphs: readonly CheckParagraph[], reads: ParagraphReads = new ParagraphReads()): ViewAnalysis {
  const facts: ViewFacts = { terms: new Map(), clauses: new Map() };
  const terms = new TermChecks(paragraphs, reads);
  const findings = [
    ...terms.run(facts),
    ...crossReferenceFindings(paragraphs, facts, (block) => terms.citationsOf(block)),
    ...numberingFindings(paragraphs),
    ...placeholderFindings(paragraphs),
  ];
  findings.sort((a, b) => a.at.block - b.at.block || a.at.start - b.at.start || a.kind.localeCompare(b.kind));
  return { findings, facts };
}

export interface DocumentViews {
  /** The draft as it stands: every change located in its paragraphs (the reading model's markup view). */
  markup: readonly Block[];
  /** The engine's accept-all and reject-all of it. */
  accepted: readonly Block[];
  rejected: readonly Block[];
}

/**
 * The checks of both views of a draft, each finding with the changes that bring it.
 *
 * causedBy, the method: a finding of view A (accepted, say) that view B (rejected) also has
 * stands either way: causedBy is empty. One that B lacks is brought by deciding changes, and
 * those are the changes lying on the places that make it: in A, its own places (the use of an
 * undefined term, a definition never used, the citation, the placeholder, the two clauses of a
 * numbering slip); in B, the places that undo it (the definition the term had, the uses the
 * definition had, the clause the citation found). Places are carried from a view to the draft
 * as it stands by aligning each view's paragraphs with the draft's (alignment.ts). Where no
 * change lies on those places (a citation broken by renumbering: clause 7.4 became 7.3 when
 * 7.3 was deleted), the changes that insert, delete or renumber numbered paragraphs are named.
 * Each change named comes with the rest of its edit group (a deleted paragraph's text and its
 * mark, a replacement's deletion and insertion): the review decides an edit as one entry.
 */
export function checkDocument(views: DocumentViews, reads: ParagraphReads = new ParagraphReads()): Record<CheckView, CheckFinding[]> {
  const markup = paragraphsOf(views.markup);
  const read = (blocks: readonly Block[], view: CheckView) => {
    const paragraphs = paragraphsOf(blocks);
    return { paragraphs, analysis: analyseView(paragraphs, reads), alignment: new Alignment(paragraphs, markup, view) };
  };
  const accepted = read(views.accepted, 'accepted');
  const rejected = read(views.rejected, 'rejected');
  const groups = editGroups(markup);
  return {
    accepted: groupPlaceholders(settle(accepted, rejected, markup, groups)),
    rejected: groupPlaceholders(settle(rejected, accepted, markup, groups)),
  };
}

interface ReadView {
  paragraphs: ParagraphBlock[];
  analysis: ViewAnalysis;
  alignment: Alignment;
}

function settle(a: ReadView, b: ReadView, markup: readonly ParagraphBlock[], groups: EditGroupsOf): CheckFinding[] {
  // B's findings by key; a place finding's twins by the markup paragraph they lie in (as samePlace compares them).
  const others = new Map<string, Map<number, MarkupPlace[]>>();
  for (const f of b.analysis.findings) {
    const key = sameKey(f);
    let byParagraph = others.get(key);
    if (!byParagraph) others.set(key, byParagraph = new Map());
    if (f.identity === 'term') continue;
    const at = b.alignment.toMarkup(f.at);
    if (!at) continue;
    const list = byParagraph.get(at.markup);
    if (list) list.push(at);
    else byParagraph.set(at.markup, [at]);
  }
  const pages = pagesOf(a.paragraphs);
  const clauses = clausesOf(a.paragraphs);
  const seen = new Map<string, number>();
  // The changes that insert, delete or renumber numbered paragraphs: read once, on the first finding that needs them.
  let structural: string[] | undefined;
  return a.analysis.findings.map((f): CheckFinding => {
    const twins = others.get(sameKey(f));
    let stands = twins !== undefined;
    if (twins && f.identity !== 'term') {
      const at = a.alignment.toMarkup(f.at);
      stands = at !== null && (twins.get(at.markup) ?? []).some((t) => samePlace(at, t));
    }
    let causedBy: string[] = [];
    if (!stands) {
      const ids = new Set<string>([...changesAt(a.alignment, f.evidence), ...changesAt(b.alignment, undoing(f, b))]);
      if (ids.size === 0 && (f.kind === 'broken_cross_reference' || f.kind === 'numbering_out_of_sequence')) for (const id of structural ??= structuralChanges(markup)) ids.add(id);
      causedBy = withTheirGroups(ids, groups);
    }
    const block = a.paragraphs[f.at.block]!;
    const idKey = `${f.kind}\u0001${f.term ?? ''}\u0001${f.reference ?? ''}\u0001${f.excerpt}\u0001${block.id}`;
    const nth = (seen.get(idKey) ?? 0) + 1;
    seen.set(idKey, nth);
    return {
      id: `f${contentTag(`${idKey}\u0001${nth}`)}`,
      kind: f.kind,
      message: f.message,
      blockId: block.id,
      excerpt: f.excerpt,
      term: f.term,
      reference: f.reference,
      page: pages[f.at.block]!,
      clause: clauses[f.at.block]!,
      causedBy,
      fix: f.replaceWith === null ? null : fixOf(f, a.alignment, markup),
    };
  });
}

/** A bracketed blank: nothing but blank marks between the brackets ("[__]", "[●]", "[   ]"). */
const BLANK = /^\[[\s●•_.…-]*\]$/u;

/**
 * A template's blanks are one finding per kind, with their count, at the first: a form left to
 * complete has dozens of "[__]", and one finding per blank buried everything else. Blanks are of
 * one kind, other placeholders by their text ("[name of Fund]" twice is one finding). A placeholder
 * brought by a change (causedBy not empty) stays its own finding: it is what deciding brings.
 */
function groupPlaceholders(findings: CheckFinding[]): CheckFinding[] {
  const kindOf = (f: CheckFinding) => (BLANK.test(f.excerpt) ? '\u0001blank' : f.excerpt.toLowerCase());
  const groups = new Map<string, CheckFinding[]>();
  for (const f of findings) {
    if (f.kind !== 'placeholder' || f.causedBy.length > 0) continue;
    const list = groups.get(kindOf(f));
    if (list) list.push(f);
    else groups.set(kindOf(f), [f]);
  }
  const folded = new Set<CheckFinding>();
  const first = new Map<CheckFinding, string>();
  for (const [kind, list] of groups) {
    if (list.length < 2) continue;
    for (const f of list.slice(1)) folded.add(f);
    const n = list.length;
    first.set(list[0]!, kind === '\u0001blank'
      ? `${n} blanks such as “${list[0]!.excerpt}” are left to complete (the first is here).`
      : `“${list[0]!.excerpt}” is a placeholder left to complete, ${n} times (the first is here).`);
  }
  if (folded.size === 0) return findings;
  return findings.filter((f) => !folded.has(f)).map((f) => (first.has(f) ? { ...f, message: first.get(f)! } : f));
}

/** Each change's edit group (what Word shows as one edit: a replacement, a deleted paragraph's text and mark), and each group's changes. */
interface EditGroupsOf {
  of: Map<string, string>;
  members: Map<string, string[]>;
}

function editGroups(markup: readonly ParagraphBlock[]): EditGroupsOf {
  const of = new Map<string, string>();
  const members = new Map<string, string[]>();
  for (const p of markup) {
    for (const c of p.changes ?? []) {
      if (!c.group || of.has(c.change_id)) continue;
      of.set(c.change_id, c.group);
      const list = members.get(c.group);
      if (list) list.push(c.change_id);
      else members.set(c.group, [c.change_id]);
    }
  }
  return { of, members };
}

/** The changes named, with the rest of their edit groups: the review decides an edit as one entry. */
function withTheirGroups(ids: ReadonlySet<string>, groups: EditGroupsOf): string[] {
  const out = new Set<string>();
  for (const id of ids) {
    out.add(id);
    const group = groups.of.get(id);
    for (const member of group ? groups.members.get(group) ?? [] : []) out.add(member);
  }
  return [...out];
}

function sameKey(f: ViewFinding): string {
  return f.identity === 'term' ? `${f.kind}\u0001${termKey(f.term ?? '')}` : `${f.kind}\u0001${f.term ?? ''}\u0001${f.reference ?? ''}\u0001${f.excerpt}`;
}

interface MarkupPlace {
  markup: number;
  start: number;
  end: number;
}

function samePlace(x: MarkupPlace | null, y: MarkupPlace | null): boolean {
  return x !== null && y !== null && x.markup === y.markup && x.start < Math.max(y.end, y.start + 1) && y.start < Math.max(x.end, x.start + 1);
}

/** The places of view B that undo finding f of view A (see checkDocument). */
function undoing(f: ViewFinding, b: ReadView): Place[] {
  const facts = b.analysis.facts;
  switch (f.kind) {
    case 'undefined_term':
      return facts.terms.get(termKey(f.term!))?.definitions ?? [];
    case 'unused_definition':
      return facts.terms.get(termKey(f.term!))?.uses ?? [];
    case 'broken_cross_reference': {
      const number = f.reference!.replace(/^\S+\s+/, '');
      const word = f.reference!.split(/\s+/)[0]!.toLowerCase().replace(/s$/, '');
      const block = facts.clauses.get(normaliseClause(number)) ?? facts.clauses.get(`${word} ${number.toLowerCase()}`);
      return block === undefined ? [] : [wholeParagraph(b.paragraphs, block)];
    }
    default:
      return [];
  }
}

/** The fix as an edit of the draft as it stands: the excerpt's occurrence in its markup paragraph, when it lies there unchanged. */
function fixOf(f: ViewFinding, alignment: Alignment, markup: readonly ParagraphBlock[]): CheckFinding['fix'] {
  const at = alignment.toMarkup(f.at);
  if (!at) return null;
  const p = markup[at.markup]!;
  if (p.text.slice(at.start, at.end) !== f.excerpt) return null;
  if ((p.changes ?? []).some((c) => c.start < at.end && c.end > at.start && (c.kind === 'delete' || c.kind === 'insert'))) return null;
  // Counted as a redline edit anchored on the block counts: in the text without deleted text.
  const deleted = (p.changes ?? []).filter((c) => c.kind === 'delete');
  let live = '';
  let liveAt = -1;
  for (let k = 0; k < p.text.length; k++) {
    if (k === at.start) liveAt = live.length;
    if (!deleted.some((c) => k >= c.start && k < c.end)) live += p.text[k];
  }
  let occurrence = 0;
  for (let i = live.indexOf(f.excerpt); i >= 0 && i <= liveAt; i = live.indexOf(f.excerpt, i + 1)) occurrence++;
  if (occurrence === 0) return null;
  return { blockId: p.id, find: f.excerpt, occurrence, replaceWith: f.replaceWith! };
}

function pagesOf(paragraphs: readonly ParagraphBlock[]): number[] {
  let chars = 0;
  return paragraphs.map((p) => {
    const page = Math.floor(chars / CHARS_PER_PAGE) + 1;
    if (p.story === 'body') chars += p.text.length + 1;
    return page;
  });
}

function clausesOf(paragraphs: readonly ParagraphBlock[]): (string | null)[] {
  let last: string | null = null;
  return paragraphs.map((p) => {
    if (p.story !== 'body') return p.numbering ?? null;
    if (p.numbering !== undefined) last = p.numbering;
    return last;
  });
}
