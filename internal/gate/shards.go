package gate

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/drp2/drp2-fixtures/internal/workspace"
	"github.com/drp2/drp2-fixtures/model"
	"github.com/drp2/drp2-fixtures/runner"
)

// shardAuto is the spelling of a shard read from the CI system's
// variables: "auto", or "auto/N" where only the index comes from them.
const shardAuto = "auto"

// parseAutoShard reads "auto" and "auto/N" as a shard whose index (and
// total, for "auto") the CI system gives: Index 0 until resolveShard
// reads them.
func parseAutoShard(s string) (*model.Shard, bool, error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), shardAuto)
	switch {
	case !ok:
		return nil, false, nil
	case rest == "":
		return &model.Shard{}, true, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(rest, "/"))
	if !strings.HasPrefix(rest, "/") || err != nil || n < 1 || n > maxShards {
		return nil, true, fmt.Errorf("%q is not a shard: want auto, or auto/N with N from 1 to %d", s, maxShards)
	}
	return &model.Shard{Count: n}, true, nil
}

// ciShard is one CI system's variables for a job's part of a parallel
// run: the index's and the total's, and whether the index counts from 0.
type ciShard struct {
	system, index, total string
	fromZero             bool
}

// ciShards are looked for in this order: the project's own pair first
// (set from a GitHub matrix, or anywhere), Bazel's before the CI system
// that runs Bazel, Kubernetes' before a total passed on.
var ciShards = []ciShard{
	{"GitHub matrix", "DRP2_SHARD_INDEX", "DRP2_SHARD_TOTAL", false},
	{"Bazel", "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", true},
	{"Kubernetes indexed job", "JOB_COMPLETION_INDEX", "", true},
	{"GitLab", "CI_NODE_INDEX", "CI_NODE_TOTAL", false},
	{"Buildkite", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", true},
}

// shardFromCI reads the shard of "auto" (want.Count 0) or "auto/N" from
// the first CI system whose index variable is set; a total it gives must
// agree with N. Bazel's TEST_SHARD_STATUS_FILE is touched, which tells
// Bazel the test shards.
func shardFromCI(getenv func(string) string, want model.Shard) (*model.Shard, error) {
	for _, ci := range ciShards {
		iv := getenv(ci.index)
		if iv == "" {
			continue
		}
		total, name := want.Count, "auto/N"
		if tv := getenv(ci.total); ci.total != "" && tv != "" {
			t, err := strconv.Atoi(tv)
			if err != nil || t < 1 || t > maxShards {
				return nil, usagef("--shard auto: %s=%q (%s) is not a number of shards from 1 to %d", ci.total, tv, ci.system, maxShards)
			}
			if want.Count != 0 && want.Count != t {
				return nil, usagef("--shard auto/%d: %s says %s=%d shards", want.Count, ci.system, ci.total, t)
			}
			total, name = t, ci.total
		}
		if total == 0 {
			return nil, usagef("--shard auto: %s sets %s but no total: pass it as --shard auto/N%s", ci.system, ci.index, orVariable(ci.total))
		}
		i, err := strconv.Atoi(iv)
		k := i
		if ci.fromZero {
			k = i + 1
		}
		if err != nil || k < 1 || k > total {
			return nil, usagef("--shard auto: %s=%q (%s) is not a shard of %d (%s)", ci.index, iv, ci.system, total, name)
		}
		if ci.system == "Bazel" {
			if err := touch(getenv("TEST_SHARD_STATUS_FILE")); err != nil {
				return nil, usagef("--shard auto: TEST_SHARD_STATUS_FILE: %w", err)
			}
		}
		return &model.Shard{Index: k, Count: total}, nil
	}
	var looked []string
	for _, ci := range ciShards {
		pair := ci.index + "/" + cmp.Or(ci.total, "--shard auto/N")
		looked = append(looked, pair+" ("+ci.system+")")
	}
	return nil, usagef("--shard auto: no CI system says which shard this job runs: looked for %s", strings.Join(looked, ", "))
}

func orVariable(total string) string {
	if total == "" {
		return ""
	}
	return " or set " + total
}

// touch creates the file Bazel asks a sharding test to create, leaving it
// as it is when it exists (a file the CI system hands the job, as Actions
// hands $GITHUB_OUTPUT); none named, nothing to do.
func touch(path string) error {
	if path == "" {
		return nil
	}
	return workspace.Append(path, nil)
}

// resolveShard completes the request's shard: the index of "auto" from
// the CI system, and the placement of shards balanced by an earlier
// report's timings (ShardTimings).
func (r *Resolved) resolveShard() error {
	sh := r.job.Shard
	if sh == nil {
		if r.ShardTimings != "" {
			return usagef("--shard-timings balances the shards of --shard K/N: give --shard too")
		}
		return nil
	}
	if sh.Index == 0 {
		ci, err := shardFromCI(r.env.Getenv, *sh)
		if err != nil {
			return err
		}
		sh = ci
	}
	if r.ShardTimings != "" {
		if err := r.readTimings(sh); err != nil {
			return err
		}
	}
	r.job.Shard, r.Config.Shard = sh, sh
	return nil
}

// readTimings places the fixtures the timings report names
// (runner.PlaceByTimings) and records the report's SHA-256, which each
// shard's report carries and merge holds the shards of a split to.
func (r *Resolved) readTimings(sh *model.Shard) error {
	name := r.display(under(r.WorkDir, r.ShardTimings))
	data, err := r.readInput(r.ShardTimings)
	if err != nil {
		return usagef("shard timings: %w", err)
	}
	run, err := r.env.ReadReport(data)
	if err != nil {
		return usagef("shard timings %s: %w", name, err)
	}
	timings := fixtureTimes(run)
	if len(timings) == 0 {
		return usagef("shard timings %s: no fixture took any time (a report made under SOURCE_DATE_EPOCH, which stops the clock, has no timings): give a report of a run without it", name)
	}
	sum := sha256.Sum256(data)
	sh.Timings = hex.EncodeToString(sum[:])
	sh.Placement = &model.Placement{Parts: runner.PlaceByTimings(timings, sh.Count)}
	return nil
}

// fixtureTimes is what each fixture cost a run: the validator's time and
// every implementation's, summed; none when no fixture took any time.
func fixtureTimes(run *model.Run) map[string]time.Duration {
	out := map[string]time.Duration{}
	var total time.Duration
	add := func(results []model.Result) {
		for i := range results {
			out[results[i].RelPath] += results[i].Duration
			total += results[i].Duration
		}
	}
	add(run.Results)
	for i := range run.Implementations {
		add(run.Implementations[i].Results)
	}
	if total == 0 {
		return nil
	}
	return out
}
