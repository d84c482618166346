module github.com/drp2/drp2-fixtures

go 1.25

require (
	github.com/google/go-github/v60 v60.0.0
	github.com/jstemmer/go-junit-report/v2 v2.1.0
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	github.com/sethvargo/go-githubactions v1.4.0
)

require github.com/google/go-querystring v1.1.0 // indirect
