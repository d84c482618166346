"""Writes the HTML page scripts/pictures photographs: a golden output of the
project rendered as GitHub shows it (cmark-gfm for the Markdown, a style
close to GitHub's at its 760 px comment column).

    python3 scripts/pictures.py comment|summary|check SCRIPT.txtar

SCRIPT.txtar is an action script test of internal/cli/action: its
want/summary member is the job summary, its want/requests member the
requests the fake GitHub received (the check run, the comment).
"""
import html
import json
import os
import re
import subprocess
import sys

# GitHub's rules for width, the ones TestFitsTheColumn checks the reports
# against, then what only the look needs: GitHub's fonts, colours and the
# frame of a comment or a check run.
GITHUB_CSS = os.path.join(os.path.dirname(__file__), "..", "report", "markdown", "testdata", "github.css")
STYLE = open(GITHUB_CSS, encoding="utf-8").read() + """
body { background: #fff; color: #1f2328; }
.markdown-body { margin: 0; font-family: -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif,
    "Noto Color Emoji"; }
.frame { display: inline-block; margin: 16px; border: 1px solid #d1d9e0; border-radius: 6px; }
.head { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px;
  border-radius: 6px 6px 0 0; color: #59636e; font: 14px/1.5 sans-serif; }
.head b { color: #1f2328; }
.body { padding: 16px; }
.markdown-body h1, .markdown-body h2, .markdown-body h3, .markdown-body h4 { margin: 24px 0 16px; font-weight: 600; line-height: 1.25; }
.markdown-body h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; }
.markdown-body h3 { font-size: 1.25em; } .markdown-body h4 { font-size: 1em; }
.markdown-body > :first-child { margin-top: 0; }
.markdown-body p, .markdown-body table, .markdown-body details, .markdown-body ul, .markdown-body ol, .markdown-body pre { margin: 0 0 16px; }
.markdown-body a { color: #0969da; text-decoration: none; }
.markdown-body code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; background: #818b981f; border-radius: 6px; }
.markdown-body pre { background: #f6f8fa; border-radius: 6px; }
.markdown-body pre code { background: none; }
.markdown-body th { font-weight: 600; } .markdown-body tr:nth-child(2n) { background: #f6f8fa; }
.title { font-size: 20px; font-weight: 600; margin: 0 0 16px; }
.annotations { border-top: 1px solid #d1d9e0; }
.annotation { border-bottom: 1px solid #d1d9e0; padding: 12px 16px; }
.annotation .where { font-weight: 600; }
.annotation .where::before { content: "\\2297"; color: #d1242f; margin-right: 8px; }
.annotation pre { margin: 8px 0 0; white-space: pre-wrap; }
"""


def markdown(text):
    return subprocess.run(
        ["cmark-gfm", "--unsafe", "-e", "table", "-e", "autolink",
         "-e", "strikethrough", "-e", "tagfilter"],
        input=text, capture_output=True, text=True, check=True).stdout


def page(title, inner):
    # The script writes the page's height into its title, which
    # scripts/pictures reads (chromium --dump-dom) to size the window.
    return ("<!doctype html><meta charset=utf-8><title>%s</title><style>%s</style>%s"
            "<script>document.title = 'height=' + document.documentElement.scrollHeight</script>"
            % (html.escape(title), STYLE, inner))


def frame(head, body):
    return ('<div class=frame><div class=head>%s</div><div class=body><div class=markdown-body>%s</div></div></div>'
            % (head, body))


def sections(txtar):
    """The members of a txtar archive, by name."""
    out, name = {}, None
    for line in open(txtar, encoding="utf-8").read().split("\n"):
        m = re.fullmatch(r"-- (.+) --", line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name:
            out[name].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def requests(text):
    """The requests of a want/requests member: (method and path, fields),
    each field a JSON string on its line or a block of "| " lines."""
    reqs, fields, key = [], None, None
    for line in text.split("\n"):
        if line and not line.startswith(" "):
            fields = {}
            reqs.append((line, fields))
        elif line.startswith("    | ") or line == "    |":
            fields[key] = fields.get(key, "") + line[6:] + "\n"
        elif " = " in line or line.endswith(" ="):
            key, _, value = line.strip().partition(" =")
            if value.strip():
                fields[key] = json.loads(value.strip())
    return reqs


def last(reqs, method_path):
    found = [f for r, f in reqs if r.startswith(method_path)]
    if not found:
        sys.exit("scripts/pictures: the example made no request " + method_path)
    return found[-1]


def check(fields):
    """The check run as its page shows it: the title, the summary, then
    each annotation with where it points and its message."""
    notes, i = [], 0
    while "output.annotations[%d].path" % i in fields:
        a = lambda k: str(fields["output.annotations[%d].%s" % (i, k)]).rstrip("\n")
        notes.append('<div class=annotation><div class=where>%s#L%s</div><div>%s</div><pre>%s</pre></div>'
                     % (html.escape(a("path")), a("start_line"), html.escape(a("title")),
                        html.escape(a("message"))))
        i += 1
    body = ('<div class=title>%s</div>%s<h3>Annotations</h3><div class=annotations>%s</div>'
            % (html.escape(fields["output.title"]), markdown(fields["output.summary"]), "".join(notes)))
    return frame("<b>DRP2 fixtures</b> · check run", body)


def main():
    kind, txtar = sys.argv[1], sys.argv[2]
    members = sections(txtar)
    reqs = requests(members["want/requests"])
    if kind == "check":
        inner = check(last(reqs, "POST /repos/acme/widgets/check-runs"))
    elif kind == "comment":
        body = last(reqs, "POST /repos/acme/widgets/issues/7/comments")["body"]
        inner = frame("<b>github-actions</b> bot commented", markdown(body))
    else:
        inner = frame("<b>drp2</b> summary", markdown(members["want/summary"]))
    sys.stdout.write(page(kind, inner))


main()
