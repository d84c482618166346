"""Writes the HTML page scripts/pictures photographs: a golden output of the
project rendered as GitHub shows it (cmark-gfm for the Markdown, a style
close to GitHub's at its 760 px comment column).

    python3 scripts/pictures.py comment|summary FILE.md
    python3 scripts/pictures.py check CHECK.txt ANNOTATIONS
"""
import html
import re
import subprocess
import sys

STYLE = """
body { margin: 0; background: #fff; color: #1f2328;
  font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif,
    "Noto Color Emoji"; }
.frame { width: 760px; margin: 16px; border: 1px solid #d1d9e0; border-radius: 6px; }
.head { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px;
  border-radius: 6px 6px 0 0; color: #59636e; }
.head b { color: #1f2328; }
.body { padding: 16px; overflow-wrap: break-word; }
h1, h2, h3, h4 { margin: 24px 0 16px; font-weight: 600; line-height: 1.25; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; }
h3 { font-size: 1.25em; } h4 { font-size: 1em; }
.body > :first-child { margin-top: 0; }
p, table, details, ul, ol, pre { margin: 0 0 16px; }
a { color: #0969da; text-decoration: none; }
code { font: 85% ui-monospace, "DejaVu Sans Mono", monospace; background: #818b981f;
  border-radius: 6px; padding: .2em .4em; white-space: break-spaces; }
pre { background: #f6f8fa; border-radius: 6px; padding: 16px; overflow: auto; font-size: 85%; }
pre code { background: none; padding: 0; font-size: 100%; white-space: pre; }
table { display: block; width: max-content; max-width: 100%; overflow: auto;
  border-spacing: 0; border-collapse: collapse; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
th { font-weight: 600; } tr:nth-child(2n) { background: #f6f8fa; }
summary { cursor: pointer; }
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
    return '<div class=frame><div class=head>%s</div><div class=body>%s</div></div>' % (head, body)


def check(check_txt, annotations):
    """The check run as its page shows it: the title, the summary, then
    each annotation with where it points and its message."""
    text = open(check_txt, encoding="utf-8").read()
    title = re.match(r"title: (.*)\n", text).group(1)
    summary = text.split("--- summary ---\n", 1)[1].split("\n--- text ---", 1)[0]
    notes = []
    for m in re.finditer(r'^(\w+) (\S+):(\d+)-(\d+).*\n  title: (".*")\n  message: (".*")$',
                         open(annotations, encoding="utf-8").read(), re.M):
        level, path, start, _, note_title, message = m.groups()
        notes.append('<div class=annotation><div class=where>%s#L%s</div><div>%s</div><pre>%s</pre></div>'
                     % (html.escape(path), start, html.escape(eval_string(note_title)),
                        html.escape(eval_string(message))))
    body = ('<div class=title>%s</div>%s<h3>Annotations</h3><div class=annotations>%s</div>'
            % (html.escape(title), markdown(summary), "".join(notes[:4])))
    return frame("<b>DRP2 conformance</b> · check run", body)


def eval_string(quoted):
    # The goldens write each string as a Go-quoted literal, which JSON reads.
    import json
    return json.loads(quoted)


def main():
    kind, files = sys.argv[1], sys.argv[2:]
    if kind == "check":
        inner = check(*files)
    else:
        head = {"comment": "<b>github-actions</b> bot commented",
                "summary": "<b>drp2</b> summary"}[kind]
        inner = frame(head, markdown(open(files[0], encoding="utf-8").read()))
    sys.stdout.write(page(kind, inner))


main()
