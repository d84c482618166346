package site

// findStyle is the stylesheet of the grid, the diff pages and the forms
// that filter and choose, added to every page's.
const findStyle = `
[hidden]{display:none!important}
nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin-top:.25rem}nav a{font-weight:400;color:#0969da}
form.find{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin:.5rem 0}
form.find label{display:flex;flex-direction:column;font-size:.85em;font-weight:600;max-width:100%}
form.find input,form.find select{font:inherit;font-weight:400;max-width:100%;min-width:0}
.grid{table-layout:fixed;min-width:0}col.fixture{width:15rem}col.verdict{width:6.5rem}
.grid td{white-space:nowrap;font-size:.85em;overflow:hidden;text-overflow:ellipsis}
.grid th.col{font-weight:400;font-size:.85em;white-space:normal;overflow-wrap:anywhere;vertical-align:bottom}
.grid th.col>*{display:block;max-height:4.4em;overflow:hidden}
.grid tbody th{position:sticky;left:0;background:#fff}
td.absent{color:#8c959f}
pre.cmd{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;padding:.5rem;border-radius:6px}
`

const gridPage = `<h1>{{.Title}}</h1>
<p>Every fixture against the latest report of each implementation and device: that report's verdict as the gate told it (one an expectations entry covers names the entry's reason when pointed at, and links the bug it names), "{{.NotRun}}" where the report did not run the fixture.</p>
<form class="find" id="find" role="search" hidden data-not-run="{{.NotRun}}">
<label>Fixture path contains <input name="path" type="search" autocomplete="off" spellcheck="false"></label>
<label>Verdict <select name="verdict"><option value="">any</option>{{range .Verdicts}}<option>{{.}}</option>{{end}}</select></label>
<label>Implementation <select name="impl"><option value="">any</option>{{range $i, $c := .Columns}}<option value="{{$i}}">{{$c.Name}}{{if $c.Device}} · {{$c.Device}}{{end}}</option>{{end}}</select></label>
<output id="shown" aria-live="polite"></output>
</form>
<div class="wrap"><table class="grid" id="grid" style="width:{{.Width}}rem"><caption>{{len .Rows}} fixtures × {{len .Columns}} implementations and devices</caption>
<colgroup><col class="fixture">{{range .Columns}}<col class="verdict">{{end}}</colgroup>
<thead><tr><th scope="col">Fixture</th>{{range .Columns}}<th scope="col" class="col"><a href="{{.Href}}" title="{{.Name}}">{{.Name}}</a>{{if .Device}}<span class="muted" title="{{.Device}}">{{.Device}}</span>{{end}}<span class="muted">{{.When}}</span></th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr><th scope="row" class="path"><a href="{{.Href}}">{{.Path}}</a></th>{{range .Cells}}<td class="{{.Class}}"{{if .Reason}} title="{{.Reason}}"{{end}}>{{if .Bug}}<a href="{{.Bug}}" rel="nofollow">{{.Verdict}}</a>{{else}}{{.Verdict}}{{end}}</td>{{end}}</tr>
{{end}}</tbody></table></div>
<script>{{.Script}}</script>
`

const pairPage = `<h1>{{.Name}}: since the previous report</h1>
<dl>
<dt>Implementation</dt><dd><a href="{{.Impl}}">{{.Name}}</a></dd>
<dt>Repository</dt><dd>{{.Repository}}</dd>
<dt>Device</dt><dd>{{.Device}}</dd>
<dt>Before</dt><dd>{{template "pairSide" .Base}}</dd>
<dt>After</dt><dd>{{template "pairSide" .Head}}</dd>
</dl>
<p>{{.Counts}}</p>
<p>{{.Between}}</p>
{{if .Changes}}<div class="wrap"><table><caption>Fixtures whose verdict differs between the two reports</caption>
<thead><tr><th scope="col">Fixture</th><th scope="col">Change</th><th scope="col">Before</th><th scope="col">After</th><th scope="col">Note</th></tr></thead>
<tbody>{{range .Changes}}<tr><th scope="row" class="path"><a href="{{.Href}}">{{.Path}}</a></th><td>{{.Kind}}</td><td class="{{.BeforeClass}}">{{.Before}}{{template "reason" .BeforeEntry}}</td><td class="{{.AfterClass}}">{{.After}}{{template "reason" .AfterEntry}}</td><td>{{.Why}}</td></tr>
{{end}}</tbody></table></div>{{end}}
<nav>{{if .Prev}}<a href="{{.Prev}}">← the difference before</a>{{end}}{{if .Next}}<a href="{{.Next}}">the difference after →</a>{{end}}<a href="../diffs.html">Every difference</a></nav>
`

const pairSideTemplate = `{{define "pairSide"}}{{.When}} · version {{.Version}} · <span class="path">{{.Source}}</span>{{if .Commit}} · commit {{if .CommitURL}}<a href="{{.CommitURL}}">{{.Commit}}</a>{{else}}{{.Commit}}{{end}}{{end}}{{if .RunURL}} · <a href="{{.RunURL}}">workflow run</a>{{end}} · drp2-fixtures {{.Tool}}{{end}}`

const diffsPage = `<h1>{{.Title}}</h1>
<p>Each report against the report before it of the same implementation, device and repository: the fixtures whose verdict changed.</p>
<form class="find" id="compare" hidden>
<label>Base <select name="base">{{range .Options}}<option value="{{.ID}}" data-prev="{{.Prev}}" data-page="{{.Page}}" data-arg="{{.Arg}}">{{.Label}}</option>{{end}}</select></label>
<label>Head <select name="head"></select></label>
<p><a id="pair-page" hidden>The page of this pair</a></p>
</form>
<p>Any two reports, whichever their implementations, compare on the command line, from the folder the site was built in:</p>
<pre class="cmd" id="pair-command">drp2-fixtures diff BASE.json HEAD.json</pre>
{{range .Series}}<section><h2><a href="{{.Href}}">{{.Name}}</a> <small class="muted">{{if ne .Device "–"}}{{.Device}} · {{end}}{{.Repository}}</small></h2>
<ul>{{range .Reports}}<li>{{if .Page}}<a href="{{.Page}}">{{.Short}}</a>{{else}}{{.Short}} <span class="muted">(the first report)</span>{{end}}</li>
{{end}}</ul></section>
{{end}}<script>{{.Script}}</script>
`
