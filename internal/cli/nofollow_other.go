//go:build !unix

package cli

// noFollow is zero where the platform has no O_NOFOLLOW; the Lstat walk in
// writeFile still refuses links.
const noFollow = 0
