import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared schema check (`../shared/tools/ooxml-validate.py --new INPUT... OUTPUT`: the errors an
 * output has that none of its inputs had) over many outputs in one Python process and a few
 * xmllint runs (test/support/ooxml-validate-batch.py). Inputs are paths or bytes; bytes and
 * outputs go to a temporary folder for the run.
 */
const BATCH = fileURLToPath(new URL('../support/ooxml-validate-batch.py', import.meta.url));

/** Why the check cannot run here (no python3, no xmllint, no shared tool), or null when it can. */
export function schemaCheckMissing(tool: string): string | null {
  if (!existsSync(tool)) return `${tool} is absent`;
  if (spawnSync('python3', ['--version']).status !== 0) return 'python3 is not installed';
  if (spawnSync('xmllint', ['--version']).status !== 0) return 'xmllint is not installed (Debian: libxml2-utils)';
  return null;
}

export class SchemaBatch {
  private readonly cases: { label: string; output: Uint8Array; inputs: (string | Uint8Array)[] }[] = [];

  constructor(private readonly tool: string) {}

  get size(): number {
    return this.cases.length;
  }

  add(label: string, output: Uint8Array, inputs: (string | Uint8Array)[]): void {
    this.cases.push({ label: label.replace(/[\t\n]/g, ' '), output, inputs });
  }

  /** The new errors of each output that has any, by label. */
  run(): Map<string, string[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'schema-batch-'));
    try {
      const written = new Map<Uint8Array, string>();
      const fileOf = (bytes: Uint8Array): string => {
        let f = written.get(bytes);
        if (!f) {
          f = path.join(dir, `${written.size}.docx`);
          writeFileSync(f, bytes);
          written.set(bytes, f);
        }
        return f;
      };
      const manifest = this.cases
        .map((c) => [c.label, fileOf(c.output), ...c.inputs.map((i) => (typeof i === 'string' ? i : fileOf(i)))].join('\t'))
        .join('\n');
      const run = spawnSync('python3', [BATCH, this.tool], { input: manifest, encoding: 'utf8', maxBuffer: 64 << 20 });
      if (run.status !== 0) throw new Error(`ooxml-validate-batch.py failed: ${run.stderr}`);
      const out = new Map<string, string[]>();
      for (const line of run.stdout.split('\n').filter(Boolean)) {
        const tab = line.indexOf('\t');
        const label = line.slice(0, tab);
        out.set(label, [...(out.get(label) ?? []), line.slice(tab + 1)]);
      }
      return out;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
