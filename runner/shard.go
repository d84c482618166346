package runner

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sort"

	"github.com/drp2/drp2-fixtures/model"
)

// ShardOf is the part (1 to count) a fixture belongs to: the first eight
// bytes of the SHA-256 of its corpus-relative slash path, big-endian, modulo
// count, plus one. A hash, not a position: the fixtures of a part stay in it
// whatever else the corpus gains or loses.
func ShardOf(relPath string, count int) int {
	if count <= 1 {
		return 1
	}
	sum := sha256.Sum256([]byte(relPath))
	return int(binary.BigEndian.Uint64(sum[:8])%uint64(count)) + 1
}

// InShard reports whether the fixture at relPath belongs to the shard;
// every fixture belongs to no shard at all (nil). A shard balanced by
// timings places the fixtures they name (PlaceByTimings), and the others
// by the hash of their path.
func InShard(s *model.Shard, relPath string) bool {
	if s == nil {
		return true
	}
	if s.Placement != nil {
		if k, ok := s.Placement.Parts[relPath]; ok {
			return k == s.Index
		}
	}
	return ShardOf(relPath, s.Count) == s.Index
}

// CorpusDigest is the SHA-256 (lower-case hex) of a selection of fixtures,
// given as corpus-relative path to the SHA-256 of the file (empty for a file
// that could not be read): of the lines "<sha256>  <path>\n" in path order,
// as sha256sum prints the files listed in that order. Every shard of one
// selection has the same digest, and a merge of shards checks that they do.
func CorpusDigest(files map[string]string) string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		h.Write([]byte(files[p] + "  " + p + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// DigestOfResults is the CorpusDigest of the fixtures a run's results
// cover (model.Run.CorpusDigest of a run that records none, a merge of
// reports written before it): the same whatever the order of the results
// or the shards they were run in.
func DigestOfResults(results []model.Result) string { return CorpusDigest(resultFiles(results, 0)) }

// resultFiles maps the corpus path of every result to its file's sum,
// with room for extra more.
func resultFiles(results []model.Result, extra int) map[string]string {
	files := make(map[string]string, len(results)+extra)
	for i := range results {
		files[results[i].RelPath] = results[i].Digest.File
	}
	return files
}
