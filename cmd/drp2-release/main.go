// Command drp2-release prepares the release commit of the action: it pins
// action.yml's image to the image the release workflow just pushed.
//
//	drp2-release pin-image -image docker://ghcr.io/OWNER/drp2-fixtures@sha256:DIGEST [-file action.yml]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/drp2/drp2-fixtures/internal/release"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "pin-image" {
		fmt.Fprintln(os.Stderr, "usage: drp2-release pin-image -image docker://REGISTRY/PATH@sha256:DIGEST [-file action.yml]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("pin-image", flag.ExitOnError)
	image := fs.String("image", "", "the pushed image, pinned by digest")
	file := fs.String("file", "action.yml", "the action metadata file to rewrite in place")
	fs.Parse(os.Args[2:])
	src, err := os.ReadFile(*file)
	if err == nil {
		var out []byte
		if out, err = release.PinImage(src, *image); err == nil {
			err = os.WriteFile(*file, out, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "drp2-release:", err)
		os.Exit(1)
	}
}
