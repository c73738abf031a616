import { ProblemError } from '../http/problem';

export const MAX_QUERY_CHARS = 500;
export const MAX_REGEX_CHARS = 200;

/**
 * The pattern of a document search. Plain text is matched literally. A regular expression runs
 * on this thread over every paragraph, so one that can backtrack exponentially would stall every
 * other request: refused are backreferences, lookarounds and a quantified group that holds a
 * quantifier or an alternation (the shapes of catastrophic backtracking), and anything over 200
 * characters. What remains runs in time linear-ish in the text for the patterns an assistant
 * writes ("indemnif(y|ication)", "\\b\\d+ days\\b").
 */
export function compileSearch(query: string, opts: { regex: boolean; caseSensitive: boolean }): RegExp {
  const flags = opts.caseSensitive ? 'gu' : 'giu';
  if (!query) throw invalid('query', 'Give a non-empty query.');
  if (query.length > MAX_QUERY_CHARS) throw invalid('query', `A query is at most ${MAX_QUERY_CHARS} characters.`);
  if (!opts.regex) return new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  if (query.length > MAX_REGEX_CHARS) throw invalid('query', `A regular expression is at most ${MAX_REGEX_CHARS} characters.`);
  if (/\\[1-9]|\\k<|\(\?<?[=!]/.test(query)) {
    throw invalid('query', 'Backreferences and lookarounds are not supported in a search.');
  }
  if (nestedQuantifier(query)) {
    throw invalid('query', 'A repeated group may not itself repeat or hold alternatives (such as (a+)+ or (a|b)*): it could take exponential time.');
  }
  try {
    return new RegExp(query, flags);
  } catch (error) {
    throw invalid('query', `Not a valid regular expression: ${(error as Error).message}`);
  }
}

/** Whether a quantified group contains a quantifier or an alternation. */
function nestedQuantifier(source: string): boolean {
  // Group contents on a stack: does each open group hold a quantifier or a '|'?
  const open: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') open.push(false);
    else if (c === ')') {
      const risky = open.pop() ?? false;
      const next = source[i + 1];
      const quantified = next === '*' || next === '+' || next === '{' || next === '?';
      if (risky && quantified && next !== '?') return true;
      if (open.length && (risky || quantified)) open[open.length - 1] = true;
    } else if ((c === '*' || c === '+' || c === '{' || c === '|') && open.length) {
      open[open.length - 1] = true;
    }
  }
  return false;
}

function invalid(path: string, message: string): ProblemError {
  return new ProblemError(400, 'invalid_request', message, { errors: [{ path, message }] });
}
