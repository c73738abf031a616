#!/usr/bin/env python3
"""`ooxml-validate.py --new` for many outputs at once, for the test suite.

usage: ooxml-validate-batch.py PATH/TO/ooxml-validate.py < MANIFEST
MANIFEST lines: LABEL<TAB>OUTPUT.docx<TAB>INPUT.docx[<TAB>INPUT2.docx ...]
prints, per output that has errors no input has: LABEL<TAB>ERROR (one line per error).

The same check as the shared tool (its own part list, markup-compatibility preprocessing and message
normalisation, imported from it), made cheap enough for CI:
- one Python process, and one xmllint run per few hundred parts (loading wml.xsd once, not per part);
- an output part byte-identical to the same part of one of its inputs is not validated: its errors
  are that input's, hence never new;
- each input is validated once, however many outputs name it."""
import importlib.util, os, re, subprocess, sys, tempfile, zipfile
import xml.etree.ElementTree as ET

spec = importlib.util.spec_from_file_location('ooxml_validate', sys.argv[1])
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)

CHUNK = 300


def normalise(part, line):
    """The tool's message for one xmllint line (see tool.errors), or None."""
    m = re.search(r'Schemas validity error : (.*)', line)
    if not m:
        return None
    msg = re.sub(r"'[^']*' is not a valid value", "a value is not valid", m.group(1))
    msg = re.sub(r"\[facet '[^']*'\] The value '[^']*'", "[facet] a value", msg)
    return f'{re.sub(r"[0-9]+", "N", part)}: {msg}'


def main():
    cases = [line.rstrip('\n').split('\t') for line in sys.stdin if line.strip()]
    tmp = tempfile.mkdtemp(prefix='ooxml-batch-')
    jobs = {}  # xml file written -> (docx, part)
    found = {}  # docx -> set of errors
    parts_of = {}

    def queue(docx, skip=lambda part, data: False):
        found.setdefault(docx, set())
        with zipfile.ZipFile(docx) as z:
            parts = tool.story_parts(z)
            parts_of[docx] = {p: z.read(p) for p in parts}
        for part, data in parts_of[docx].items():
            if skip(part, data):
                continue
            try:
                clean = tool.preprocess(data)
            except ET.ParseError as e:
                found[docx].add(f'{part}: not well-formed XML: {re.sub(r"line [0-9]+, column [0-9]+", "", str(e)).strip()}')
                continue
            f = os.path.join(tmp, f'{len(jobs)}.xml')
            with open(f, 'wb') as out:
                out.write(clean)
            jobs[f] = (docx, part)

    for case in cases:
        for docx in case[2:]:
            if docx not in found:
                queue(docx)
    for case in cases:
        inputs = [parts_of[d] for d in case[2:]]
        queue(case[1], lambda part, data: any(i.get(part) == data for i in inputs))

    files = list(jobs)
    for i in range(0, len(files), CHUNK):
        chunk = files[i:i + CHUNK]
        r = subprocess.run(['xmllint', '--noout', '--schema', tool.SCHEMA, *chunk], capture_output=True, text=True)
        for line in r.stderr.splitlines():
            name = line.split(':', 1)[0]
            if name in jobs:
                docx, part = jobs[name]
                e = normalise(part, line)
                if e:
                    found[docx].add(e)

    for case in cases:
        known = set().union(*(found[d] for d in case[2:]))
        for e in sorted(found[case[1]] - known):
            print(f'{case[0]}\t{e}')
    for f in files:
        os.remove(f)
    os.rmdir(tmp)


if __name__ == '__main__':
    main()
