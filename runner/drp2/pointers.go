package drp2

import "strconv"

// itemPointers are the JSON pointers of the items of one list field and of
// their members: prefix, the index, a suffix. Checks name them on every
// command, failing or not, so those of the first items are built once.
type itemPointers struct {
	prefix   string
	suffixes []string
	first    [8][]string // first[i][k]: item i, suffixes[k]
}

func listPointers(prefix string, suffixes ...string) *itemPointers {
	p := &itemPointers{prefix: prefix, suffixes: append([]string{""}, suffixes...)}
	for i := range p.first {
		for _, sfx := range p.suffixes {
			p.first[i] = append(p.first[i], prefix+strconv.Itoa(i)+sfx)
		}
	}
	return p
}

// at is the pointer of member suffix ("" for the item itself) of item i.
func (p *itemPointers) at(i int, suffix string) string {
	if i >= 0 && i < len(p.first) {
		for k, sfx := range p.suffixes {
			if sfx == suffix {
				return p.first[i][k]
			}
		}
	}
	return p.prefix + strconv.Itoa(i) + suffix
}

var (
	entryPointers       = listPointers("/entries/", "/binding", "/binding_type", "/resource_kind", "/resource_id", "/has_dynamic_offset", "/offset", "/size")
	bufferIDPointers    = listPointers("/command_buffer_ids/")
	readbackPointers    = listPointers("/readbacks/", "/buffer_id", "/offset", "/size", "/data")
	attachmentPointers  = listPointers("/color_attachments/", "/texture_id", "/resolve_target_texture_id")
	dynamicOffsetPoints = listPointers("/dynamic_offsets/")
	layoutIDPointers    = listPointers("/bind_group_layout_ids/")
)
