package runner

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sort"
	"strings"

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
// as sha256sum prints the files listed in that order. A run of the whole
// selection records it, and a merge of shards makes it again over the
// merged results (DigestOfResults).
func CorpusDigest(files map[string]string) string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return DigestOfLines(len(paths), func(i int) (string, string) { return files[paths[i]], paths[i] })
}

// DigestOfLines is CorpusDigest of n fixtures given in path order, each
// path once, by line(i): the SHA-256 of the file and its path.
func DigestOfLines(n int, line func(i int) (sum, path string)) string {
	return hashLines(n, func(buf []byte, i int) []byte {
		sum, p := line(i)
		return append(append(append(append(buf, sum...), ' ', ' '), p...), '\n')
	})
}

// hashLines is the SHA-256 (lower-case hex) of the n lines appendLine
// appends to a buffer, hashed a buffer of lines at a time rather than
// a line at a time.
func hashLines(n int, appendLine func(buf []byte, i int) []byte) string {
	h := sha256.New()
	buf := make([]byte, 0, 64<<10)
	for i := range n {
		buf = appendLine(buf, i)
		if len(buf) > cap(buf)-4096 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil))
}

// DigestOfResults is the CorpusDigest of the fixtures a run's results
// cover (model.Run.CorpusDigest of a run that records none, a merge of
// reports written before it): the same whatever the order of the results
// or the shards they were run in. Results in path order, as a run and a
// merge hold them, are hashed as they are.
func DigestOfResults(results []model.Result) string {
	for i := 1; i < len(results); i++ {
		if results[i-1].RelPath >= results[i].RelPath {
			return CorpusDigest(resultFiles(results, 0))
		}
	}
	return DigestOfLines(len(results), func(i int) (string, string) { return results[i].Digest.File, results[i].RelPath })
}

// resultFiles maps the corpus path of every result to its file's sum,
// with room for extra more.
func resultFiles(results []model.Result, extra int) map[string]string {
	files := make(map[string]string, len(results)+extra)
	for i := range results {
		files[results[i].RelPath] = results[i].Digest.File
	}
	return files
}

// ListingDigest is the SHA-256 (lower-case hex) of the list of a
// selection's corpus-relative paths, in the order given (path order), one
// a line ("<path>\n"), as `LC_ALL=C sort | sha256sum` prints it of the
// paths. A path holding a newline or a backslash is written as sha256sum
// writes such a name, a backslash first and those two escaped ("\\n",
// "\\\\"), so that no two lists hash alike. A shard, which reads only its
// own fixtures, records it instead of CorpusDigest: every shard of one
// selection of one corpus has the same, and merge makes it again from the
// paths of the merged results, to tell shards that left a fixture out.
func ListingDigest(paths []string) string {
	return hashLines(len(paths), func(buf []byte, i int) []byte { return appendListed(buf, paths[i]) })
}

// appendListed appends the line of one path to a listing.
func appendListed(buf []byte, p string) []byte {
	if !strings.ContainsAny(p, "\n\\") {
		return append(append(buf, p...), '\n')
	}
	buf = append(buf, '\\')
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\\':
			buf = append(buf, '\\', '\\')
		default:
			buf = append(buf, p[i])
		}
	}
	return append(buf, '\n')
}
