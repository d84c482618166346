package site

import (
	"bytes"
	"html/template"
	"sync"
)

// style is the whole stylesheet, inline in every page: nothing is loaded
// from anywhere, so a page reads the same from file:// and from Pages.
const style = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:72rem;padding:0 1rem 3rem;color:#1f2328;background:#fff}
header{border-bottom:1px solid #d0d7de;margin-bottom:1rem;padding:.75rem 0}
header a{color:inherit;text-decoration:none;font-weight:600}
h1{font-size:1.6rem;margin:.5rem 0;overflow-wrap:anywhere}h2{font-size:1.25rem;margin-top:2rem}
a{color:#0969da}
.wrap{overflow-x:auto;margin:.5rem 0 1rem}
table{border-collapse:collapse;min-width:100%}
caption{text-align:left;font-weight:600;padding:.25rem 0;caption-side:top}
th,td{border-bottom:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
thead th{background:#f6f8fa;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.path{overflow-wrap:anywhere;min-width:13rem;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85em}
.pass{color:#1a7f37}.fail{color:#cf222e}.none{color:#6e7781}.known{color:#9a6700}.flaky{color:#8250df}
.v{display:inline-block;width:.45rem;height:1rem;margin-right:1px;vertical-align:middle}
.v.pass{background:#2da44e}.v.fail{background:#cf222e}.v.none{background:#d0d7de}.v.known{background:#d4a72c}.v.flaky{background:#8250df}.v.absent{background:#fff;outline:1px solid #eaeef2}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.note{background:#fff8c5;border:1px solid #d4a72c;padding:.5rem .75rem;border-radius:6px;margin:1rem 0}
.note h2{margin:.25rem 0;font-size:1.1rem}
.muted{color:#57606a;overflow-wrap:anywhere}
svg{max-width:100%;height:auto}
code{overflow-wrap:anywhere}
td.h{white-space:nowrap}
code.digest{white-space:nowrap;overflow-wrap:normal}
h1.path{font-size:1.3rem}
@media (max-width:40rem){body{font-size:14px}td,th{padding:.25rem .35rem}}
`

// layout is the page templates, parsed on first use: of the binary's
// commands only site draws pages, and the others should not start slower
// for them.
var layout = sync.OnceValue(func() *template.Template {
	t := template.Must(template.New("page").Funcs(template.FuncMap{"pic": pic}).Parse(pageLayout))
	template.Must(t.New("pairSide").Parse(pairSideTemplate))
	template.Must(t.New("picture").Parse(picturePage))
	for name, body := range map[string]string{"index": indexPage, "impl": implPage, "fixture": fixturePage, "fixtures": fixturesPage, "reason": reasonPage,
		"grid": gridPage, "pair": pairPage, "diffs": diffsPage} {
		template.Must(t.New(name).Parse(body))
	}
	return t
})

const pageLayout = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · DRP2 conformance</title>
<style>` + style + findStyle + `</style>
</head>
<body>
<header><a href="{{.Root}}index.html">DRP2 conformance</a>
<nav><a href="{{.Root}}grid.html">Grid</a><a href="{{.Root}}fixtures.html">Fixtures</a><a href="{{.Root}}diffs.html">Differences</a></nav></header>
<main>
{{template "body" .}}
</main>
</body>
</html>
`

// bodies are the layout around each page's body, cloned and parsed once:
// a site of ten thousand reports draws as many pages of differences, and
// parsing for each took most of its render.
var bodies = sync.OnceValue(func() map[string]*template.Template {
	out := map[string]*template.Template{}
	for _, body := range []string{"index", "impl", "fixture", "fixtures", "grid", "pair", "diffs"} {
		t := template.Must(layout().Clone())
		template.Must(t.New("body").Parse(`{{template "` + body + `" .}}`))
		out[body] = t
	}
	return out
})

// page renders one page: the layout around the named body.
func page(body string, v any) []byte {
	var b bytes.Buffer
	if err := bodies()[body].ExecuteTemplate(&b, "page", v); err != nil {
		// The templates are the package's own and the views plain data:
		// an error is a bug of this package, shown in the page itself.
		b.Reset()
		b.WriteString("<!DOCTYPE html><title>error</title><p>" + template.HTMLEscapeString(err.Error()))
	}
	return b.Bytes()
}

const indexPage = `<h1>{{.Title}}</h1>
<p>{{.Lead}}</p>
{{if .Pending}}<section class="note"><h2>Pending</h2><p>No report yet of what the site requires:</p><ul>{{range .Pending}}<li>{{.}}: pending</li>{{end}}</ul></section>
{{end}}{{if .Problems}}<section class="note"><h2>Reports left out</h2><ul>{{range .Problems}}<li>{{.}}</li>{{end}}</ul></section>{{end}}
{{if .Notes}}<section class="note"><h2>Notes</h2><ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul></section>{{end}}
<section>
<h2>Implementations</h2>
<div class="wrap"><table>
<caption>Latest report of each implementation and device, and the corpus version it ran on</caption>
<thead><tr><th scope="col">Implementation</th><th scope="col">Repository</th><th scope="col">Device</th><th scope="col">Corpus</th><th scope="col" class="n">Level 1</th><th scope="col" class="n">Level 2</th><th scope="col" class="n">Level 3 parity</th><th scope="col">Measured</th><th scope="col" class="n">Reports</th></tr></thead>
<tbody>{{range .Rows}}<tr><th scope="row"><a href="{{.Href}}">{{.Name}}</a> <span class="muted">{{.Version}}</span></th><td>{{.Repository}}</td><td>{{.Device}}</td><td><code class="digest">{{.Corpus}}</code>{{if .CorpusNote}} <span class="muted">{{.CorpusNote}}</span>{{end}}</td><td class="n {{.L1Class}}">{{.L1}}</td><td class="n">{{.L2}}</td><td class="n">{{.L3}}</td><td>{{.When}}</td><td class="n">{{.Reports}}</td></tr>
{{end}}</tbody></table></div>
</section>
<section>
<h2>Corpus versions</h2>
<div class="wrap"><table>
<caption>The corpus versions the reports ran on, the latest first: a new version continues each implementation's history</caption>
<thead><tr><th scope="col">Corpus</th><th scope="col" class="n">Fixtures</th><th scope="col">Folder</th><th scope="col">DRP2</th><th scope="col">First report</th><th scope="col">Latest report</th><th scope="col" class="n">Reports</th><th scope="col" class="n">Latest of</th></tr></thead>
<tbody>{{range .Corpora}}<tr><th scope="row"><code class="digest" title="sha256 {{.Full}}">{{.Digest}}</code></th><td class="n">{{.Fixtures}}</td><td class="path">{{.Root}}</td><td>{{.DRP2}}</td><td>{{.First}}</td><td>{{.Latest}}</td><td class="n">{{.Reports}}</td><td class="n">{{.LatestOf}}</td></tr>
{{end}}</tbody></table></div>
</section>
<section><h2>Fixtures</h2><p><a href="fixtures.html">Every fixture</a>, with each implementation's latest verdict and history. The same content as JSON: <a href="data/index.json">data/index.json</a>.</p></section>
`

const implPage = `<h1>{{.Name}}</h1>
<dl>
<dt>Version</dt><dd>{{.Version}}</dd>
<dt>Repository</dt><dd>{{.Repository}}</dd>
<dt>Device</dt><dd>{{.Device}}</dd>
<dt>Corpus</dt><dd><code>{{.Corpus}}</code> · {{.Corpora}}</dd>
<dt>Latest report</dt><dd>{{.Latest}}</dd>
<dt>Levels</dt><dd>Level 1 <span class="{{.L1Class}}">{{.L1}}</span> · Level 2 {{.L2}} · Level 3 parity {{.L3}}</dd>
</dl>
<h2>Badges</h2>
<p class="wrap">{{range .Badges}}<img src="{{.SVG}}" alt="{{.Alt}}" height="20"> {{end}}</p>
<p class="muted">Static SVGs in <code>badges/</code>, and shields.io endpoint JSON beside them ({{range $i, $b := .Badges}}{{if $i}}, {{end}}<a href="{{$b.JSON}}">{{$b.Level}}</a>{{end}}).</p>
<h2>Pass rate over time</h2>
{{.Trend}}
<h2>Since the previous report</h2>
{{if .Diff}}<p>{{.Diff.Headline}}</p>
{{if .Diff.Rows}}<div class="wrap"><table><caption>Fixtures whose verdict moved between {{.Diff.Base}} and {{.Diff.Head}}</caption>
<thead><tr><th scope="col">Fixture</th><th scope="col">Change</th><th scope="col">Now</th></tr></thead>
<tbody>{{range .Diff.Rows}}<tr><th scope="row" class="path"><a href="{{.Href}}">{{.Path}}</a></th><td>{{.Transition}}</td><td>{{.Now}}</td></tr>
{{end}}</tbody></table></div>{{end}}
{{else}}<p class="muted">One report only: nothing to compare yet.</p>{{end}}
<h2>Flaky</h2>
{{if .Flaky}}<div class="wrap"><table><caption>Fixtures whose verdict flipped back and forth at one version and fixture digest</caption>
<thead><tr><th scope="col">Fixture</th><th scope="col" class="n">Flips</th><th scope="col">At version</th><th scope="col" class="n">Reports</th><th scope="col">Latest</th></tr></thead>
<tbody>{{range .Flaky}}<tr><th scope="row" class="path"><a href="{{.Href}}">{{.Path}}</a></th><td class="n">{{.Flips}}</td><td>{{.Version}}</td><td class="n">{{.Runs}}</td><td class="{{.Class}}">{{.Latest}}</td></tr>
{{end}}</tbody></table></div>{{else}}<p class="muted">No fixture flipped back and forth at one version: a change of verdict with a new version or a changed fixture is a fix or a regression, below.</p>{{end}}
<h2>Fixes and regressions</h2>
{{if .Changes}}<div class="wrap"><table><caption>Changes of verdict, newest first{{if .ChangesCut}} (the latest {{len .Changes}}; {{.ChangesCut}} older in the data){{end}}</caption>
<thead><tr><th scope="col">Report</th><th scope="col">Fixture</th><th scope="col">Change</th><th scope="col">Between the two reports</th></tr></thead>
<tbody>{{range .Changes}}<tr><td>{{.When}}</td><th scope="row" class="path"><a href="{{.Href}}">{{.Path}}</a></th><td class="{{.Class}}">{{.Change}}</td><td>{{.Why}}</td></tr>
{{end}}</tbody></table></div>{{else}}<p class="muted">No fixture changed its verdict.</p>{{end}}
{{if .Images}}<h2>Level 3 images that fail</h2>
<div class="wrap"><table><caption>Images of its latest report that do not match their reference; each fixture's page shows them beside it</caption>
<thead><tr><th scope="col">Fixture and readback</th><th scope="col">Fails on</th></tr></thead>
<tbody>{{range .Images}}<tr><th scope="row" class="path"><a href="{{.Href}}">{{.Path}}</a> <span class="muted">readback {{.Readback}}</span></th><td class="fail">{{.Failure}}</td></tr>
{{end}}</tbody></table></div>
{{end -}}
<h2>Latest result per fixture</h2>
<div class="wrap"><table><caption>{{.Name}} on each fixture, in its latest report</caption>
<thead><tr><th scope="col">Fixture</th><th scope="col">Verdict</th><th scope="col">Expected</th><th scope="col">Got</th><th scope="col">First passed in</th></tr></thead>
<tbody>{{range .Fixtures}}<tr><th scope="row" class="path"><a href="{{.Href}}">{{.Path}}</a>{{if .Since}}<br><span class="muted">{{.Since}}</span>{{end}}</th><td class="{{.Class}}">{{.Verdict}}{{template "reason" .Entry}}</td><td>{{.Expected}}</td><td>{{.Got}}</td><td>{{.FirstPass}}</td></tr>
{{end}}</tbody></table></div>
<h2>Reports</h2>
<div class="wrap"><table><caption>Every report of {{.Name}} on this device, newest first</caption>
<thead><tr><th scope="col">Started</th><th scope="col">Version</th><th scope="col">Corpus</th><th scope="col" class="n">Level 1</th><th scope="col" class="n">Level 2</th><th scope="col" class="n">Level 3</th><th scope="col">Report</th><th scope="col">Commit</th><th scope="col">Since the one before</th></tr></thead>
<tbody>{{range .Reports}}<tr><th scope="row">{{.When}}</th><td>{{.Version}}</td><td><code class="digest">{{.Corpus}}</code></td><td class="n {{.L1Class}}">{{.L1}}</td><td class="n">{{.L2}}</td><td class="n">{{.L3}}</td><td class="path">{{.Source}}</td><td>{{if .CommitURL}}<a href="{{.CommitURL}}">{{.Commit}}</a>{{else}}{{.Commit}}{{end}}{{if .RunURL}} <a href="{{.RunURL}}">run</a>{{end}}</td><td>{{if .Diff}}<a href="{{.Diff}}">differences</a>{{end}}</td></tr>
{{end}}</tbody></table></div>
<p class="muted">As JSON: <a href="{{.Data}}">{{.Data}}</a>.</p>
`

const fixturePage = `<h1 class="path">{{.Path}}</h1>
{{if .Rows}}<div class="wrap"><table><caption>Each implementation's latest verdict on {{.Path}}, and its history (oldest first{{if .Cut}}, the last {{.Cut}} reports{{end}}; since the fixture's commands and expectation are as now)</caption>
<thead><tr><th scope="col">Implementation</th><th scope="col">Latest</th><th scope="col">History</th><th scope="col" class="n">Flips</th><th scope="col">First passed in</th><th scope="col">Device</th><th scope="col">Got</th></tr></thead>
<tbody>{{range .Rows}}<tr><th scope="row"><a href="{{.Href}}">{{.Name}}</a> <span class="muted">{{.Repository}}</span>{{if .Since}}<br><span class="muted">{{.Since}}</span>{{end}}</th><td class="{{.Class}}">{{.Latest}}{{template "reason" .Entry}}</td><td class="h">{{range .Cells}}<span class="v {{.Class}}" title="{{.Title}}"></span>{{end}}</td><td class="n">{{.Flips}}</td><td>{{.FirstPass}}</td><td>{{.Device}}</td><td>{{.Got}}</td></tr>
{{end}}</tbody></table></div>{{else}}<p>No implementation ran it.</p>{{end}}
{{if .Images}}<style>` + imageStyle + `</style>
<h2 id="images">Level 3 images that fail</h2>
<p class="muted">Each implementation's latest report: its image, the reference it was compared with, and the difference (gray: equal, dimmed; blue: within the tolerance; red: beyond it).</p>
{{range .Images}}<section class="image" id="{{.Anchor}}"><h3><a href="{{.Href}}">{{.Name}}</a>, readback {{.Readback}}: <span class="{{.Class}}">{{.Failure}}</span></h3>
<p>{{if .Measures}}{{.Measures}} · {{end}}tolerance <code>{{.Tolerance}}</code></p>
<div class="trio">{{template "picture" (pic "Actual" .Actual .NoActual)}}{{template "picture" (pic "Reference" .Reference .NoReference)}}{{template "picture" (pic "Diff" .Diff .NoDiff)}}</div></section>
{{end}}{{end}}<p class="muted">As JSON: <a href="{{.Data}}">{{.Data}}</a>.</p>
`

// imageStyle is the style of the pictures of a fixture's page, in the
// pages that show any.
const imageStyle = `
h3{font-size:1rem;margin:1.5rem 0 .25rem;overflow-wrap:anywhere}
.trio{display:grid;grid-template-columns:repeat(3,minmax(0,16rem));gap:.5rem}
.trio figure{margin:0;min-width:0}
.trio img{display:block;width:100%;height:auto;image-rendering:pixelated;border:1px solid #d0d7de;background:#f6f8fa}
.trio figcaption{font-size:.85em;padding-top:.2rem}
.nopic{aspect-ratio:1;display:flex;align-items:center;justify-content:center;text-align:center;border:1px dashed #d0d7de;color:#57606a;font-size:.85em;padding:.25rem;overflow-wrap:anywhere}
`

// picturePage is one picture of an image check, or why there is none.
const picturePage = `<figure>{{if .File}}<a href="{{.File.Src}}"><img src="{{.File.Src}}" width="{{.File.Width}}" height="{{.File.Height}}" alt="{{.Caption}} image"></a>{{else}}<div class="nopic">{{.Why}}</div>{{end}}<figcaption>{{.Caption}}{{if .File}} <span class="muted">{{.File.Width}}×{{.File.Height}}</span>{{end}}</figcaption></figure>`

// reasonPage is an expectations entry's reason under a verdict, its bug
// link a link.
const reasonPage = `{{if or .Before .URL}}<br><span class="muted">{{.Before}}{{if .URL}}<a href="{{.URL}}" rel="nofollow">{{.URL}}</a>{{end}}{{.After}}</span>{{end}}`

const fixturesPage = `<h1>Fixtures</h1>
<div class="wrap"><table><caption>Every fixture of the reports, with how many implementations pass it in their latest report</caption>
<thead><tr><th scope="col">Fixture</th><th scope="col" class="n">Passing</th><th scope="col" class="n">Flaky in</th></tr></thead>
<tbody>{{range .Rows}}<tr><th scope="row" class="path"><a href="{{.Href}}">{{.Path}}</a></th><td class="n">{{.Passing}}</td><td class="n">{{.Flaky}}</td></tr>
{{end}}</tbody></table></div>
`
