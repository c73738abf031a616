import { RE2JS, RE2JSException } from 're2js';
import type { UnsupportedRegexConstruct } from '../../contract/problem';
import { ProblemError } from '../http/problem';

export const MAX_QUERY_CHARS = 500;
export const MAX_REGEX_CHARS = 200;
/**
 * The most instructions a pattern may compile to. RE2's time is linear in the text, times a
 * factor that grows with the program: `(.{0,100}){0,10}x` compiles to about 2,000 and scans a
 * 2 MB draft in some 30 s of CPU. Every pattern an assistant or a lawyer writes fits in a few
 * hundred ("\\b\\d+ days\\b" is 11, `.{0,50}.{0,50}.{0,50}!` about 300).
 */
export const MAX_REGEX_INSTRUCTIONS = 1000;

/**
 * A validated search pattern, compiled again where it runs (an engine thread): a regular
 * expression in RE2 syntax with its flags, or plain text.
 */
export type SearchPattern =
  | { kind: 'regex'; source: string; flags: number }
  | { kind: 'text'; text: string; caseSensitive: boolean };

/** Where a search finds its next match in one text: [start, end], or null when there is none. */
export type NextMatch = () => [start: number, end: number] | null;

/**
 * The pattern of a document search. A regular expression runs on RE2 (re2js, a pure TypeScript
 * port), which matches in time linear in the text whatever the pattern: no filter of dangerous
 * shapes is needed, and none could be complete. What RE2 cannot do in linear time it does not
 * do: back-references and look-around are refused (422 unsupported_regex naming the construct),
 * as is any other syntax RE2 does not parse and a pattern compiling past MAX_REGEX_INSTRUCTIONS.
 * JavaScript spellings are accepted where RE2 has the same meaning (`\\u00a0`, `(?<name>…)`,
 * `\\cA`), and `.` and `\\s` keep JavaScript's meaning (see `toRe2`).
 */
export function compileSearch(query: string, opts: { regex: boolean; caseSensitive: boolean }): SearchPattern {
  if (!query) throw invalid('query', 'Give a non-empty query.');
  if (query.length > MAX_QUERY_CHARS) throw invalid('query', `A query is at most ${MAX_QUERY_CHARS} characters.`);
  if (!opts.regex) return { kind: 'text', text: query, caseSensitive: opts.caseSensitive };
  const flags = opts.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE;
  if (query.length > MAX_REGEX_CHARS) throw invalid('query', `A regular expression is at most ${MAX_REGEX_CHARS} characters.`);
  const source = toRe2(query);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source, flags);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    const { construct, what } = re2Refusal(error.message);
    throw unsupported(construct, `${what}: ${error.message.replace(/^error parsing regexp: /, '')}.`);
  }
  if (compiled.re2().numberOfInstructions() > MAX_REGEX_INSTRUCTIONS) {
    throw unsupported('too_large', 'This regular expression is too large (its repetitions expand to more than the search allows); use smaller counts such as {0,20}.');
  }
  return { kind: 'regex', source, flags };
}

/**
 * Compiles a validated pattern where it runs: a function of a text answering its matches one at
 * a time, so the caller can read the clock between them. A regular expression runs on RE2. Plain
 * text runs on JavaScript's RegExp (escaped): a literal cannot backtrack beyond its own length,
 * so a paragraph costs at most its length times the query's 500 characters, and RegExp finds a
 * case-insensitive phrase in the 4 MB of the 9,000-paragraph benchmark draft in 5 ms, where RE2
 * (which cannot skip ahead on a case-insensitive literal) takes 200 ms.
 */
export function searchMatcher(pattern: SearchPattern): (text: string) => NextMatch {
  if (pattern.kind === 'text') {
    const re = new RegExp(pattern.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), pattern.caseSensitive ? 'gu' : 'giu');
    return (text) => {
      re.lastIndex = 0;
      return () => {
        const m = re.exec(text);
        return m ? [m.index, m.index + m[0].length] : null;
      };
    };
  }
  const re = RE2JS.compile(pattern.source, pattern.flags);
  return (text) => {
    const matcher = re.matcher(text);
    return () => (matcher.find() ? [matcher.start(), matcher.end()] : null);
  };
}

/**
 * JavaScript's `\s`: RE2's (tab, line feed, form feed, carriage return, space) plus the vertical
 * tab, every Unicode space separator (the no-break space of "Section 5") and the byte-order mark.
 */
const JS_SPACE = '\\s\\x0b\\p{Z}\\x{feff}';
/** JavaScript's `.` (with the u flag): anything but a line terminator; RE2's stops only at \n. */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/**
 * The query in RE2's syntax, refusing on the way what RE2 does not do in linear time: a
 * back-reference (`\\1`, `\\k<name>`), a look-ahead (`(?=`, `(?!`) or a look-behind (`(?<=`,
 * `(?<!`). JavaScript spellings RE2 lacks are rewritten (`\\uXXXX` and `\\u{…}` to `\\x{…}`,
 * `\\cX`, `(?<name>` to `(?P<name>`), and `.` and `\\s` / `\\S` (outside a class) are given
 * JavaScript's meaning, so a pattern written for JavaScript finds the same text.
 */
function toRe2(query: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < query.length; i++) {
    const c = query[i]!;
    if (c === '\\') {
      const next = query[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && query[i + 2] === '<')) {
        throw unsupported('backreference', 'Back-references (such as \\1 or \\k<name>) are not supported: they cannot be matched in linear time.');
      }
      if (next === 'u') {
        const braced = /^\\u\{([0-9a-fA-F]{1,6})\}/.exec(query.slice(i));
        const plain = /^\\u([0-9a-fA-F]{4})/.exec(query.slice(i));
        const hex = braced ?? plain;
        if (hex) {
          out += `\\x{${hex[1]}}`;
          i += hex[0].length - 1;
          continue;
        }
      }
      if (next === 'c' && /[A-Za-z]/.test(query[i + 2] ?? '')) {
        out += `\\x{${(query.charCodeAt(i + 2) % 32).toString(16)}}`;
        i += 2;
        continue;
      }
      if (next === 's') out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${JS_SPACE}]`;
      else out += c + next;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // RE2 reads a ']' (after an optional '^') right after '[' as a member, not the end.
      const negated = query[i + 1] === '^' ? 1 : 0;
      if (query[i + 1 + negated] === ']') {
        out += query.slice(i + 1, i + 2 + negated);
        i += 1 + negated;
      }
      continue;
    }
    if (c === '(' && query[i + 1] === '?') {
      const head = query.slice(i, i + 4);
      if (head.startsWith('(?=') || head.startsWith('(?!')) {
        throw unsupported('lookahead', 'Look-ahead ((?=…) and (?!…)) is not supported: match the text itself instead.');
      }
      if (head === '(?<=' || head === '(?<!') {
        throw unsupported('lookbehind', 'Look-behind ((?<=…) and (?<!…)) is not supported: match the text itself instead.');
      }
      if (head.startsWith('(?<')) {
        out += '(?P<';
        i += 2;
        continue;
      }
    }
    out += c === '.' ? JS_DOT : c;
  }
  return out;
}

/** What RE2 refused, from its parser's message (its wording is stable: Go's regexp/syntax). */
function re2Refusal(message: string): { construct: UnsupportedRegexConstruct; what: string } {
  if (/invalid repeat count/.test(message)) return { construct: 'repeat_count', what: 'A repetition count is at most 1000' };
  if (/expression too large|nesting depth/.test(message)) return { construct: 'too_large', what: 'This regular expression is too large' };
  if (/invalid escape sequence|invalid character class range/.test(message)) return { construct: 'escape', what: 'This escape is not supported' };
  if (/Perl syntax|invalid named capture|nested repetition/.test(message)) return { construct: 'group_syntax', what: 'This construct is not supported' };
  return { construct: 'syntax', what: 'Not a valid regular expression' };
}

function unsupported(construct: UnsupportedRegexConstruct, message: string): ProblemError {
  return new ProblemError(422, 'unsupported_regex', message, { construct, errors: [{ path: 'query', message }] });
}

function invalid(path: string, message: string): ProblemError {
  return new ProblemError(400, 'invalid_request', message, { errors: [{ path, message }] });
}
