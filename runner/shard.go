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
// every fixture belongs to no shard at all (nil).
func InShard(s *model.Shard, relPath string) bool {
	return s == nil || ShardOf(relPath, s.Count) == s.Index
}

// CorpusDigest is the SHA-256 (lower-case hex) of a selection of fixtures,
// given as corpus-relative path to the SHA-256 of the file (empty for a file
// that could not be read): of the lines "<sha256>  <path>\n", sorted
// bytewise, as `sha256sum | LC_ALL=C sort` prints them. Every shard of one
// selection has the same digest, and a merge of shards checks that they do.
func CorpusDigest(files map[string]string) string {
	lines := make([]string, 0, len(files))
	for p, sum := range files {
		lines = append(lines, sum+"  "+p+"\n")
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// DigestOfResults is the CorpusDigest of the fixtures a run's results cover.
func DigestOfResults(results []model.Result) string {
	files := make(map[string]string, len(results))
	for i := range results {
		files[results[i].RelPath] = results[i].Digest.File
	}
	return CorpusDigest(files)
}
