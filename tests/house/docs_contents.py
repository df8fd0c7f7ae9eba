# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""docs/benchmarks.md grows a section per branch measured; its contents list
at the top groups them so a reader finds the standing figures, the state
after each session and every branch's work on one issue without scrolling
13,000 lines. The list is written from the headings:

  - every `## ` heading that names no issue and no session: standing figures;
  - `## Main after ...`: the state after a session's merges;
  - every `## ` or `### ` heading naming "issue N" (the first one named) or
    a branch: under that issue (a branch with no issue, or an issue not in
    ISSUES: "Other work").

usage: docs_contents.py SOURCE_ROOT           fails when the list is stale
       docs_contents.py SOURCE_ROOT --write   rewrites the list in place
       docs_contents.py --self-test
"""
import os
import re
import sys
import tempfile

BEGIN = "<!-- contents: written by tests/house/docs_contents.py --write -->"
END = "<!-- end of contents -->"
ISSUES = {
    13: "Issue 13: navmesh correctness and path quality (exact mode)",
    14: "Issue 14: crowd flow",
    15: "Issue 15: hardening",
    16: "Issue 16: the house",
    17: "Issue 17: integration",
    18: "Issue 18: authoring",
    19: "Issue 19: performance against Detour",
}


def anchor(title, seen):
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to
    hyphens, a repeated anchor numbered."""
    slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
    n = seen.get(slug, 0)
    seen[slug] = n + 1
    return slug if n == 0 else "%s-%d" % (slug, n)


def headings(lines):
    """(level, title, anchor) of every ## and ### heading outside code."""
    seen, out, fenced = {}, [], False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"(#{1,6}) (.*\S)\s*$", line)
        if m:
            out.append((len(m.group(1)), m.group(2), anchor(m.group(2), seen)))
    return [h for h in out if h[0] in (2, 3)]


def group_of(level, title):
    m = re.search(r"\bissues? (\d+)", title, re.IGNORECASE)
    if m:
        return ISSUES.get(int(m.group(1)), "Other work")
    if title.startswith("Main after"):
        return "Main after each session's merges"
    if "branch " in title:
        return "Other work"
    return "Standing figures" if level == 2 else None


def contents(lines):
    order = ["Standing figures", "Main after each session's merges"] + list(ISSUES.values())
    order.append("Other work")
    groups = {name: [] for name in order}
    for level, title, slug in headings(lines):
        name = group_of(level, title)
        if name:
            groups[name].append("  - [%s](#%s)" % (title.replace("[", "(").replace("]", ")"), slug))
    out = [BEGIN, "", "## Contents", ""]
    for name in order:
        if groups[name]:
            out.append("- %s" % name)
            out.extend(groups[name])
    out += ["", END]
    return out


def rewrite(text):
    """text with its contents block replaced (or put before the first ##)."""
    lines = text.split("\n")
    if (BEGIN in lines) != (END in lines) or lines.count(BEGIN) > 1 or (
            BEGIN in lines and lines.index(END) < lines.index(BEGIN)):
        raise ValueError("docs/benchmarks.md: the contents markers are broken; "
                         "delete both and run --write")
    if BEGIN in lines:
        a, b = lines.index(BEGIN), lines.index(END)
        body = lines[:a] + lines[b + 1:]
        at = a
    else:
        body = lines
        at = next((i for i, l in enumerate(lines) if l.startswith("## ")), len(lines))
    new = contents(body)
    return "\n".join(body[:at] + new + body[at:])


def check(root, write):
    path = os.path.join(root, "docs", "benchmarks.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    new = rewrite(text)
    if new == text:
        return 0
    if write:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
        print("docs_contents: %s rewritten" % path)
        return 0
    print("docs_contents: the contents list of %s is stale; run\n"
          "  python3 tests/house/docs_contents.py . --write" % path)
    return 1


def self_test():
    doc = "# B\n\nintro\n\n## Crowd: `bench/crowd_bench.c`\n\nx\n\n" \
          "## Main after the first session's merges\n\n" \
          "### Lanes (issue 14, branch lanes1)\n\n```\n## not a heading\n```\n\n" \
          "## Queries again (issue 19 item 2, branch q1)\n\n## Crowd: `bench/crowd_bench.c`\n"
    with tempfile.TemporaryDirectory() as root:
        os.mkdir(os.path.join(root, "docs"))
        path = os.path.join(root, "docs", "benchmarks.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(doc)
        if check(root, False) != 1 or check(root, True) != 0 or check(root, False) != 0:
            print("self-test: the check did not fail on a stale list or pass after --write")
            return 1
        with open(path, encoding="utf-8") as f:
            text = f.read()
        wanted = ["](#crowd-benchcrowd_benchc)", "](#crowd-benchcrowd_benchc-1)",
                  "- Issue 14: crowd flow\n  - [Lanes (issue 14, branch lanes1)](#lanes-issue-14-branch-lanes1)",
                  "- Issue 19", "- Main after each session's merges"]
        missing = [w for w in wanted if w not in text]
        if missing or "not a heading" in text.split(END)[0] or text.count(BEGIN) != 1:
            print("self-test: wrong contents: %s" % missing)
            return 1
        if rewrite(text) != text:
            print("self-test: a second write changed the file")
            return 1
    print("self-test: ok")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) in (2, 3) and (len(argv) == 2 or argv[2] == "--write"):
        return check(argv[1], len(argv) == 3)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
