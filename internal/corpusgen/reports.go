package corpusgen

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"time"
)

// ReportOptions shape a history of generated JSON reports.
type ReportOptions struct {
	// Count reports in all, spread over Implementations implementations,
	// one implementation a report, as each publishes its own.
	Count, Implementations int
	// Start is the first report's start; each round of reports is Every
	// (six hours when zero) after the one before.
	Start time.Time
	Every time.Duration
	// CorpusEvery is how many rounds one corpus version lasts (0: the
	// seed's corpus throughout). Each new version edits one fixture: its
	// file always, and every other version its commands too, so that a
	// site sees both a description-only edit and a changed fixture.
	CorpusEvery int
}

// Reports writes a history of JSON reports to out (report-NNNNN.json),
// made from seed, the JSON report of a real run: each report is that run
// plus one implementation whose verdicts are the run's own, perturbed
// deterministically: implementation i fails about i tenths of the
// fixtures throughout, and each fixture flips in about one report of
// fifty (the flaky candidates a site should find). The same arguments
// give the same bytes.
func Reports(seed []byte, out string, o ReportOptions) error {
	var doc map[string]any
	if err := json.Unmarshal(seed, &doc); err != nil {
		return fmt.Errorf("seed report: %v", err)
	}
	results, _ := doc["results"].([]any)
	summary, _ := doc["summary"].(map[string]any)
	if len(results) == 0 || summary == nil {
		return fmt.Errorf("seed report: no results")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	impls := max(o.Implementations, 1)
	every := o.Every
	if every <= 0 {
		every = 6 * time.Hour
	}
	seedCorpus := summary["corpus_sha256"]
	for k := 0; k < o.Count; k++ {
		i, round := k%impls, k/impls
		summary["started"] = o.Start.Add(time.Duration(round)*every + time.Duration(i)*time.Minute).UTC().Format(time.RFC3339)
		version := 0
		if o.CorpusEvery > 0 {
			version = round / o.CorpusEvery
		}
		summary["corpus_sha256"] = seedCorpus
		if version > 0 {
			summary["corpus_sha256"] = fmt.Sprintf("%016x%016x%016x%016x", hash("corpus", version, 0, "a"), hash("corpus", version, 0, "b"), hash("corpus", version, 0, "c"), hash("corpus", version, 0, "d"))
		}
		summary["commit"] = fmt.Sprintf("%016x%016x%08x", hash("commit", i, round, ""), hash("commit", i, round, "b"), uint32(hash("commit", i, round, "c")))
		summary["repository"] = fmt.Sprintf("runtime-%d/runtime", i)
		doc["implementations"] = []any{implementation(edited(results, version), i, round)}
		data, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("report-%05d.json", k)), append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func hash(kind string, i, round int, path string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%s", kind, i, round, path)
	return h.Sum64()
}

// implementation is implementation i's record in round: the run's
// results, some failing.
func implementation(results []any, i, round int) map[string]any {
	var out []any
	passed, failed := 0, 0
	failing := []any{}
	for _, r := range results {
		rec := map[string]any{}
		for k, v := range r.(map[string]any) {
			rec[k] = v
		}
		path, _ := rec["corpus_path"].(string)
		fail := hash("fails", i, 0, path)%10 < uint64(i)
		if hash("flips", i, round, path)%50 == 0 {
			fail = !fail
		}
		if fail && rec["passed"] == true {
			rec["passed"] = false
			if rec["actual_outcome"] == "success" {
				rec["actual_outcome"], rec["actual_phase"], rec["actual_code"], rec["actual_command_index"] = "error", "semantic_validation", "DRP2_ERR_USAGE", 1
				rec["message"] = "generated failure"
			} else {
				rec["actual_outcome"], rec["actual_phase"], rec["actual_code"], rec["actual_command_index"], rec["message"] = "success", nil, nil, nil, nil
			}
		}
		if rec["passed"] == true {
			passed++
		} else {
			failed++
			failing = append(failing, rec["fixture_path"])
		}
		out = append(out, rec)
	}
	name := fmt.Sprintf("runtime-%d", i)
	return map[string]any{
		"command": "./" + name + " --drp2-adapter", "name": name, "version": fmt.Sprintf("0.%d.0", round/40),
		"drp2_versions": []any{"2.0"}, "executes": false, "protocol": 2, "error": nil,
		"adapter":  map[string]any{"device": fmt.Sprintf("device %d", i), "platform": "generated"},
		"summary":  map[string]any{"run": len(out), "passed": passed, "failed": failed, "harness_errors": 0, "not_claimed": 0, "level1": failed == 0, "level2_checked": 0, "level2_passed": 0, "level3_compared": 0, "level3_agreed": 0, "failing_paths": failing},
		"restarts": 0, "stderr": "", "results": out,
	}
}

// edited are the results of corpus version: fixture (v*7) mod n of each
// version v up to it edited, its file digest changed, and at even
// versions its commands digest too.
func edited(results []any, version int) []any {
	if version == 0 {
		return results
	}
	out := make([]any, len(results))
	copy(out, results)
	for v := 1; v <= version; v++ {
		j := (v * 7) % len(results)
		rec := map[string]any{}
		for k, x := range out[j].(map[string]any) {
			rec[k] = x
		}
		digest := map[string]any{}
		if d, ok := rec["digest"].(map[string]any); ok {
			for k, x := range d {
				digest[k] = x
			}
		}
		digest["file"] = fmt.Sprintf("%016x%016x%016x%016x", hash("file", v, j, "a"), hash("file", v, j, "b"), hash("file", v, j, "c"), hash("file", v, j, "d"))
		if v%2 == 0 {
			digest["commands"] = fmt.Sprintf("%016x%016x%016x%016x", hash("commands", v, j, "a"), hash("commands", v, j, "b"), hash("commands", v, j, "c"), hash("commands", v, j, "d"))
		}
		rec["digest"] = digest
		out[j] = rec
	}
	return out
}
