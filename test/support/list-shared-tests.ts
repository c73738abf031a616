/**
 * Prints, one a line, the Vitest files that read the shared folder (shared-corpus.ts's
 * testsReadingShared): the list .ci/run runs again from a copy of the checkout without ../shared.
 */
import { testsReadingShared } from './shared-corpus';

for (const file of testsReadingShared(process.cwd())) console.log(file);
