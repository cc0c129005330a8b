"""compare-results-snapshots.py BEFORE AFTER: compares two results/ trees (before and after the
fingerprint-format-2 change: checked results and the streamed writer).
Every file must be byte-identical except:
- results.arrow: identical once the plan fingerprint (format 1 before, format 2 after; the
  64 hex digits of the schema metadata fairaudit.fingerprint) is put back; and run.json's
  recorded SHA-256, size and rows of it must match the file;
- run.json: provenance; format fairaudit-run/1 -> /2; plan.fingerprint (format 2);
  the new plan.fingerprintFormat, plan.cellCount, columns[].values and artifacts;
- report.html, README.md, report-layout.json: generated-at stamp, commit, run times;
- paper-b-pir/*: Table 1 is a timing measurement;
- in text files, the checkout's path (ROOT_BEFORE / ROOT_AFTER: optional 3rd and 4th
  arguments) where the two snapshots were made in different checkouts.
Prints one line per differing file; exit 1 if any difference is unexplained."""
import hashlib, json, os, re, sys
before, after = sys.argv[1], sys.argv[2]
ROOTS = [r for r in sys.argv[3:5] if r]
def unroot(t):
    for r in ROOTS: t = t.replace(r, 'ROOT')
    return t
def files(root):
    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs)
def sha(p): return hashlib.sha256(open(p, 'rb').read()).hexdigest()
TIMES = [r'Generated [0-9T:.Z-]+', r'<th>(gitCommit|wallSeconds|startedAt|finishedAt)</th><td class="text">[^<]*',
         r'replicates in [0-9.]+ s', r'in [0-9.]+ s on \d+ thread', r'Total time [0-9.]+ s \(pools [0-9.]+ s\)',
         r'"seconds": [0-9.]+',
         r'&quot;(gitCommit|wallSeconds|startedAt|finishedAt)&quot;: [^,\n]*',
         r'"(gitCommit|wallSeconds|startedAt|finishedAt)": [^,\n]*']
def norm_text(p):
    t = unroot(open(p, encoding='utf8').read())
    for r in TIMES: t = re.sub(r, 'X', t)
    return t
def norm_run(j):
    j = json.loads(json.dumps(j)); j.pop('provenance', None); j.pop('artifacts', None); j['format'] = 'X'
    j['plan'].pop('fingerprint', None); j['plan'].pop('fingerprintFormat', None); j['plan'].pop('cellCount', None)
    for c in j.get('columns', []): c.pop('values', None)
    return unroot(json.dumps(j, sort_keys=True))
fb, fa = files(before), files(after)
bad = 0
if fb != fa:
    print('file lists differ:', sorted(set(fb) ^ set(fa))); bad += 1
same = 0; classes = {}
for f in sorted(set(fb) & set(fa)):
    pb, pa = os.path.join(before, f), os.path.join(after, f)
    if sha(pb) == sha(pa): same += 1; continue
    if f.startswith('paper-b-pir/'): why, ok = 'timing measurement', True
    elif f.endswith('results.arrow'):
        rb = json.load(open(os.path.join(os.path.dirname(pb), 'run.json')))
        ra = json.load(open(os.path.join(os.path.dirname(pa), 'run.json')))
        old, new = rb['plan']['fingerprint'].encode(), ra['plan']['fingerprint'].encode()
        a = open(pa, 'rb').read()
        art = [x for x in ra.get('artifacts', []) if x['file'] == 'results.arrow']
        ok = (a.count(new) == 1 and a.replace(new, old) == open(pb, 'rb').read() and len(art) == 1
              and art[0]['sha256'] == sha(pa) and art[0]['bytes'] == len(a) and art[0]['rows'] == ra['rows'])
        why = 'results.arrow: identical but for the plan fingerprint; run.json records its SHA-256, size and rows'
    elif f.endswith('run.json'):
        ok = norm_run(json.load(open(pb))) == norm_run(json.load(open(pa)))
        why = 'run.json: provenance, format 2 (fingerprint format 2, cellCount, column values, artifacts)'
    elif f.endswith(('.html', '.md', '.json')):
        ok = norm_text(pb) == norm_text(pa); why = 'generated-at stamp, commit, run times'
    else:
        ok, why = False, 'binary'
    print(('' if ok else 'UNEXPLAINED ') + why + ':', f)
    classes[why] = classes.get(why, 0) + 1
    bad += 0 if ok else 1
print(f'{len(fa)} files: {same} byte-identical, {len(fa) - same} differ; unexplained: {bad}')
for why, n in sorted(classes.items()): print(f'  {n:3d} {why}')
sys.exit(1 if bad else 0)
