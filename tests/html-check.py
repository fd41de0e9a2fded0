#!/usr/bin/env python3
# usage: tests/html-check.py FILE.html
#
# Is report.html well-formed, the way bootprobe writes it (every tag closed
# explicitly)?  With Python's own html.parser, no new dependency.  It checks:
#   - every opened element is closed, in order (no overlap, nothing left open
#     at the end); void elements (meta, br, img, ...) and SVG's self-closing
#     <path/> need no end tag;
#   - no <p> inside a <p>, no block (table, div, pre, details, h1-h6) inside a
#     <p>, where a browser would close the paragraph silently;
#   - <details> holds a <summary> as its first child, a <summary> sits only
#     directly in a <details>;
#   - table rows: <tr> only in <table> (or thead/tbody), <td>/<th> only in
#     <tr>.
# It does not validate attributes, content models beyond these, or CSS.
# Prints one line per problem and exits 1 if there is any.
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}
BLOCK = {"p", "table", "div", "pre", "details", "summary", "ul", "ol",
         "h1", "h2", "h3", "h4", "h5", "h6"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # (tag, line)
        self.problems = []
        self.first_in_details = False

    def bad(self, what):
        self.problems.append("line %d: %s" % (self.getpos()[0], what))

    def handle_starttag(self, tag, attrs):
        parent = self.stack[-1][0] if self.stack else None
        if self.first_in_details and tag != "summary":
            self.bad("<details> without a <summary> first (got <%s>)" % tag)
        self.first_in_details = False
        if tag in BLOCK and "p" in (t for t, _ in self.stack):
            self.bad("<%s> inside a <p>" % tag)
        if tag == "summary" and parent != "details":
            self.bad("<summary> outside a <details> (in <%s>)" % parent)
        if tag == "tr" and parent not in ("table", "thead", "tbody", "tfoot"):
            self.bad("<tr> in <%s>, not in a table" % parent)
        if tag in ("td", "th") and parent != "tr":
            self.bad("<%s> in <%s>, not in a <tr>" % (tag, parent))
        if tag in VOID:
            return
        self.stack.append((tag, self.getpos()[0]))
        self.first_in_details = tag == "details"

    def handle_startendtag(self, tag, attrs):
        # <path ... />: opened and closed at once (SVG, and void elements).
        self.first_in_details = False

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack:
            self.bad("</%s> with nothing open" % tag)
        elif self.stack[-1][0] != tag:
            self.bad("</%s> closes <%s> of line %d" % (tag, *self.stack[-1]))
            # Resynchronise on the matching element, if any, to go on.
            for i in range(len(self.stack) - 1, -1, -1):
                if self.stack[i][0] == tag:
                    del self.stack[i:]
                    break
        else:
            self.stack.pop()

    def close(self):
        super().close()
        for tag, line in self.stack:
            self.problems.append("<%s> of line %d never closed" % (tag, line))


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    c = Checker()
    c.feed(text)
    c.close()
    for p in c.problems[:20]:
        print("html-check: %s: %s" % (sys.argv[1], p))
    return 1 if c.problems else 0


if __name__ == "__main__":
    sys.exit(main())
