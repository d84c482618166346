package drp2

import (
	"strconv"

	"github.com/drp2/drp2-fixtures/model"
)

func (s *state) createBindGroupLayout() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	lay := &layoutInfo{byBinding: make(map[ID]int, len(s.w.Entries))}
	for i, e := range s.w.Entries {
		ptr := "/entries/" + strconv.Itoa(i)
		b, f := s.num(e.Binding, ptr+"/binding")
		if f != nil {
			return f
		}
		if j, dup := lay.byBinding[b.id]; dup {
			// COMMANDS.md, CreateBindGroupLayout rule 2.
			return s.fail(codeInvalidArgument, ptr+"/binding", "binding %s is declared twice (entries %d and %d)", b.id, j, i)
		}
		lay.byBinding[b.id] = i
		lay.entries = append(lay.entries, layoutEntry{binding: b.id, bindingType: e.BindingType, dynamic: e.HasDynamicOffset})
		if e.HasDynamicOffset {
			if e.BindingType != "uniform_buffer" && e.BindingType != "storage_buffer" {
				// COMMANDS.md, CreateBindGroupLayout rule 3 (the schema
				// says so too; kept for schemas that do not).
				return s.fail(codeInvalidArgument, ptr+"/has_dynamic_offset", "binding %s of type %q cannot have a dynamic offset", b.id, e.BindingType)
			}
			lay.dynamic++
		}
	}
	o := s.add(id, kindBindGroupLayout)
	o.lay = lay
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

func (s *state) createBindGroup() *model.Failure {
	if f := s.outsidePass(); f != nil {
		return f
	}
	id, f := s.newID(s.w.ID, "/id")
	if f != nil {
		return f
	}
	layout, f := s.resolve(s.w.BindGroupLayoutID, "/bind_group_layout_id", kindBindGroupLayout)
	if f != nil {
		return f
	}
	lay := layout.lay
	entries := make([]groupEntry, len(s.w.Entries))
	// Identity of every referenced resource first.
	for i := range s.w.Entries {
		e := &s.w.Entries[i]
		ptr := "/entries/" + strconv.Itoa(i)
		k, ok := resourceKinds[e.ResourceKind]
		if !ok {
			return s.fail(codeInvalidArgument, ptr+"/resource_kind", "resource_kind %q is not a bindable kind", e.ResourceKind)
		}
		res, f := s.resolve(e.ResourceID, ptr+"/resource_id", k)
		if f != nil {
			return f
		}
		entries[i].resource = res
		switch k {
		case kindTexture:
			entries[i].texture = res
		case kindTextureView:
			entries[i].texture = res.view.texture
			if res.view.texture.destroyed {
				return s.fail(codeDestroyedObject, ptr+"/resource_id", "%s views %s, which was destroyed", res, res.view.texture)
			}
		}
	}
	// Then the entries against the layout: exactly the declared binding set
	// with the declared types (COMMANDS.md, CreateBindGroup rule 3,
	// CreateBindGroupLayout rule 6; ERRORS.md, State Versus Usage rule 6).
	seen := make(map[ID]int, len(s.w.Entries))
	for i := range s.w.Entries {
		e := &s.w.Entries[i]
		ptr := "/entries/" + strconv.Itoa(i)
		b, f := s.num(e.Binding, ptr+"/binding")
		if f != nil {
			return f
		}
		entries[i].binding = b.id
		entries[i].bindingType = e.BindingType
		if j, dup := seen[b.id]; dup {
			return s.fail(codeInvalidArgument, ptr+"/binding", "binding %s appears twice (entries %d and %d)", b.id, j, i)
		}
		seen[b.id] = i
		li, ok := lay.byBinding[b.id]
		if !ok {
			return s.fail(codeInvalidArgument, ptr+"/binding", "binding %s is not declared by %s", b.id, layout)
		}
		if want := lay.entries[li].bindingType; want != e.BindingType {
			return s.fail(codeInvalidArgument, ptr+"/binding_type", "binding %s has binding_type %q but %s declares %q", b.id, e.BindingType, layout, want)
		}
		if !contains(bindingKinds[e.BindingType], e.ResourceKind) {
			return s.fail(codeInvalidArgument, ptr+"/resource_kind", "binding %s of type %q cannot take a %q resource", b.id, e.BindingType, e.ResourceKind)
		}
		if lay.entries[li].dynamic && (e.Offset == "" || e.Size == "") {
			// LIFETIMES.md, Bind-Group Lifetime, consequence 4.
			return s.fail(codeInvalidArgument, ptr, "binding %s is dynamic in %s and needs an explicit offset and size", b.id, layout)
		}
	}
	if len(seen) != len(lay.entries) {
		for _, le := range lay.entries {
			if _, ok := seen[le.binding]; !ok {
				return s.fail(codeInvalidArgument, "/entries", "binding %s declared by %s has no entry", le.binding, layout)
			}
		}
	}
	// Then usage and ranges of each resource.
	for i := range s.w.Entries {
		e := &s.w.Entries[i]
		ge := &entries[i]
		ptr := "/entries/" + strconv.Itoa(i)
		if want, ok := bindingUsage[e.BindingType]; ok {
			holder := ge.resource
			var have uint16
			switch {
			case holder.buf != nil:
				have = holder.buf.usage
			case ge.texture != nil:
				holder = ge.texture
				have = holder.tex.usage
			}
			if have&want == 0 {
				return s.fail(codeUsage, ptr+"/resource_id", "%s lacks %s usage required by binding %s of type %q",
					holder, usageNames[want], ge.binding, e.BindingType)
			}
		}
		if ge.resource.buf == nil {
			continue
		}
		off, hasOff, f := s.optNum(e.Offset, ptr+"/offset")
		if f != nil {
			return f
		}
		size, hasSize, f := s.optNum(e.Size, ptr+"/size")
		if f != nil {
			return f
		}
		ge.offset, ge.hasOffset, ge.size, ge.hasSize = off.val, hasOff, size.val, hasSize
		// COMMANDS.md, CreateBindGroup rule 7 bounds an entry's range only
		// when it gives both offset and size; a lone offset or size states no
		// range to judge.
		if hasOff && hasSize {
			if f := s.checkRange(ge.resource, off.val, size.val, ptr); f != nil {
				return f
			}
		}
	}
	g := &groupInfo{layout: layout, entries: entries}
	for _, le := range lay.entries {
		if le.dynamic {
			g.dynamic = append(g.dynamic, seen[le.binding])
		}
	}
	o := s.add(id, kindBindGroup)
	o.group = g
	layout.liveRefs++
	for i := range entries {
		r := entries[i].resource
		r.liveRefs++
		if r.buf != nil {
			r.groups = append(r.groups, o)
		}
		if t := entries[i].texture; t != nil {
			t.groups = append(t.groups, o)
		}
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
