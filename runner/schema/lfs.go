package schema

import "bytes"

// lfsPointerStart is how a Git LFS pointer file begins: a repository that
// keeps its corpus in LFS, checked out without its LFS objects, holds
// these few lines in place of each file's content.
const lfsPointerStart = "version https://git-lfs.github.com/spec/v1"

// LFSFetch says how to have the files an LFS pointer stands for.
const LFSFetch = "check the corpus out with its LFS objects (actions/checkout with `lfs: true`, or `git lfs pull`)"

// IsLFSPointer reports whether data is a Git LFS pointer rather than the
// file it stands for: refused by name, not as the JSON error it would
// otherwise make.
func IsLFSPointer(data []byte) bool { return bytes.HasPrefix(data, []byte(lfsPointerStart)) }
