import type { CheckParagraph, Place, ViewFacts, ViewFinding } from './model';
import { citationMatches, type CitationMatch } from './references';
import { isAllCaps, isCapitalised, looksLikeHeading, MINOR_WORDS, quotedSpans, runInHeadingEnd, WordList, type Quoted } from './text';

/**
 * The defined-term checks: undefined_term, unused_definition, duplicate_definition and
 * term_variant. How a term is recognised (each rule has its test in terms.test.ts):
 *
 * - A definition is a quoted capitalised phrase of at most eight words ("…", “…”, ‘…’) that is
 *   followed by a defining verb ("means", "shall mean", "has the meaning", "includes", "refers
 *   to", ":"), or sits in parentheses ("(the “Supplier”)", "(each a “Party”)", "(together, the
 *   “Parties”)"), or follows "referred to as" / "hereinafter", or opens its paragraph or table
 *   cell (a definitions list or schedule). Any other quoted text is quoted speech: neither a
 *   definition nor a use.
 * - A use is the term as defined, or its plural or possessive, anywhere outside its definition.
 * - A capitalised phrase (Title Case words, "of" and "for" between them) is used *as a defined
 *   term* when it is used at least twice with a determiner before it ("the", "each", "any",
 *   "such"…), or mid-sentence at least three times. Not counted: sentence starts, headings and run-in headings,
 *   quoted speech, all-capital words, citations ("Schedule 3", "Companies Act 2006"), company names
 *   ("… Limited", "… Inc."), months and days, a short list of places, and every name written in the
 *   preamble (the paragraphs before the first heading or numbered clause: the parties as named).
 * - A variant is a capitalised phrase, not itself defined, one edit (two for phrases of nine
 *   letters or more) from a defined term or a party's name; or a defined phrase written in lower
 *   case after "the" where the term is otherwise used capitalised at least three times as often.
 */

const DEFINING_AFTER = /^[”"’']?\s*[,)]?\s*(?:means|mean|shall mean|shall have the meaning|has the meaning|have the meaning|have the meanings|shall include|includes|include|refers to|shall refer to|is defined|are defined|shall be construed|(?:as\s+)?(?:described|set forth|set out|defined|referred to)\s+in\b|within the meaning of|:|–|—|-\s)/iu;
const PARENS_BEFORE = /\(\s*(?:(?:the|a|an|each|each a|each an|any|together|collectively|jointly|individually|severally|hereinafter|hereafter|herein|referred to as|hereinafter referred to as|hereinafter called|in such capacity|as applicable|as the case may be|respectively|and|or|,|\s)*)[“"‘']?$/iu;
const PARENS_AFTER = /^[”"’']?\s*(?:,?\s*(?:and|or|and\/or|together|collectively|respectively|as applicable|each)[^()]{0,40}?)?\)/iu;
/** A definitions list's pointer to where a term is defined ("“Fund” has the meaning set forth in the Recitals"): not a second definition. */
const POINTER = /^[”"’']?\s*(?:(?:shall\s+)?ha(?:s|ve)\s+the\s+meanings?\s+(?:given|set forth|set out|assigned|ascribed|specified|provided|attributed)|shall be construed|is to be construed|(?:as\s+)?(?:described|set forth|set out|defined|referred to)\s+in\b|within the meaning of)/iu;
const DEFINING_BEFORE = /(?:referred to as|hereinafter(?: called)?|hereafter|defined as|designated as|known as)\s*(?:the\s+)?$/iu;
const DETERMINERS = new Set(['the', 'this', 'that', 'these', 'those', 'each', 'any', 'all', 'such', 'no', 'every', 'either', 'neither', 'other', 'its', 'their', 'relevant', 'applicable', 'same']);
const COMPANY_SUFFIXES = new Set(['inc', 'ltd', 'limited', 'llc', 'plc', 'corporation', 'corp', 'llp', 'lp', 'gmbh', 'ag', 'sa', 'nv', 'bv', 'co', 'incorporated', 'sarl', 'spa', 'pty', 'pte', 'ab', 'as', 'oy']);
const CITATION_WORDS = new Set(['section', 'sections', 'clause', 'clauses', 'schedule', 'schedules', 'article', 'articles', 'annex', 'annexes', 'exhibit', 'exhibits', 'appendix', 'appendices', 'part', 'parts', 'paragraph', 'paragraphs', 'recital', 'recitals', 'attachment', 'attachments', 'table', 'figure', 'rule', 'rules', 'form', 'item', 'chapter', 'regulation', 'regulations', 'directive', 'act', 'code', 'title', 'page', 'sub-clause', 'subclause', 'step', 'option', 'tier', 'level', 'phase', 'stage', 'version', 'no', 'number']);
const ORDINARY = new Set([
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'i', 'mr', 'mrs', 'ms', 'dr', 'sir', 'dear',
  'english', 'england', 'wales', 'scotland', 'ireland', 'northern', 'united', 'kingdom', 'states', 'america', 'american', 'british', 'european', 'union', 'europe',
  'new', 'york', 'california', 'delaware', 'texas', 'florida', 'london', 'paris', 'germany', 'france', 'canada', 'australia', 'india', 'china', 'japan', 'internet', 'christmas', 'easter', 'god',
  'usd', 'eur', 'gbp', 'euro', 'euros', 'dollar', 'dollars', 'pounds', 'sterling', 'latin', 'roman', 'arabic',
]);

/** What follows a lower-case phrase that names a role in general rather than the defined party ("the general partner of a partnership"). */
const ROLE_AFTER = /^\s+(?:of|from|to|in|under)\s+(?:the|a|an|any|such|each)\b/iu;

/** Words that open a sentence or clause and never continue a capitalised phrase ("… the Go-Live Date Where …" is two). */
const OPENERS = new Set([...DETERMINERS, 'where', 'when', 'if', 'unless', 'subject', 'notwithstanding', 'nothing', 'in', 'for', 'on', 'upon', 'to', 'a', 'an',
  'it', 'he', 'she', 'they', 'we', 'you', 'provided', 'save', 'except', 'following', 'after', 'before', 'during', 'without', 'with', 'by', 'as', 'at', 'and', 'or', 'but', 'nor', 'so', 'then', 'there', 'here', 'what', 'which', 'who', 'whether', 'while', 'although', 'because', 'since', 'once', 'until']);

/** The citation a clause title in parentheses follows ("Section 14.3 (", "Article 10 ("). */
const CITED_TITLE = /\b(?:sections?|clauses?|articles?|schedules?|paragraphs?|annex|exhibit|appendix|part)\s+[\w.()]+\s*$/iu;
/** The last word of an institution's name ("the Institutional Limited Partners Association", "the Financial Conduct Authority"). */
const INSTITUTION_ENDINGS = new Set(['association', 'institute', 'foundation', 'society', 'university', 'college', 'federation', 'organisation', 'organization',
  'authority', 'agency', 'bureau', 'ministry', 'department', 'commission', 'exchange', 'court', 'tribunal', 'council', 'parliament', 'congress']);
/** The kinds of instrument a tax authority publishes, named as such rather than defined. */
const OFFICIAL_INSTRUMENT = /^(?:Revenue (?:Procedure|Ruling)s?|Private Letter Rulings?|Treasury Regulations?|Technical Advice Memorand(?:um|a)|Technical Memorand(?:um|a))$/u;
const STATUTE_ENDINGS = new Set(['act', 'regulation', 'regulations', 'rules', 'constitution', 'convention', 'treaty', 'directive', 'ordinance', 'statute']);

export interface DefinedTerm {
  /** The term as first defined. */
  term: string;
  places: Place[];
  /** How many of the places point to another definition, and how many name a party. */
  pointers: number;
  parties: number;
}

export interface TermIndex {
  /** By term key: the term as defined and where (the quoted phrase). */
  defined: Map<string, DefinedTerm>;
  /** The parties' and others' names as the preamble writes them (multi-word phrases and single names). */
  names: Set<string>;
}

/** The key a term is known by: its plural and possessive folded ("Parties'" and "Party" → "party"). */
export function termKey(phrase: string): string {
  let s = withoutPossessive(phrase).toLowerCase();
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('es') && (s.endsWith('sses') || s.endsWith('shes') || s.endsWith('ches') || s.endsWith('xes'))) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && s.length > 3) s = s.slice(0, -1);
  return s;
}

/**
 * The phrase without a possessive ending: "'s", "’s", or an apostrophe alone. Read by character
 * codes rather than with a pattern: every capitalised word of every paragraph scanned is keyed.
 */
function withoutPossessive(phrase: string): string {
  const n = phrase.length;
  const last = phrase.charCodeAt(n - 1);
  if (last === 39 || last === 0x2019) return phrase.slice(0, n - 1);
  if (last === 115 && n >= 2) {
    const before = phrase.charCodeAt(n - 2);
    if (before === 39 || before === 0x2019) return phrase.slice(0, n - 2);
  }
  return phrase;
}

/**
 * A quoted span that is a definition: a pointer names where the term is defined ("has the meaning
 * set forth in", "as described in"); a party's is made in parentheses where the agreement names its
 * parties ("between X (the “General Partner”) and …").
 */
type Definition = Quoted & { pointer?: true; party?: true };

/** The paragraph that names the parties to the agreement. */
const PARTIES_NAMED = /\b(?:between|among|by and between|entered into|is made|made (?:on|as of|this))\b/iu;

interface Read {
  /** What the paragraph's text alone decides, shared by the views (ParagraphReads). */
  read: ParagraphRead;
  /** The paragraph's words (read once per text: both views share them). */
  words: WordList;
  quotes: Quoted[];
  /** Where the first "(" is, -1 for none: most paragraphs have none before most words. */
  firstParen: number;
  definitions: Definition[];
  /** Where the words that may be terms start (after a run-in heading); Infinity for a heading. */
  from: number;
}

export function findDefinitions(p: CheckParagraph, quotes: readonly Quoted[] = quotedSpans(p.text)): Definition[] {
  const out: Definition[] = [];
  const text = p.text;
  for (const q of quotes) {
    const phrase = q.text.trim();
    if (!phrase || !isCapitalised(phrase) || phrase.split(/\s+/).length > 8 || /[.;!?]$/.test(phrase) && !/\.$/.test(phrase.replace(/\b[A-Z]\.$/, ''))) continue;
    if (/[.!?]\s/.test(phrase)) continue;
    // Capitals of more than an acronym's length are a legend or a shouted heading ("INTERESTS", "AS IS"), not a term's definition.
    if (isAllCaps(phrase.replace(/[^\p{L}]/gu, '')) && phrase.replace(/[^\p{L}]/gu, '').length > 5) continue;
    const before = text.slice(Math.max(0, q.start - 60), q.start - 1);
    const after = text.slice(q.end, q.end + 40);
    // "(the “Supplier”)", "(each a “Party”)", "(together, the “Parties”)", "(“Y” or “Z”)": the parenthesis holds the
    // definition and nothing else ("(as a “Risk Factor” or otherwise)" only quotes a label).
    const inParens = PARENS_BEFORE.test(before) && PARENS_AFTER.test(after);
    const leading = /^[\s\d.()a-z]{0,10}$/u.test(text.slice(0, q.start - 1));
    if (inParens || leading || DEFINING_AFTER.test(after) || DEFINING_BEFORE.test(before)) {
      // "Majority (or other specified percentage) in Interest": the term is used without its aside.
      const term = phrase.replace(/\s*\([^()]*\)/g, '').trim() || phrase;
      out.push({
        ...q, text: term, start: q.start + q.text.indexOf(phrase), end: q.start + q.text.indexOf(phrase) + phrase.length,
        ...(POINTER.test(after) ? { pointer: true } : {}),
        ...(inParens && PARTIES_NAMED.test(text) ? { party: true } : {}),
      });
    }
  }
  return out;
}

/** Where the preamble ends: the first heading or numbered paragraph of the body (at most the first 40 paragraphs). */
function preambleEnd(paragraphs: readonly CheckParagraph[]): number {
  const limit = Math.min(paragraphs.length, 40);
  for (let i = 0; i < limit; i++) {
    const p = paragraphs[i]!;
    if (p.story !== 'body') continue;
    if (p.numbering !== undefined || /^\s*(?:\d+(?:\.\d+)*\.?|article\s+\w+)\s/i.test(p.text) && i > 0) return i;
    if (/^\s*(?:now,? therefore|it is agreed|the parties agree|operative provisions|agreed terms)/i.test(p.text)) return i + 1;
  }
  // No heading or clause to end it: the opening paragraphs that name the parties ("… (the “Licensee”)").
  let end = 0;
  for (let i = 0; i < Math.min(paragraphs.length, 5); i++) {
    const text = paragraphs[i]!.text;
    if (/\b(?:between|among|made|dated|entered into)\b/i.test(text) && /\((?:[^()]{0,30})[“"‘'][\p{Lu}]/u.test(text)) end = i + 1;
  }
  return end;
}

/** A paragraph's quotes and definitions, and whether it is a heading: what its text alone decides. */
type ParagraphRead = Omit<Read, 'from' | 'read'> & {
  /** The paragraph's story and heading level, which with its text make the read (ParagraphReads.of). */
  story: CheckParagraph['story'];
  headingLevel: number | undefined;
  heading: boolean;
  /** The citations in its text (references.ts), read on the first view's ask. */
  citations?: CitationMatch[];
  /** The term scan made last of this paragraph (TermChecks.scanParagraph): another view may take it (ParagraphReads.scanOf). */
  scan?: ParagraphScan;
};

/** What a view's term checks know: its defined terms and the preamble's names. */
interface Vocabulary {
  firstWords: ReadonlySet<string>;
  defined: ReadonlyMap<string, DefinedTerm>;
  names: ReadonlySet<string>;
  maxWords: number;
}

interface TermEvent {
  kind: 'use' | 'opening' | 'candidate';
  /** The term key (a use's defined term; a candidate's phrase folded). */
  key: string;
  /** The phrase (an opening's or a candidate's). */
  text: string;
  start: number;
  end: number;
  /** A candidate after a determiner. */
  determined: boolean;
}

/** A paragraph's term scan, and what it asked of the vocabulary: each first word's key, each phrase's key looked up, each name. */
interface ParagraphScan {
  from: number;
  vocabulary: Vocabulary;
  events: TermEvent[];
  firstKeys: string[];
  phraseKeys: string[];
  names: string[];
}

/** Whether vocabulary `b` answers every question the scan asked of its own as that one did: then the scan is b's too. */
function answersAlike(scan: ParagraphScan, b: Vocabulary): boolean {
  const a = scan.vocabulary;
  if (a === b) return true;
  if (scan.phraseKeys.length > 0 && a.maxWords !== b.maxWords) return false;
  for (const k of scan.firstKeys) if (a.firstWords.has(k) !== b.firstWords.has(k)) return false;
  for (const k of scan.phraseKeys) if (a.defined.get(k)?.term !== b.defined.get(k)?.term) return false;
  for (const n of scan.names) if (a.names.has(n) !== b.names.has(n)) return false;
  return true;
}

/**
 * Paragraph reads shared by the views of one draft: accepting and rejecting every change leave
 * most paragraphs alike. Read only. A paragraph's words are kept as offsets (WordList: a few
 * bytes a word), so the second view reads none of the words the first view read.
 */
export class ParagraphReads {
  /** By text (a text's hash is kept on the string), then by story and heading level. */
  private readonly reads = new Map<string, ParagraphRead[]>();
  private readonly ordinary = new Map<string, boolean>();

  /** `reuseScans: false` scans every paragraph of every view afresh (the straightforward path the tests compare with). */
  constructor(private readonly options: { reuseScans?: boolean } = {}) {}

  /**
   * A paragraph's term scan: the one made for the same text in the other view (or earlier in this
   * one) when it started from the same place and this view's vocabulary answers every question
   * it asked alike (answersAlike), else `scan()`'s, kept for the next.
   */
  scanOf(read: ParagraphRead, from: number, vocabulary: Vocabulary, scan: () => ParagraphScan): ParagraphScan {
    const kept = read.scan;
    if (kept && this.options.reuseScans !== false && kept.from === from && answersAlike(kept, vocabulary)) return kept;
    const fresh = scan();
    read.scan = fresh;
    return fresh;
  }

  /** isOrdinaryPhrase, once per phrase: the same few terms are met thousands of times in both views. */
  ordinaryPhrase(phrase: string): boolean {
    let ordinary = this.ordinary.get(phrase);
    if (ordinary === undefined) {
      ordinary = isOrdinaryPhrase(phrase);
      this.ordinary.set(phrase, ordinary);
    }
    return ordinary;
  }

  of(p: CheckParagraph): ParagraphRead {
    let list = this.reads.get(p.text);
    const kept = list?.find((r) => r.story === p.story && r.headingLevel === p.heading);
    if (kept) return kept;
    const quotes = quotedSpans(p.text);
    const definitions = findDefinitions(p, quotes);
    const read: ParagraphRead = {
      story: p.story, headingLevel: p.heading,
      words: new WordList(p.text), quotes, firstParen: p.text.indexOf('('), definitions,
      heading: p.story === 'body' && looksLikeHeading(p.text, p.heading) && definitions.length === 0,
    };
    if (list) list.push(read);
    else this.reads.set(p.text, list = [read]);
    return read;
  }

}

/**
 * Whether `at` lies in one of the spans. A module function rather than a closure made per
 * paragraph: the service runs through tsx, which names every local function (a property
 * definition each time it is made), and the term scan makes one per paragraph of each view.
 */
function within(spans: readonly { start: number; end: number }[], at: number): boolean {
  for (const q of spans) if (at >= q.start && at < q.end) return true;
  return false;
}

export class TermChecks {
  private readonly reads: Read[];
  readonly index: TermIndex;
  private readonly preamble: number;

  constructor(private readonly paragraphs: readonly CheckParagraph[], private readonly shared: ParagraphReads = new ParagraphReads()) {
    this.preamble = preambleEnd(paragraphs);
    this.reads = paragraphs.map((p, i) => {
      const read = shared.of(p);
      const { words, quotes, firstParen, definitions, heading } = read;
      return { read, words, quotes, firstParen, definitions, from: heading || i < this.preamble ? Infinity : runInHeadingEnd(p.text) };
    });
    const defined = new Map<string, DefinedTerm>();
    this.reads.forEach((r, block) => {
      for (const d of r.definitions) {
        const key = termKey(d.text);
        const entry = defined.get(key) ?? { term: d.text, places: [], pointers: 0, parties: 0 };
        entry.places.push({ block, start: d.start, end: d.end });
        if (d.pointer) entry.pointers++;
        else if (d.party) entry.parties++;
        defined.set(key, entry);
      }
    });
    const names = new Set<string>();
    for (let i = 0; i < this.preamble; i++) {
      for (const run of capitalisedRuns(this.reads[i]!.words, 0)) names.add(run.text);
    }
    this.index = { defined, names };
    for (const d of defined.values()) this.firstWords.add(termKey(d.term.split(/\s+/)[0]!));
  }

  /** Paragraph `block`'s citations (references.ts), read once per text for both views. */
  citationsOf(block: number): CitationMatch[] {
    const read = this.reads[block]!.read;
    return read.citations ??= citationMatches(this.paragraphs[block]!.text);
  }

  /** The first word of every defined term (as termKey folds it): only a word among them can open a use. */
  private readonly firstWords = new Set<string>();

  run(facts: ViewFacts): ViewFinding[] {
    const out: ViewFinding[] = [];
    const { defined } = this.index;
    const uses = new Map<string, Place[]>();
    const candidates = new Map<string, { forms: Map<string, number>; places: Place[]; determined: number }>();
    const variantsSeen: { text: string; place: Place }[] = [];
    const capitalisedCount = new Map<string, number>();
    const maxWords = Math.max(1, ...[...defined.values()].map((d) => d.term.split(/\s+/).length));

    const vocabulary: Vocabulary = { firstWords: this.firstWords, defined, names: this.index.names, maxWords };
    this.reads.forEach((r, block) => {
      const scan = this.shared.scanOf(r.read, r.from, vocabulary, () => this.scanParagraph(block, r, vocabulary));
      for (const e of scan.events) {
        const place = { block, start: e.start, end: e.end };
        if (e.kind === 'use') {
          const list = uses.get(e.key);
          if (list) list.push(place);
          else uses.set(e.key, [place]);
          capitalisedCount.set(e.key, (capitalisedCount.get(e.key) ?? 0) + 1);
        } else if (e.kind === 'opening') {
          variantsSeen.push({ text: e.text, place });
        } else {
          variantsSeen.push({ text: e.text, place });
          const entry = candidates.get(e.key) ?? { forms: new Map<string, number>(), places: [] as Place[], determined: 0 };
          entry.forms.set(e.text, (entry.forms.get(e.text) ?? 0) + 1);
          entry.places.push(place);
          if (e.determined) entry.determined++;
          candidates.set(e.key, entry);
        }
      }
    });

    for (const [key, d] of defined) facts.terms.set(key, { definitions: d.places, uses: uses.get(key) ?? [] });

    // Variants first: a misspelt term is not also an undefined one.
    const variantKeys = new Set<string>();
    const targets = [...[...defined.values()].map((d) => d.term), ...[...this.index.names].filter((n) => n.length >= 6 && !defined.has(termKey(n)))];
    const byVariant = new Map<string, string | null>();
    for (const v of variantsSeen) {
      if (!byVariant.has(v.text)) byVariant.set(v.text, nearest(v.text, targets));
      const target = byVariant.get(v.text);
      if (!target) continue;
      variantKeys.add(termKey(v.text));
      const definedTerm = defined.get(termKey(target));
      out.push({
        kind: 'term_variant', term: target, reference: null, at: v.place, excerpt: v.text,
        message: definedTerm
          ? `“${v.text}” looks like a misspelling of the defined term “${target}”.`
          : `“${v.text}” looks like a misspelling of “${target}”, as the preamble names it.`,
        replaceWith: target, identity: 'place', evidence: [v.place, ...(definedTerm?.places ?? [])],
      });
    }
    out.push(...this.lowerCaseUses(capitalisedCount));

    for (const [key, c] of candidates) {
      if (defined.has(key) || variantKeys.has(key) || this.index.names.has([...c.forms.keys()][0]!)) continue;
      // Used once, a capitalised phrase is as likely a name ("the Consumer Price Index"); twice after a determiner, or three times, a term.
      if (c.places.length < 2 || c.determined === 0 && c.places.length < 3) continue;
      const forms = [...c.forms.keys()];
      const term = forms.find((f) => termKey(f) === f.toLowerCase()) ?? forms[0]!;
      const n = c.places.length;
      out.push({
        kind: 'undefined_term', term, reference: null, at: c.places[0]!, excerpt: this.paragraphs[c.places[0]!.block]!.text.slice(c.places[0]!.start, c.places[0]!.end),
        message: `“${term}” is used ${times(n)} as a defined term but is defined nowhere in the document.`,
        replaceWith: null, identity: 'term', evidence: c.places,
      });
      facts.terms.set(key, { definitions: [], uses: c.places });
    }

    for (const [key, d] of defined) {
      const used = uses.get(key)?.length ?? 0;
      if (used === 0 && !this.writtenElsewhere(d)) {
        out.push({
          kind: 'unused_definition', term: d.term, reference: null, at: d.places[0]!, excerpt: d.term,
          message: `“${d.term}” is defined but never used.`, replaceWith: null, identity: 'term', evidence: d.places,
        });
      }
      // A party named in the agreement's opening and defined again in the definitions list (“General
      // Partner” means X or any successor) is the drafting convention, not a second definition.
      const restated = d.parties === 1 && d.places.length - d.pointers > 1 ? 1 : 0;
      if (d.places.length - d.pointers - restated > 1) {
        const second = d.places[1]!;
        out.push({
          kind: 'duplicate_definition', term: d.term, reference: null, at: second, excerpt: this.paragraphs[second.block]!.text.slice(second.start, second.end),
          message: `“${d.term}” is defined ${times(d.places.length)}${this.paragraphs[d.places[0]!.block]!.numbering ? `, first in clause ${this.paragraphs[d.places[0]!.block]!.numbering}` : ''}.`,
          replaceWith: null, identity: 'term', evidence: d.places,
        });
      }
    }
    return out;
  }

  /**
   * What one paragraph gives the term checks, in order: the uses of defined terms, the phrases
   * opening sentences (read for misspellings only) and the capitalised phrases used as terms
   * (candidates). With what it asked of the vocabulary, so that another view can tell whether its
   * own vocabulary would answer the same (ParagraphReads.scanOf).
   */
  private scanParagraph(block: number, r: Read, vocabulary: Vocabulary): ParagraphScan {
    const p = this.paragraphs[block]!;
    const scan: ParagraphScan = { from: r.from, vocabulary, events: [], firstKeys: [], phraseKeys: [], names: [] };
    const { words } = r;
    for (let i = 0; i < words.length; i++) {
      if (!words.capitalised(i) && !words.allCaps(i)) continue;
      const wStart = words.start(i);
      // The longest defined term starting here.
      const match = this.longestDefined(words, i, vocabulary.maxWords, scan);
      if (match) {
        if (!within(r.definitions, wStart)) scan.events.push({ kind: 'use', key: match.key, text: '', start: wStart, end: words.end(match.last), determined: false });
        i = match.last;
        continue;
      }
      if (wStart < r.from || within(r.quotes, wStart) || p.story === 'header' || p.story === 'footer' || p.story === 'comment') continue;
      if (words.sentenceStart(i)) {
        // A sentence's first word is no term use ("Payment shall…"); a determiner leaves the next word to be read as one
        // ("The Supplier"). The phrase it opens may still be a misspelt term or name ("Licencee shall…").
        if (DETERMINERS.has(words.text(i).toLowerCase())) continue;
        const opening = capitalisedRunAt(words, i, true);
        if (opening) {
          scan.events.push({ kind: 'opening', key: '', text: opening.text, start: wStart, end: words.end(opening.last), determined: false });
          i = opening.last;
        }
        continue;
      }
      const run = capitalisedRunAt(words, i, false);
      if (!run) continue;
      i = run.last;
      if (this.isOrdinary(run, words, p.text, r.firstParen, scan)) continue;
      const before = words.before(run.first);
      scan.events.push({
        kind: 'candidate', key: termKey(run.text), text: run.text, start: words.start(run.first), end: words.end(run.last),
        determined: before !== null && DETERMINERS.has(before) && words.joined(run.first),
      });
    }
    return scan;
  }

  /**
   * A term with a sign the word reader does not keep ("US$", "C++", "R&D"): used when written as
   * defined anywhere outside its definitions ("US$100" uses "US$").
   */
  private writtenElsewhere(d: { term: string; places: Place[] }): boolean {
    if (!/[^\p{L}\p{N}\s'’-]/u.test(d.term)) return false;
    return this.paragraphs.some((p, block) => {
      for (let at = p.text.indexOf(d.term); at >= 0; at = p.text.indexOf(d.term, at + 1)) {
        if (!d.places.some((q) => q.block === block && at >= q.start - 1 && at <= q.end)) return true;
      }
      return false;
    });
  }

  /** A defined multi-word phrase written in lower case after "the", where the capitalised term is the rule. */
  private lowerCaseUses(capitalisedCount: Map<string, number>): ViewFinding[] {
    const out: ViewFinding[] = [];
    const lower = [...this.index.defined.entries()].filter(([, d]) => d.term.includes(' ') && !isAllCaps(d.term.replace(/\s/g, '')) && d.term.toLowerCase() !== d.term);
    if (lower.length === 0) return out;
    for (const [key, d] of lower) {
      const capital = capitalisedCount.get(key) ?? 0;
      if (capital < 3) continue;
      const needle = d.term.toLowerCase();
      const found: Place[] = [];
      // Lower-case uses not after "the" ("a limited partner", "any applicable law", "permitted by applicable law"): the
      // ordinary phrase, used on purpose. Frequent, they say the drafter uses both; earlier in a paragraph, they are
      // what a later "the limited partner" refers back to.
      let generic = 0;
      this.paragraphs.forEach((p, block) => {
        // The definition's own wording ("“Subscription Agreement” means the subscription agreement entered into…") says what the term is.
        if (block < this.preamble || p.story !== 'body' || d.places.some((q) => q.block === block)) return;
        let from = 0;
        let introduced = false;
        for (let at = p.text.indexOf(needle, from); at >= 0; at = p.text.indexOf(needle, from)) {
          from = at + needle.length;
          const after = p.text[at + needle.length] ?? ' ';
          if (/[\p{L}\p{N}]/u.test(after) || at > 0 && /[\p{L}\p{N}]/u.test(p.text[at - 1]!) || this.reads[block]!.quotes.some((q) => at >= q.start && at < q.end)) continue;
          const before = p.text.slice(Math.max(0, at - 4), at);
          if (!/\bthe $/i.test(before) && !/^the $/i.test(p.text.slice(at - 4, at))) {
            generic++;
            introduced = true;
            continue;
          }
          // "the general partner of the Fund", "the limited partner from …": the role in general, written so on purpose.
          if (introduced || ROLE_AFTER.test(p.text.slice(at + needle.length, at + needle.length + 12))) continue;
          found.push({ block, start: at, end: at + needle.length });
        }
      });
      if (found.length === 0 || found.length * 3 > capital || generic * 3 > capital) continue;
      for (const place of found) {
        out.push({
          kind: 'term_variant', term: d.term, reference: null, at: place, excerpt: needle,
          message: `“${needle}” is written in lower case; the defined term “${d.term}” is used ${times(capital)} elsewhere.`,
          replaceWith: d.term, identity: 'place', evidence: [place, ...d.places],
        });
      }
    }
    return out;
  }

  private longestDefined(words: WordList, i: number, maxWords: number, scan: ParagraphScan): { key: string; last: number } | null {
    const first = termKey(words.text(i));
    scan.firstKeys.push(first);
    if (!this.firstWords.has(first)) return null;
    let phrase = '';
    let best: { key: string; last: number } | null = null;
    for (let j = i; j < words.length && j < i + maxWords; j++) {
      if (j > i && !words.joined(j)) break;
      phrase = j === i ? words.text(j) : `${phrase} ${words.text(j)}`;
      const key = termKey(phrase);
      scan.phraseKeys.push(key);
      if (this.index.defined.has(key)) {
        // A term is matched with its own capitalisation, or in capitals (a heading's "CONFIDENTIAL INFORMATION" is still the term).
        const term = this.index.defined.get(key)!.term;
        const written = phrase.replace(/['’]s?$/u, '');
        if (written.startsWith(term) || written.toLowerCase().startsWith(term.toLowerCase()) && isAllCaps(written.replace(/[\s\d]/g, '')) || termKey(written) === key && written[0] === term[0]) best = { key, last: j };
      }
    }
    return best;
  }

  /** A capitalised phrase that names something rather than using a term: by the phrase (ordinaryPhrase) or by what is around it. */
  private isOrdinary(run: Run, words: WordList, text: string, firstParen: number, scan: ParagraphScan): boolean {
    if (this.shared.ordinaryPhrase(run.text)) return true;
    const after = words.end(run.last);
    // Part of a longer name joined by "and" ("the Health and Safety Code").
    if (/^\s+(?:and|&)\s+\p{Lu}/u.test(text.slice(after, after + 8))) return true;
    // A company's name: "Acme Widgets Corp".
    const next = run.last + 1;
    if (next < words.length && words.joined(next) && words.capitalised(next) && COMPANY_SUFFIXES.has(words.text(next).toLowerCase())) return true;
    // A citation or a statute: followed by a number or a year ("Schedule 3", "Companies Act 2006", "Form 10-K").
    if (/^[\s,]*(?:\(?\d|[IVX]+\b|[A-Z]\b)/u.test(text.slice(after, after + 6))) return true;
    scan.names.push(run.text);
    if (this.index.names.has(run.text)) return true;
    // A clause's title given with its citation: "Section 14.3 (Distributions of Distributable Proceeds)".
    const start = words.start(run.first);
    const open = firstParen >= 0 && firstParen < start ? text.lastIndexOf('(', start) : -1;
    if (open >= 0 && open > text.lastIndexOf(')', start) && CITED_TITLE.test(text.slice(Math.max(0, open - 40), open))) return true;
    // "this Agreement", "this Deed": the document itself, defined or not.
    if (!run.text.includes(' ') && words.before(run.first) === 'this') return true;
    return false;
  }
}

/** A capitalised phrase that is a name by its words alone: a statute, an institution, a company, a month or a place, a bare citation. */
export function isOrdinaryPhrase(phrase: string): boolean {
  const parts = phrase.split(' ');
  const last = parts[parts.length - 1]!.toLowerCase().replace(/\.$/, '');
  // A statute or a body of rules by its name ("the California Coastal Act", "the Internal Revenue Code"); a single letter ("U.S.").
  if (STATUTE_ENDINGS.has(last) || last === 'code' && parts.length >= 3 || parts.length === 1 && parts[0]!.length === 1) return true;
  // A tax authority's published instrument by its kind ("the proposed Revenue Procedure set forth in Notice 2005-43").
  if (OFFICIAL_INSTRUMENT.test(phrase)) return true;
  // An institution by its name, two words or more: a name, not a term the document must define.
  if (parts.length >= 2 && INSTITUTION_ENDINGS.has(last)) return true;
  if (COMPANY_SUFFIXES.has(last)) return true;
  if (parts.every((w) => ORDINARY.has(w.toLowerCase()) || MINOR_WORDS.has(w))) return true;
  if (CITATION_WORDS.has(parts[0]!.toLowerCase()) && parts.length === 1) return true;
  // A citation by a roman numeral or a letter: "Title I of ERISA", "Part IV", "Schedule B".
  return CITATION_WORDS.has(parts[0]!.toLowerCase()) && parts.length === 2 && /^(?:[IVXLC]+|[A-Z])$/.test(parts[1]!);
}

interface Run {
  first: number;
  last: number;
  text: string;
}

/** The capitalised phrase starting at word i (its sentence-start word dropped), or null. */
function capitalisedRunAt(words: WordList, i: number, withFirst: boolean): Run | null {
  let first = i;
  if (!withFirst && words.sentenceStart(i)) {
    first = i + 1;
    if (first >= words.length || !words.joined(first) || !words.capitalised(first) || words.allCaps(first)) return null;
  }
  if (words.allCaps(first) || !words.capitalised(first) || words.startsWithNumber(first) || !withFirst && OPENERS.has(words.text(first).toLowerCase())) return null;
  let last = first;
  let text = words.text(first);
  for (let j = first + 1; j < words.length; j++) {
    if (!words.joined(j)) break;
    if (words.capitalised(j) && !words.allCaps(j) && !words.startsWithNumber(j)) {
      const word = words.text(j);
      if (!OPENERS.has(word.toLowerCase())) {
        for (let k = last + 1; k <= j; k++) text += ` ${words.text(k)}`;
        last = j;
        continue;
      }
      break;
    }
    // "of" and "for" join two capitalised words ("Statement of Work"), nothing else does.
    if (isOfOrFor(words, j) && j + 1 < words.length && words.joined(j + 1) && words.capitalised(j + 1) && !words.allCaps(j + 1)) continue;
    break;
  }
  return { first, last, text: text.replace(/['’]s$/u, '') };
}

/** Word j is "of" or "for" (read in place: most words are neither). */
function isOfOrFor(words: WordList, j: number): boolean {
  const length = words.end(j) - words.start(j);
  if (length !== 2 && length !== 3) return false;
  const word = words.text(j);
  return word === 'of' || word === 'for';
}

function capitalisedRuns(words: WordList, from: number): Run[] {
  const out: Run[] = [];
  for (let i = from; i < words.length; i++) {
    if (!words.capitalised(i)) continue;
    const run = capitalisedRunAt(words, i, true);
    if (run) {
      out.push(run);
      i = run.last;
    }
  }
  return out;
}

/** The target a phrase is a near miss of: within one edit (two from nine letters), not a plural or possessive of it. */
export function nearest(phrase: string, targets: readonly string[]): string | null {
  if (phrase.length < 5) return null;
  const key = termKey(phrase);
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const t of targets) {
    if (Math.abs(t.length - phrase.length) > 2 || termKey(t) === key) continue;
    if (t.split(' ').length !== phrase.split(' ').length) continue;
    const allowed = t.length >= 9 ? 2 : 1;
    const d = editDistance(phrase, t, allowed);
    // A plural or possessive of the target, or a capital letter's difference, is the term itself.
    if (d > allowed || termKey(phrase) === termKey(t) || phrase.toLowerCase() === t.toLowerCase()) continue;
    if (d === 1 && (phrase === `${t}s` || t === `${phrase}s`)) continue;
    if (d < bestDistance) {
      best = t;
      bestDistance = d;
    }
  }
  return best;
}

/** Damerau–Levenshtein (optimal string alignment) distance, giving up past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push(new Array<number>(b.length + 1).fill(0));
    rows[i]![0] = i;
  }
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > limit) return limit + 1;
  }
  return rows[a.length]![b.length]!;
}

function times(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}
