package drp2

import (
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
)

// createBindGroupLayout checks every binding for repeats before any dynamic
// flag, then the id, then the pass scope (a check the upstream runner does
// not make, so it comes last).
func (s *state) createBindGroupLayout() *model.Failure {
	lay := &layoutInfo{byBinding: make(map[ID]int, len(s.w.Entries))}
	for i, e := range s.w.Entries {
		b, f := s.num(e.Binding, entryPointers.at(i, "/binding"))
		if f != nil {
			return f
		}
		j, dup := lay.byBinding[b.id]
		if s.broken(ruleLayoutDuplicate, dup) {
			return s.fail(ruleLayoutDuplicate, entryPointers.at(i, "/binding"), "binding %s is declared twice (entries %d and %d)", b.id, j, i)
		}
		lay.byBinding[b.id] = i
		lay.entries = append(lay.entries, layoutEntry{binding: b.id, bindingType: e.BindingType, dynamic: e.HasDynamicOffset})
	}
	for i, e := range lay.entries {
		if !e.dynamic {
			continue
		}
		if s.broken(ruleLayoutDynamic, e.bindingType != "uniform_buffer" && e.bindingType != "storage_buffer") {
			return s.fail(ruleLayoutDynamic, entryPointers.at(i, "/has_dynamic_offset"), "binding %s of type %q cannot have a dynamic offset", e.binding, e.bindingType)
		}
		lay.dynamic++
	}
	o, f := s.create(kindBindGroupLayout)
	if f != nil {
		return f
	}
	o.info = lay
	return nil
}

// resourceKinds maps a bind-group entry's resource_kind to object kinds.
var resourceKinds = map[string]kind{
	"buffer": kindBuffer, "texture": kindTexture, "texture_view": kindTextureView, "sampler": kindSampler,
}

// bindingUsage is the usage bit a binding type demands of its resource
// (COMMANDS.md, CreateBindGroup rule 4); a texture view is judged by its
// parent texture (CreateTextureView rule 6).
var bindingUsage = map[string]uint16{
	"uniform_buffer": useUniform, "storage_buffer": useStorage,
	"sampled_texture": useTextureBinding, "storage_texture": useStorageBinding,
}

// bindingKinds lists the resource kinds each binding type accepts. The
// schema enforces it; it is kept so that an equivalent schema that does not
// still gets a clear answer (ERRORS.md, Identity And Type rule 5).
var bindingKinds = map[string][]string{
	"uniform_buffer": {"buffer"}, "storage_buffer": {"buffer"},
	"sampled_texture": {"texture", "texture_view"}, "storage_texture": {"texture", "texture_view"},
	"sampler": {"sampler"},
}

// createBindGroup checks, in order: the layout; the entries against the
// layout's bindings and types; then entry by entry the dynamic offset and
// size, the resource kind, the resource, its usage and its range; then the
// id; then, checks the upstream runner does not make, repeated bindings and
// the pass scope.
func (s *state) createBindGroup() *model.Failure {
	layout, f := s.resolve(s.w.BindGroupLayoutID, "/bind_group_layout_id", kindBindGroupLayout)
	if f != nil {
		return f
	}
	lay := layout.lay()
	entries := make([]groupEntry, len(s.w.Entries))
	// The entries against the layout: exactly the declared binding set
	// with the declared types (COMMANDS.md, CreateBindGroup rule 3,
	// CreateBindGroupLayout rule 6; ERRORS.md, State Versus Usage rule 6).
	seen := make(map[ID]int, len(s.w.Entries))
	for i := range s.w.Entries {
		e := &s.w.Entries[i]
		b, f := s.num(e.Binding, entryPointers.at(i, "/binding"))
		if f != nil {
			return f
		}
		entries[i].binding = b.id
		entries[i].bindingType = e.BindingType
		if _, dup := seen[b.id]; !dup {
			seen[b.id] = i
		}
		li, ok := lay.byBinding[b.id]
		if s.broken(ruleGroupEntries, !ok) {
			return s.fail(ruleGroupEntries, entryPointers.at(i, "/binding"), "binding %s is not declared by %s", b.id, layout)
		}
		if want := lay.entries[li].bindingType; s.broken(ruleGroupEntries, want != e.BindingType) {
			return s.fail(ruleGroupEntries, entryPointers.at(i, "/binding_type"), "binding %s has binding_type %q but %s declares %q", b.id, e.BindingType, layout, want)
		}
	}
	for _, le := range lay.entries {
		if _, ok := seen[le.binding]; s.broken(ruleGroupEntries, !ok) {
			return s.fail(ruleGroupEntries, "/entries", "binding %s declared by %s has no entry", le.binding, layout)
		}
	}
	for i := range s.w.Entries {
		if f := s.groupEntry(&s.w.Entries[i], &entries[i], lay, i); f != nil {
			return f
		}
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	for i := range entries {
		j := seen[entries[i].binding]
		if s.broken(ruleGroupDuplicate, j != i) {
			return s.fail(ruleGroupDuplicate, "/entries/"+strconv.Itoa(i)+"/binding", "binding %s appears twice (entries %d and %d)", entries[i].binding, j, i)
		}
	}
	if f := s.outsidePass(); f != nil {
		return f
	}
	g := &groupInfo{layout: layout, entries: entries}
	for _, le := range lay.entries {
		if le.dynamic {
			g.dynamic = append(g.dynamic, seen[le.binding])
		}
	}
	o := s.add(id, kindBindGroup)
	o.info = g
	layout.liveRefs++
	for i := range entries {
		r := entries[i].resource
		r.liveRefs++
		if r.buf() != nil {
			r.groups = append(r.groups, o)
		}
		if t := entries[i].texture; t != nil {
			t.groups = append(t.groups, o)
		}
	}
	return nil
}

// groupEntry checks one bind-group entry whose binding the layout declares:
// the dynamic offset and size, the resource kind, the resource (a view and
// then its texture), the usage and the range.
func (s *state) groupEntry(e *entryWire, ge *groupEntry, lay *layoutInfo, i int) *model.Failure {
	ptr := entryPointers.at(i, "")
	dynamic := lay.entries[lay.byBinding[ge.binding]].dynamic
	if s.broken(ruleGroupDynamic, dynamic && (e.Offset == "" || e.Size == "")) {
		// LIFETIMES.md, Bind-Group Lifetime, consequence 4.
		return s.fail(ruleGroupDynamic, ptr, "binding %s is dynamic and needs an explicit offset and size", ge.binding)
	}
	k, known := resourceKinds[e.ResourceKind]
	if s.broken(ruleBindingKind, !known || !contains(bindingKinds[e.BindingType], e.ResourceKind)) {
		return s.fail(ruleBindingKind, entryPointers.at(i, "/resource_kind"), "binding %s of type %q cannot take a %q resource", ge.binding, e.BindingType, e.ResourceKind)
	}
	res, f := s.resolve(e.ResourceID, entryPointers.at(i, "/resource_id"), k)
	if f != nil {
		return f
	}
	ge.resource = res
	switch k {
	case kindTexture:
		ge.texture = res
	case kindTextureView:
		ge.texture = res.view().texture
		if s.broken(ruleDestroyedID, ge.texture.destroyed) {
			return s.fail(ruleDestroyedID, entryPointers.at(i, "/resource_id"), "%s views %s, which was destroyed", res, ge.texture)
		}
	}
	if want, ok := bindingUsage[e.BindingType]; ok {
		holder, have := ge.resource, uint16(0)
		switch {
		case holder.buf() != nil:
			have = holder.buf().usage
		case ge.texture != nil:
			holder = ge.texture
			have = holder.tex().usage
		}
		if s.broken(ruleGroupUsage, have&want == 0) {
			return s.fail(ruleGroupUsage, entryPointers.at(i, "/resource_id"), "%s lacks %s usage required by binding %s of type %q",
				holder, usageNames[want], ge.binding, e.BindingType)
		}
	}
	if res.buf() == nil {
		return nil
	}
	off, hasOff, f := s.optNum(e.Offset, entryPointers.at(i, "/offset"))
	if f != nil {
		return f
	}
	size, hasSize, f := s.optNum(e.Size, entryPointers.at(i, "/size"))
	if f != nil {
		return f
	}
	ge.offset, ge.hasOffset, ge.size, ge.hasSize = off.val, hasOff, size.val, hasSize
	// COMMANDS.md, CreateBindGroup rule 7 bounds an entry's range only when
	// it gives both offset and size; a lone offset or size states no range
	// to judge.
	if hasOff && hasSize {
		return s.checkRange(ruleGroupRange, res, off.val, size.val, ptr)
	}
	return nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
