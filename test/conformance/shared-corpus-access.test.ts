import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testsReadingShared } from '../support/shared-corpus';

/** Source lines (comments aside) of every TypeScript file under the folders tests live in. */
function codeLines(root: string, dirs: string[]): { file: string; line: string }[] {
  const out: { file: string; line: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts')) {
        for (const line of readFileSync(path.join(root, rel), 'utf8').split('\n')) if (!/^\s*(\*|\/\/|\/\*)/.test(line)) out.push({ file: rel, line });
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return out;
}

/** The helper, and this test that names what it looks for. */
const ALLOWED = [path.join('test', 'support', 'shared-corpus.ts'), path.join('test', 'conformance', 'shared-corpus-access.test.ts')];

/** Issue 31 item 10: tests reach ../shared only through test/support/shared-corpus.ts, which skips with the README's message. */
describe('access to the shared folder', () => {
  it('no test, helper or end-to-end spec names ../shared or REDLINE_CORPUS but the helper', () => {
    const naming = codeLines(process.cwd(), ['test', 'src', 'e2e'])
      .filter(({ file, line }) => !ALLOWED.includes(file) && /\.\.\/shared|REDLINE_CORPUS|shared\/(corpus|tools)/.test(line))
      .map(({ file, line }) => `${file}: ${line.trim()}`);
    expect(naming).toEqual([]);
  });

  it('lists the tests that read it, also through a helper, for CI to run again without it', () => {
    const listed = testsReadingShared(process.cwd());
    expect(listed).toEqual(expect.arrayContaining([
      path.join('test', 'conformance', 'numbering-lo.test.ts'),
      path.join('test', 'conformance', 'written-parts.test.ts'),
      path.join('src', 'docx', 'render', 'drawings.test.ts'),
      path.join('src', 'service', 'report', 'report.test.ts'),
    ]));
    expect(listed.every((f) => f.endsWith('.test.ts'))).toBe(true);
  });
});
