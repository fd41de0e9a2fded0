#!/usr/bin/env bash
# The README is a front door and the docs hold together: README.md has at
# most 300 lines and exactly two set-up commands in its fences (make bench,
# make check); its report excerpt is word for word the report it names; and
# in README.md and docs/*.md every relative link leads to a file that
# exists, every section a link names ("[x.md](x.md), \"Section\"") is a
# heading there (or a heading's part before a colon), and every committed
# run named (results/YYYYMMDD-HHMMSS-...) is a folder of results/.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

if ! command -v python3 >/dev/null; then
	skip "README.md and docs/*.md: links, size, set-up commands" "no python3 (make deps-test)"
	exit 0
fi

python3 - README.md docs/*.md results/README.md <<'EOF'
import os, re, sys

MAX_LINES = 300
SETUP = ["make bench", "make check"]

failed = 0
def ok(what): print("ok - " + what)
def bad(what, why):
    global failed
    failed += 1
    print("not ok - " + what + " : " + why)

def prose(lines):
    """(line number, text) of the lines outside fenced code blocks."""
    out, fence = [], False
    for n, l in enumerate(lines, 1):
        if l.lstrip().startswith("```"):
            fence = not fence
            continue
        if not fence:
            out.append((n, l))
    return out

def fences(lines):
    """Each fenced block: (first line number, [its lines])."""
    blocks, cur = [], None
    for n, l in enumerate(lines, 1):
        if l.lstrip().startswith("```"):
            if cur is None:
                cur = (n + 1, [])
            else:
                blocks.append(cur)
                cur = None
        elif cur is not None:
            cur[1].append(l)
    return blocks

def headings(path):
    """The headings of a Markdown file, as written and as GitHub's anchors."""
    names, slugs = set(), set()
    with open(path, encoding="utf-8") as f:
        for _, l in prose(f.read().split("\n")):
            m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", l)
            if m:
                h = m.group(1)
                names.add(" ".join(h.split()))
                s = re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-")
                slugs.add(s)
    return names, slugs

def command(l):
    """A fenced line's command, its comment cut off."""
    return l.split("#", 1)[0].strip()

readme = open("README.md", encoding="utf-8").read().split("\n")
if readme and readme[-1] == "":
    readme.pop()

# Size.
n = len(readme)
if n <= MAX_LINES:
    ok("README.md has at most %d lines (%d)" % (MAX_LINES, n))
else:
    bad("README.md has at most %d lines" % MAX_LINES, "it has %d" % n)

# The set-up commands: make bench and make check, each once, and no other
# make command in any fence of the README.
makes = [(first + i, command(l)) for first, b in fences(readme)
         for i, l in enumerate(b) if command(l).startswith("make")]
got = [c for _, c in makes]
if got == SETUP:
    ok("README.md's fences hold exactly two set-up commands: make bench, make check")
else:
    bad("README.md's fences hold exactly two set-up commands: make bench, make check",
        "%d make commands: %s" % (len(makes),
                                  ", ".join("README.md:%d %s" % m for m in makes[:6]) +
                                  (" ..." if len(makes) > 6 else "")))

# What the set-up section promises about CI and the test summary.
text = "\n".join(readme)
for what, needle in [("names .ci/run as what runs make check", ".ci/run"),
                     ("says the last line of make check", '"N passed, N failed, N skipped"')]:
    if needle in text:
        ok("README.md " + what)
    else:
        bad("README.md " + what, "no %s in it" % needle)

# The report excerpt: between <!-- excerpt: PATH --> and <!-- end excerpt -->,
# every line word for word a line of PATH.
m = re.search(r"<!-- excerpt: (\S+) -->\n(.*?)\n<!-- end excerpt -->", text, re.S)
if not m:
    bad("README.md's report excerpt is word for word from the report it names",
        "no <!-- excerpt: PATH --> ... <!-- end excerpt --> in it")
elif not os.path.isfile(m.group(1)):
    bad("README.md's report excerpt is word for word from the report it names",
        "%s: no such file" % m.group(1))
else:
    src = set(open(m.group(1), encoding="utf-8").read().split("\n"))
    lines = [l for l in m.group(2).split("\n") if l.strip()]
    missing = [l for l in lines if l not in src]
    if lines and not missing:
        ok("README.md's report excerpt is word for word from %s (%d lines)" % (m.group(1), len(lines)))
    else:
        bad("README.md's report excerpt is word for word from %s" % m.group(1),
            "%d of %d lines not in it, first: %s" % (len(missing), len(lines),
                                                      missing[0][:80] if missing else "(empty)"))

link_re = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ref_re = re.compile(r"\]\(([^)\s#]+\.md)\),\s+\"([^\"]+)\"")
run_re = re.compile(r"results/(\d{8}-\d{6}-[A-Za-z0-9_.-]*[A-Za-z0-9])")

for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    base = os.path.dirname(path)
    broken, nlinks = [], 0
    for ln, l in prose(lines):
        for target in link_re.findall(l):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue        # http:, https:, mailto:
            nlinks += 1
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(base, file)) if file else path
            if not os.path.exists(dest):
                broken.append("%s:%d: %s: no such file" % (path, ln, target))
            elif anchor and dest.endswith(".md") and anchor not in headings(dest)[1]:
                broken.append("%s:%d: %s: no heading #%s" % (path, ln, target, anchor))
    what = "%s: every relative link leads to a file that exists (%d links)" % (path, nlinks)
    if broken:
        bad(what, "; ".join(broken[:5]) + (" ..." if len(broken) > 5 else ""))
    else:
        ok(what)

    # Sections named after a link: [x.md](x.md), "Section", lines joined.
    joined = " ".join(l for _, l in prose(lines))
    joined = " ".join(joined.split())
    broken, nrefs = [], 0
    for file, section in ref_re.findall(joined):
        dest = os.path.normpath(os.path.join(base, file))
        nrefs += 1
        if not os.path.isfile(dest):
            broken.append("%s: no such file" % file)
        elif not any(h == section or h.startswith(section + ":") for h in headings(dest)[0]):
            broken.append('%s has no section "%s"' % (file, section))
    what = "%s: every section a link names is a heading there (%d)" % (path, nrefs)
    if broken:
        bad(what, "; ".join(broken[:5]))
    else:
        ok(what)

    # Committed runs named anywhere in the file, code included.
    runs = sorted(set(run_re.findall("\n".join(lines))))
    gone = [r for r in runs if not os.path.isdir(os.path.join("results", r))]
    what = "%s: every committed run it names is in results/ (%d runs)" % (path, len(runs))
    if gone:
        bad(what, "missing: " + ", ".join(gone[:5]))
    else:
        ok(what)
sys.exit(1 if failed else 0)
EOF
