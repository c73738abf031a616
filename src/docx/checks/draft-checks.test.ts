import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBenchmarkContract, buildDemoContract, buildDocx, by, del, ins, listItem, p, para, type ParagraphSpec } from '../fixture';
import { openDocx } from '../index';
import { OpenDocx } from '../document';
import type { Block } from '../../contract/reading';
import type { CheckFinding, CheckView } from '../../contract/checks';
import { checkDocument, type DocumentViews } from './check';
import { ParagraphReads } from './terms';
import { checkDraft, checkDraftReading } from './draft-checks';
import { corpusFileNames, lacksShared, readCorpusFile } from '../../../test/support/shared-corpus';

const alex = by('Alex', '2025-03-01T10:00:00Z');

const PREAMBLE = p('This Agreement is made between Acme Widgets Corporation (the “Licensee”) and Beta Labs Limited (the “Licensor”).');

function changeIds(bytes: Uint8Array): string[] {
  return openDocx(bytes).changeIds();
}

function clause(...content: Parameters<typeof p>): ParagraphSpec {
  return listItem('decimal', 0, ...content);
}

describe('checks of a draft: both views and what brings each finding', () => {
  it('a deleted definition: accepting it leaves the term undefined, caused by that deletion; rejecting it, nothing', () => {
    const bytes = buildDocx({
      body: [
        PREAMBLE,
        clause(del(alex, '“Affiliate” means any entity controlling the Licensee.')),
        clause('The Licensor may license the Licensee’s Affiliates, and each Affiliate shall comply.'),
      ],
    });
    const [deletion] = changeIds(bytes);
    const { accepted, rejected } = checkDraft(bytes);
    expect(accepted.filter((f) => f.kind === 'undefined_term')).toEqual([expect.objectContaining({ term: 'Affiliate', causedBy: [deletion] })]);
    expect(rejected).toEqual([]);
  });

  it('a template\'s blanks are one finding with their count, other placeholders one per text; a blank a change brings stays its own', () => {
    const bytes = buildDocx({
      body: [
        PREAMBLE,
        p('The fund [name of Fund] is managed from [__] and [_____], with [name of Fund] as its name.'),
        p('The fee is [__]% and the term [●] years, starting on [insert date]', ins(alex, ' or on [___]'), '.'),
      ],
    });
    const [insertion] = changeIds(bytes);
    const { accepted, rejected } = checkDraft(bytes);
    const placeholders = accepted.filter((f) => f.kind === 'placeholder');
    expect(placeholders.map((f) => [f.excerpt, f.message, f.causedBy])).toEqual([
      ['[name of Fund]', '“[name of Fund]” is a placeholder left to complete, 2 times (the first is here).', []],
      ['[__]', '4 blanks such as “[__]” are left to complete (the first is here).', []],
      ['[insert date]', '“[insert date]” is a placeholder left to complete.', []],
      ['[___]', '“[___]” is a placeholder left to complete.', [insertion]],
    ]);
    expect(rejected.filter((f) => f.kind === 'placeholder')).toHaveLength(3);
  });

  it('an inserted misspelling: found in the accepted view with the insertion as its cause and a fix on the draft; a standing one has no cause', () => {
    const bytes = buildDocx({
      body: [
        PREAMBLE,
        p('The Licensor grants the Licensee a licence', ins(alex, ' and the Licencee shall pay'), '.'),
        p('The Licensee shall pay the Licensor; Licencee shall report to the Licensor.'),
      ],
    });
    const [insertion] = changeIds(bytes);
    const { accepted, rejected } = checkDraft(bytes);
    const variants = accepted.filter((f) => f.kind === 'term_variant');
    expect(variants.map((f) => [f.excerpt, f.term, f.causedBy])).toEqual([['Licencee', 'Licensee', [insertion]], ['Licencee', 'Licensee', []]]);
    expect(variants[1]!.fix).toEqual({ blockId: expect.any(String), find: 'Licencee', occurrence: 1, replaceWith: 'Licensee' });
    expect(rejected.map((f) => [f.kind, f.causedBy])).toEqual([['term_variant', []]]);
    // The same content read again gives the same ids.
    expect(checkDraft(bytes).accepted.map((f) => f.id)).toEqual(accepted.map((f) => f.id));
  });

  it('a deleted clause: citing it breaks on acceptance, and the numbering after it closes up; rejecting an inserted use of a term leaves its definition unused', () => {
    const bytes = buildDocx({
      body: [
        PREAMBLE,
        clause('The Licensee shall pay the fees.'),
        { ...clause(del(alex, 'The Licensor shall deliver the software.')), mark: { change: 'del', by: alex } },
        clause('Clause 3 survives termination, and the Licensee shall keep the source code (the “Code”) safe.'),
        para({}, 'The Licensor shall', ins(alex, ' escrow the Code and'), ' give notice.'),
      ],
    });
    const ids = changeIds(bytes);
    const { accepted, rejected } = checkDraft(bytes);
    const broken = accepted.filter((f) => f.kind === 'broken_cross_reference');
    // Clause 3 becomes clause 2 on acceptance: "Clause 3" cites nothing, and no change lies on the citation or on clause 3,
    // so the changes that delete numbered paragraphs are named.
    const deleted = openDocx(bytes).blocks().flatMap((b) => (b.type === 'paragraph' && b.text.startsWith('The Licensor shall deliver') ? b.changes!.map((c) => c.change_id) : []));
    expect(broken.map((f) => [f.reference, f.causedBy.sort()])).toEqual([['Clause 3', [...new Set(deleted)].sort()]]);
    expect(rejected.filter((f) => f.kind === 'broken_cross_reference')).toEqual([]);
    const unused = rejected.filter((f) => f.kind === 'unused_definition');
    expect(unused.map((f) => [f.term, f.causedBy])).toEqual([['Code', [ids[ids.length - 1]]]]);
    expect(accepted.filter((f) => f.kind === 'unused_definition')).toEqual([]);
  });

  it('rejects every change on a linked copy of the parsed draft: the same findings as two parses, and the draft as it stands untouched by it', () => {
    const bytes = buildBenchmarkContract({ pages: 4, revisions: 120, seed: 7 });
    const once = OpenDocx.open(bytes);
    const copy = once.copy();
    const before = JSON.stringify(once.blocks());
    copy.apply({ accept: [], reject: copy.changeIds() });
    expect(JSON.stringify(once.blocks())).toBe(before);
    expect(copy.changeIds()).toEqual([]);
    const markup = OpenDocx.open(bytes);
    const acceptedDoc = OpenDocx.open(bytes);
    const rejectedDoc = OpenDocx.open(bytes);
    const twoParses = checkDocument({
      markup: markup.blocks(),
      accepted: acceptedDoc.apply({ accept: acceptedDoc.changeIds(), reject: [] }).blocks(),
      rejected: rejectedDoc.apply({ accept: [], reject: rejectedDoc.changeIds() }).blocks(),
    });
    expect(checkDraft(bytes)).toEqual(twoParses);
  });
});

/** The checks as checkDraft ran them before the lean reading: every view read with the full blocks() (revision listing, recorded pages). */
const checkDraftFullReading = (bytes: Uint8Array) => checkDraftReading(bytes, (doc) => doc.blocks());

/** Blocks without what the lean reading leaves out (each change's author and date, the recorded pages, the versions). */
function withoutListingFacts(blocks: readonly Block[]): unknown {
  return JSON.parse(JSON.stringify(blocks, (key, value: unknown) => (key === 'author' || key === 'date' || key === 'page' || key === 'pageLabel' || key === 'version' ? undefined : value)));
}

/** Drafts as the checks meet them: generated contracts with many revisions, and tracked edits of every shape the fixtures write. */
function generatedDrafts(): [string, Uint8Array][] {
  return [
    ...[1, 2, 3].map((seed): [string, Uint8Array] => [`benchmark contract, seed ${seed}`, buildBenchmarkContract({ pages: 6, revisions: 200, seed })]),
    ['replacements, deleted clauses and marks', buildDocx({
      body: [
        PREAMBLE,
        clause('The Licensee shall pay the', del(alex, ' fees'), ins(alex, ' charges'), ' in Clause 3.'),
        { ...clause(del(alex, 'The Licensor shall deliver the software.')), mark: { change: 'del', by: alex } },
        clause('Clause 3 survives termination; the Licencee shall keep the [●] (the “Code”) safe.'),
        para({}, 'The Licensor shall', ins(alex, ' escrow the Code and'), ' give notice', del(alex, ' to the Licencee'), '.'),
      ],
    })],
  ];
}

describe('the lean reading (OpenDocx.blocksForChecks) gives the checks exactly what the full reading gives', () => {
  it('on generated drafts: the same blocks but for the listing\'s facts, and the same findings', () => {
    for (const [name, bytes] of generatedDrafts()) {
      const doc = OpenDocx.open(bytes);
      expect(withoutListingFacts(doc.blocksForChecks()), name).toEqual(withoutListingFacts(doc.blocks()));
      expect(checkDraft(bytes), name).toEqual(checkDraftFullReading(bytes));
    }
  });

  it.skipIf(lacksShared('lean checks reading on the corpus', 'files'))('on the corpus\'s real files: the same findings, both views', () => {
    let compared = 0;
    for (const name of corpusFileNames()) {
      const bytes = readCorpusFile(name);
      let full: Record<CheckView, CheckFinding[]>;
      try {
        full = checkDraftFullReading(bytes);
      } catch {
        continue; // a file the engine refuses (the corpus holds a few on purpose)
      }
      expect(checkDraft(bytes), name).toEqual(full);
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  }, 300_000);
});

/** The three views as checkDraft reads them. */
function viewsOf(bytes: Uint8Array): DocumentViews {
  const doc = OpenDocx.open(bytes);
  const markup = doc.blocksForChecks();
  const copy = doc.copy();
  const rejected = copy.apply({ accept: [], reject: copy.changeIds() }).blocksForChecks();
  return { markup, accepted: doc.apply({ accept: doc.changeIds(), reject: [] }).blocksForChecks(), rejected };
}

/** The checks with each paragraph's term scan taken from the other view where its vocabulary answers alike, and with every paragraph scanned afresh. */
function expectScansReusedAlike(bytes: Uint8Array, name: string): void {
  const views = viewsOf(bytes);
  expect(checkDocument(views), name).toEqual(checkDocument(views, new ParagraphReads({ reuseScans: false })));
}

/** Pieces of contract text that make and unmake terms, names, uses, misspellings and citations, plain or tracked. */
const PIECES = [
  '“Affiliate” means any entity controlling a party.', ' the Affiliate', ' each Affiliate’s', ' Affiliates', ' the affiliate', ' Afiliate',
  ' The Licensee', ' the Licensee shall pay', ' Licencee', ' (the “Licensee”)', ' (the “Licensor”)', ' the Licensor',
  ' the Escrow Agent', ' The Escrow Agent', ' (the “Escrow Agent”)', ' Escrow Agents', ' “Confidential Information” means secrets.',
  ' Confidential Information', ' the Confidential Information', ' CONFIDENTIAL INFORMATION', ' in Clause 2.', ' Schedule 3', ' [●]',
  ' Acme Widgets Corporation', ' Beta Labs Limited', ' the Companies Act 2006', ' “Fee” has the meaning given in Clause 1.', ' the Fees', '.',
];

/** Pieces of a preamble: the parties' names, which are names (not terms) wherever the body uses them. */
const PREAMBLE_PIECES = [' Acme Widgets Corporation', ' (the “Licensee”)', ' and Gamma Holdings', ' Delta Partners', ' and Beta Labs Limited', ' (the “Licensor”)'];

const track = fc.constantFrom('plain', 'plain', 'ins', 'del');
const partsOf = (pieces: string[]) => fc.array(fc.record({ piece: fc.constantFrom(...pieces), track }), { minLength: 1, maxLength: 6 });

/** A draft's paragraphs: a preamble, then numbered clauses and plain paragraphs, each piece plain, inserted or deleted. */
const draftSpec = fc.record({
  preamble: partsOf(PREAMBLE_PIECES),
  body: fc.array(fc.record({ numbered: fc.boolean(), parts: partsOf([...PIECES, ' the Gamma Holdings', ' Delta Partners shall', ' Gamma Holdings']) }), { minLength: 1, maxLength: 12 }),
});

function draftOf({ preamble, body }: typeof draftSpec extends fc.Arbitrary<infer T> ? T : never): Uint8Array {
  const contentOf = (parts: { piece: string; track: string }[]) => parts.map(({ piece, track: how }) => (how === 'ins' ? ins(alex, piece) : how === 'del' ? del(alex, piece) : piece));
  return buildDocx({
    body: [
      p('This Agreement is made between', ...contentOf(preamble), '.'),
      ...body.map(({ numbered, parts }) => (numbered ? clause(...contentOf(parts)) : p(...contentOf(parts)))),
    ],
  });
}

describe('a paragraph\'s term scan taken from the other view (ParagraphReads.scanOf) gives the findings of scanning it again', () => {
  it('on generated drafts whose changes make and unmake definitions, the preamble\'s names and uses', () => {
    fc.assert(fc.property(draftSpec, (spec) => expectScansReusedAlike(draftOf(spec), 'generated')), { numRuns: 80, seed: 35 });
  });

  it('where a view names a party the other does not, or defines a longer term on the same first word', () => {
    const names = buildDocx({
      body: [
        p('This Agreement is made between Acme Widgets Corporation (the “Licensee”)', ins(alex, ' and Gamma Holdings'), '.'),
        clause('The fee is paid to the Gamma Holdings and the Gamma Holdings shall report.'),
      ],
    });
    const longer = buildDocx({
      body: [
        PREAMBLE,
        clause('“Escrow” means the account. ', ins(alex, '“Escrow Agent” means the bank.')),
        // A two-word term in both views: the longest term is as long in each.
        clause('“Service Credit” means a credit. The Licensee pays the Licensor, and the Escrow Agent shall hold each Service Credit.'),
      ],
    });
    // The views differ here (so a scan taken across wrongly would show).
    expect(checkDraft(names).rejected.filter((f) => f.kind === 'undefined_term').map((f) => f.term)).toEqual(['Gamma Holdings']);
    expect(checkDraft(names).accepted.filter((f) => f.kind === 'undefined_term')).toEqual([]);
    // "Escrow" is used only where accepting makes the longer term of it.
    expect(checkDraft(longer).accepted.filter((f) => f.kind === 'unused_definition').map((f) => f.term)).toEqual(['Escrow']);
    expect(checkDraft(longer).rejected.filter((f) => f.kind === 'unused_definition')).toEqual([]);
    expectScansReusedAlike(names, 'names');
    expectScansReusedAlike(longer, 'longer');
  });

  it('on benchmark contracts, the demo and the drafts above', () => {
    for (const [name, bytes] of generatedDrafts()) expectScansReusedAlike(bytes, name);
    expectScansReusedAlike(buildDemoContract(), 'demo');
  });

  it.skipIf(lacksShared('reused term scans on the corpus', 'files'))('on the corpus\'s real files', () => {
    let compared = 0;
    for (const name of corpusFileNames()) {
      let bytes: Uint8Array;
      try {
        bytes = readCorpusFile(name);
        viewsOf(bytes);
      } catch {
        continue; // a file the engine refuses (the corpus holds a few on purpose)
      }
      expectScansReusedAlike(bytes, name);
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  }, 300_000);
});
