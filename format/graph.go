package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/aliasplan/aliasplan/internal/suggest"
	"github.com/aliasplan/aliasplan/planner"
)

// The graph file (SPEC §5), version 1. The JSON shapes below are the file
// format; pointers tell an absent field from a zero one.

// GraphFileVersion is the graph file version ReadGraph reads and WriteGraph
// writes.
const GraphFileVersion = 1

type fileGraph struct {
	Version   int            `json:"version"`
	Resources []fileResource `json:"resources"`
	Commands  []fileCommand  `json:"commands"`
}

type fileResource struct {
	Name         *string           `json:"name"`
	Type         *string           `json:"type"`
	Imported     bool              `json:"imported,omitempty"`
	Memory       *string           `json:"memory,omitempty"`
	Dedicated    bool              `json:"dedicated,omitempty"`
	Buffer       *fileBuffer       `json:"buffer,omitempty"`
	Image        *fileImage        `json:"image,omitempty"`
	Requirements *fileRequirements `json:"requirements,omitempty"`
}

type fileBuffer struct {
	Size  *uint64  `json:"size"`
	Usage []string `json:"usage"`
}

type fileImage struct {
	Format        *string  `json:"format"`
	Width         *uint32  `json:"width"`
	Height        *uint32  `json:"height"`
	Depth         *uint32  `json:"depth"`
	MipLevels     *uint32  `json:"mipLevels"`
	ArrayLayers   *uint32  `json:"arrayLayers"`
	Samples       *uint32  `json:"samples"`
	Tiling        *string  `json:"tiling"`
	Usage         []string `json:"usage"`
	InitialLayout *string  `json:"initialLayout"`
	FinalLayout   *string  `json:"finalLayout,omitempty"`
}

type fileRequirements struct {
	Size              *uint64 `json:"size"`
	Alignment         *uint64 `json:"alignment"`
	MemoryTypeBits    *uint32 `json:"memoryTypeBits"`
	PrefersDedicated  bool    `json:"prefersDedicated,omitempty"`
	RequiresDedicated bool    `json:"requiresDedicated,omitempty"`
}

type fileCommand struct {
	Name     *string      `json:"name"`
	Queue    *string      `json:"queue,omitempty"` // graphics (left out), compute or transfer
	Accesses []fileAccess `json:"accesses"`
}

// fileCommandHead is a command with its accesses left undecoded, so that
// an error inside one access can name its index.
type fileCommandHead struct {
	Name     *string           `json:"name"`
	Queue    *string           `json:"queue"`
	Accesses []json.RawMessage `json:"accesses"`
}

type fileAccess struct {
	Resource *string  `json:"resource"`
	Stages   []string `json:"stages"`
	Access   []string `json:"access"`
	Layout   *string  `json:"layout,omitempty"`
	// A subresource range (images): [base, count] each, count >= 1.
	Mips    []uint32 `json:"mips,omitempty"`
	Layers  []uint32 `json:"layers,omitempty"`
	Aspects []string `json:"aspects,omitempty"`
}

// ReadGraph reads a graph file (JSON, version 1) and validates the graph.
// file names the input in errors; it may be empty.
//
// Fields a resource may leave out: imported and dedicated (false), memory
// (gpu_only), requirements (none: asked of a RequirementsSource), the
// image's depth, mipLevels, arrayLayers and samples (1), tiling (OPTIMAL),
// usage (none), initialLayout (UNDEFINED) and finalLayout (none; imported
// images only). An access may leave out
// access (none) and, for a buffer, must leave out layout; an image access
// may name a subresource range (mips and layers as [base, count], aspects;
// each left out: the whole image). Field names match
// as encoding/json matches them (case-insensitively below the top level).
//
// Every error about the content is a *GraphError with File set, naming the
// resource, the command and access index, or a JSON path (resources[3])
// when the item has no name, and the rule: RuleSyntax (with line and
// column), RuleVersion, RuleUnknownField, RuleMissingField, RuleField (a
// value of the wrong JSON type or outside its domain), RuleUnknownName,
// RuleUnknownResource, and every rule of Validate. Reading stops at the
// first problem; Validate's rules come all at once (up to
// planner.MaxValidateErrors), joined, each with File set:
// planner.GraphErrors lists them. An error reading r is returned wrapped,
// as is.
//
// The graph's slices are nil when empty, so that a graph read back from
// WriteGraph's output is deeply equal to the one written.
func ReadGraph(r io.Reader, file string) (*planner.Graph, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("planner: reading %s: %w", file, err)
	}
	rd := &fileReader{file: file, data: data}
	g, gerr := rd.read()
	if gerr != nil {
		return nil, gerr
	}
	if err := planner.Validate(g); err != nil {
		for _, ge := range planner.GraphErrors(err) {
			ge.File = file
		}
		return nil, err
	}
	return g, nil
}

// fileReader holds the input, so that errors can give line and column.
type fileReader struct {
	file string
	data []byte
}

// element is one element of the resources or commands array, with the
// byte offset at which it starts in the file.
type element struct {
	raw   json.RawMessage
	start int64
}

// where locates an error: the names known so far, and the JSON path of the
// item, used when it has no name.
type where struct {
	resource, command string
	access            int // -1 when not about one access
	path              string
}

// fail builds an error at w about field (a path relative to the item, or
// ""). The item is named by its names when known, else by its JSON path.
func (rd *fileReader) fail(w where, field string, rule planner.Rule, format string, args ...any) *planner.GraphError {
	item := field
	if w.resource == "" && w.command == "" {
		item = w.path
		if field != "" {
			item += "." + field
		}
	}
	return &planner.GraphError{File: rd.file, Resource: w.resource, Command: w.command, Access: w.access,
		Item: item, Rule: rule, Detail: fmt.Sprintf(format, args...)}
}

// position returns "line L column C" for the byte at offset off.
func (rd *fileReader) position(off int64) string {
	off = max(0, min(off, int64(len(rd.data))))
	before := rd.data[:off]
	line := 1 + bytes.Count(before, []byte{'\n'})
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d column %d", line, col)
}

func (rd *fileReader) read() (*planner.Graph, *planner.GraphError) {
	top := where{access: -1}
	if !json.Valid(rd.data) {
		var raw json.RawMessage
		err := json.Unmarshal(rd.data, &raw)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// se.Offset counts the bytes read, the last one the culprit.
			return nil, &planner.GraphError{File: rd.file, Access: -1, Item: rd.position(se.Offset - 1), Rule: planner.RuleSyntax, Detail: se.Error()}
		}
		return nil, rd.fail(top, "", planner.RuleSyntax, "not valid JSON")
	}
	version, unknown, resources, commands, gerr := rd.split()
	if gerr != nil {
		return nil, gerr
	}
	if version == nil {
		return nil, rd.fail(top, "", planner.RuleVersion, "missing version (want %d)", GraphFileVersion)
	}
	var v int
	if err := json.Unmarshal(version, &v); err != nil || v != GraphFileVersion {
		return nil, rd.fail(top, "", planner.RuleVersion, "version %s is not supported (want %d)", version, GraphFileVersion)
	}
	if unknown.name != "" {
		return nil, &planner.GraphError{File: rd.file, Access: -1, Item: unknown.name, Rule: planner.RuleUnknownField,
			Detail: fmt.Sprintf("unknown field at %s (a graph file has version, resources and commands)", rd.position(unknown.at))}
	}

	g := &planner.Graph{}
	if len(resources) > 0 {
		g.Resources = make([]planner.Resource, len(resources))
	}
	byName := make(map[string]planner.ResourceID, len(resources)) // lookups only
	for i, el := range resources {
		if err := rd.resource(&g.Resources[i], i, el); err != nil {
			return nil, err
		}
		if _, dup := byName[g.Resources[i].Name]; !dup {
			byName[g.Resources[i].Name] = planner.ResourceID(i)
		}
	}
	if len(commands) > 0 {
		g.Commands = make([]planner.Command, len(commands))
	}
	for i, el := range commands {
		if err := rd.command(g, &g.Commands[i], i, el, byName); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// split walks the top-level object of a syntactically valid document and
// returns the raw version, the first unknown top-level field, and the elements of the resources and commands arrays.
func (rd *fileReader) split() (version json.RawMessage, unknown field, resources, commands []element, gerr *planner.GraphError) {
	top := where{access: -1}
	dec := json.NewDecoder(bytes.NewReader(rd.data))
	// The input is valid JSON, so the decoder fails only on a shape error.
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		return nil, field{}, nil, nil, rd.fail(top, "", planner.RuleSyntax, "a graph file is a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return nil, field{}, nil, nil, rd.fail(top, "", planner.RuleSyntax, "malformed object")
		}
		keyEnd := dec.InputOffset()
		if seen[key] {
			return nil, field{}, nil, nil, &planner.GraphError{File: rd.file, Access: -1, Item: rd.position(keyEnd - 1), Rule: planner.RuleSyntax,
				Detail: fmt.Sprintf("field %q appears twice", key)}
		}
		seen[key] = true
		switch key {
		case "version":
			if err := dec.Decode(&version); err != nil {
				return nil, field{}, nil, nil, rd.fail(top, "version", planner.RuleSyntax, "%v", err)
			}
		case "resources", "commands":
			els, gerr := rd.array(dec, key)
			if gerr != nil {
				return nil, field{}, nil, nil, gerr
			}
			if key == "resources" {
				resources = els
			} else {
				commands = els
			}
		default:
			if unknown.name == "" {
				unknown = field{key, keyEnd - 1}
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, field{}, nil, nil, rd.fail(top, key, planner.RuleSyntax, "%v", err)
			}
		}
	}
	return version, unknown, resources, commands, nil
}

// field is a field's name and the offset of its key's last byte.
type field struct {
	name string
	at   int64
}

// array reads the array value of field key element by element, recording
// where each element starts. null is an empty array.
func (rd *fileReader) array(dec *json.Decoder, key string) ([]element, *planner.GraphError) {
	at := dec.InputOffset()
	tok, err := dec.Token()
	if err == nil && tok == nil {
		return nil, nil
	}
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '[' {
		return nil, rd.fail(where{access: -1, path: key}, "", planner.RuleField, "%s: want an array", rd.position(rd.skipSpace(at)))
	}
	var els []element
	for dec.More() {
		at := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, rd.fail(where{access: -1, path: fmt.Sprintf("%s[%d]", key, len(els))}, "", planner.RuleSyntax, "%v", err)
		}
		els = append(els, element{raw: raw, start: rd.skipSpace(at)})
	}
	if _, err := dec.Token(); err != nil { // the closing ]
		return nil, rd.fail(where{access: -1, path: key}, "", planner.RuleSyntax, "%v", err)
	}
	return els, nil
}

// skipSpace returns the offset of the first byte at or after off that is
// neither white space nor a comma or colon: the start of the next value.
func (rd *fileReader) skipSpace(off int64) int64 {
	for off < int64(len(rd.data)) {
		switch rd.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// decodeStrict decodes raw into v, rejecting unknown fields.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// decodeError turns a decoding error of the element at start into a
// *GraphError at w. kind ("resource", "command", "access") words it.
func (rd *fileReader) decodeError(err error, w where, start int64, kind string) *planner.GraphError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := "a " + te.Type.String()
		switch te.Type.Kind() {
		case reflect.Struct, reflect.Pointer:
			want = "an object"
		case reflect.Slice:
			want = "an array"
		}
		// te.Offset counts the bytes read when the bad value ended.
		return rd.fail(w, te.Field, planner.RuleField, "%s: want %s, got JSON %s", rd.position(start+te.Offset-1), want, te.Value)
	}
	if msg, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return rd.fail(w, "", planner.RuleUnknownField, "unknown field %s in the %s at %s", msg, kind, rd.position(start))
	}
	return rd.fail(w, "", planner.RuleField, "%s at %s: %v", kind, rd.position(start), err)
}

// resource decodes and converts resources[i].
func (rd *fileReader) resource(r *planner.Resource, i int, el element) *planner.GraphError {
	w := where{access: -1, path: fmt.Sprintf("resources[%d]", i)}
	var fr fileResource
	if err := decodeStrict(el.raw, &fr); err != nil {
		if fr.Name != nil {
			w.resource = *fr.Name
		}
		return rd.decodeError(err, w, el.start, "resource")
	}
	if fr.Name == nil {
		return rd.fail(w, "name", planner.RuleMissingField, "a resource needs a name")
	}
	r.Name = *fr.Name
	w.resource = r.Name
	if fr.Type == nil {
		return rd.fail(w, "type", planner.RuleMissingField, "a resource needs a type (buffer or image)")
	}
	unknownName := func(field, kind, name string, suggest func(string) (string, bool)) *planner.GraphError {
		return rd.fail(w, field, planner.RuleUnknownName, "unknown %s name %q%s", kind, name, didYouMean(name, suggest))
	}
	switch *fr.Type {
	case "buffer":
		r.Kind = planner.KindBuffer
		if fr.Image != nil {
			return rd.fail(w, "image", planner.RuleField, "a buffer has no image description")
		}
		b := fr.Buffer
		if b == nil {
			return rd.fail(w, "buffer", planner.RuleMissingField, "a buffer needs a buffer description")
		}
		if b.Size == nil {
			return rd.fail(w, "buffer.size", planner.RuleMissingField, "a buffer needs a size")
		}
		r.Buffer.Size = *b.Size
		for _, n := range b.Usage {
			u, ok := vk.ParseBufferUsage(n)
			if !ok {
				return unknownName("buffer.usage", "buffer usage", n, vk.SuggestBufferUsage)
			}
			r.Buffer.Usage |= u
		}
	case "image":
		r.Kind = planner.KindImage
		if fr.Buffer != nil {
			return rd.fail(w, "buffer", planner.RuleField, "an image has no buffer description")
		}
		im := fr.Image
		if im == nil {
			return rd.fail(w, "image", planner.RuleMissingField, "an image needs an image description")
		}
		d := &r.Image
		if im.Format == nil {
			return rd.fail(w, "image.format", planner.RuleMissingField, "an image needs a format")
		}
		f, ok := vk.ParseFormat(*im.Format)
		if !ok {
			return unknownName("image.format", "format", *im.Format, vk.SuggestFormat)
		}
		d.Format = f
		if im.Width == nil {
			return rd.fail(w, "image.width", planner.RuleMissingField, "an image needs a width")
		}
		if im.Height == nil {
			return rd.fail(w, "image.height", planner.RuleMissingField, "an image needs a height")
		}
		d.Width, d.Height = *im.Width, *im.Height
		one := func(v *uint32) uint32 {
			if v == nil {
				return 1
			}
			return *v
		}
		d.Depth, d.MipLevels, d.ArrayLayers, d.Samples = one(im.Depth), one(im.MipLevels), one(im.ArrayLayers), one(im.Samples)
		d.Tiling = vk.TilingOptimal
		if im.Tiling != nil {
			t, ok := vk.ParseTiling(*im.Tiling)
			if !ok {
				return unknownName("image.tiling", "tiling", *im.Tiling, vk.SuggestTiling)
			}
			d.Tiling = t
		}
		for _, n := range im.Usage {
			u, ok := vk.ParseImageUsage(n)
			if !ok {
				return unknownName("image.usage", "image usage", n, vk.SuggestImageUsage)
			}
			d.Usage |= u
		}
		d.InitialLayout = vk.LayoutUndefined
		if im.InitialLayout != nil {
			l, ok := vk.ParseLayout(*im.InitialLayout)
			if !ok {
				return unknownName("image.initialLayout", "layout", *im.InitialLayout, vk.SuggestLayout)
			}
			d.InitialLayout = l
		}
		if im.FinalLayout != nil {
			l, ok := vk.ParseLayout(*im.FinalLayout)
			if !ok {
				return unknownName("image.finalLayout", "layout", *im.FinalLayout, vk.SuggestLayout)
			}
			if l == vk.LayoutUndefined {
				return rd.fail(w, "image.finalLayout", planner.RuleFinalLayout, "no barrier can transition an image into UNDEFINED (leave finalLayout out for none)")
			}
			d.FinalLayout = l
		}
	default:
		return rd.fail(w, "type", planner.RuleField, "unknown resource type %q (want buffer or image)", *fr.Type)
	}
	r.Imported = fr.Imported
	r.Dedicated = fr.Dedicated
	r.Memory = planner.GPUOnly
	if fr.Memory != nil {
		m, ok := planner.ParseMemory(*fr.Memory)
		if !ok {
			return unknownName("memory", "memory", *fr.Memory, suggestMemory)
		}
		r.Memory = m
	}
	if q := fr.Requirements; q != nil {
		switch {
		case q.Size == nil:
			return rd.fail(w, "requirements.size", planner.RuleMissingField, "requirements need a size")
		case q.Alignment == nil:
			return rd.fail(w, "requirements.alignment", planner.RuleMissingField, "requirements need an alignment")
		case q.MemoryTypeBits == nil:
			return rd.fail(w, "requirements.memoryTypeBits", planner.RuleMissingField, "requirements need memoryTypeBits")
		}
		r.Requirements = &planner.Requirements{Size: *q.Size, Alignment: *q.Alignment, MemoryTypeBits: *q.MemoryTypeBits,
			PrefersDedicated: q.PrefersDedicated, RequiresDedicated: q.RequiresDedicated}
	}
	return nil
}

// command decodes and converts commands[i], resolving resource names.
func (rd *fileReader) command(g *planner.Graph, c *planner.Command, i int, el element, byName map[string]planner.ResourceID) *planner.GraphError {
	w := where{access: -1, path: fmt.Sprintf("commands[%d]", i)}
	var head fileCommandHead
	if err := decodeStrict(el.raw, &head); err != nil {
		if head.Name != nil {
			w.command = *head.Name
		}
		return rd.decodeError(err, w, el.start, "command")
	}
	if head.Name == nil {
		return rd.fail(w, "name", planner.RuleMissingField, "a command needs a name")
	}
	c.Name = *head.Name
	w.command = c.Name
	if head.Queue != nil {
		q, ok := planner.ParseQueue(*head.Queue)
		if !ok {
			return rd.fail(w, "queue", planner.RuleQueue, "unknown queue %q (want graphics, compute or transfer)", *head.Queue)
		}
		c.Queue = q
	}
	if len(head.Accesses) > 0 {
		c.Accesses = make([]planner.Access, len(head.Accesses))
	}
	for ai, raw := range head.Accesses {
		aw := w
		aw.access = ai
		aw.path = fmt.Sprintf("%s.accesses[%d]", w.path, ai)
		var fa fileAccess
		if err := decodeStrict(raw, &fa); err != nil {
			// Offsets inside raw are relative to the access, whose place in
			// the file is not kept. The head decoded, so the first error of
			// the whole command is this one: decode it again for an offset
			// in the file.
			var te *json.UnmarshalTypeError
			if werr := decodeStrict(el.raw, new(fileCommand)); errors.As(werr, &te) {
				te.Field = strings.TrimPrefix(strings.TrimPrefix(te.Field, "accesses"), ".")
				return rd.decodeError(te, aw, el.start, "command")
			}
			return rd.decodeError(err, aw, el.start, "command")
		}
		if fa.Resource == nil {
			return rd.fail(aw, "resource", planner.RuleMissingField, "an access needs a resource")
		}
		id, ok := byName[*fa.Resource]
		if !ok {
			aw.resource = *fa.Resource
			return rd.fail(aw, "", planner.RuleUnknownResource, "no resource is named %q%s", *fa.Resource,
				didYouMean(*fa.Resource, func(n string) (string, bool) { return suggest.Closest(n, resourceNames(g)) }))
		}
		aw.resource = *fa.Resource
		a := &c.Accesses[ai]
		a.Resource = id
		for _, n := range fa.Stages {
			s, ok := vk.ParseStage(n)
			if !ok {
				return rd.fail(aw, "stages", planner.RuleUnknownName, "unknown stage name %q%s", n, didYouMean(n, vk.SuggestStage))
			}
			a.Stages |= s
		}
		for _, n := range fa.Access {
			f, ok := vk.ParseAccess(n)
			if !ok {
				return rd.fail(aw, "access", planner.RuleUnknownName, "unknown access name %q%s", n, didYouMean(n, vk.SuggestAccess))
			}
			a.Access |= f
		}
		if fa.Layout != nil {
			if g.Resources[id].Kind != planner.KindImage {
				return rd.fail(aw, "layout", planner.RuleField, "a buffer access has no layout")
			}
			l, ok := vk.ParseLayout(*fa.Layout)
			if !ok {
				return rd.fail(aw, "layout", planner.RuleUnknownName, "unknown layout name %q%s", *fa.Layout, didYouMean(*fa.Layout, vk.SuggestLayout))
			}
			a.Layout = l
		}
		if gerr := rd.accessRange(a, &fa, aw); gerr != nil {
			return gerr
		}
	}
	return nil
}

// accessRange reads an access's optional subresource range: mips and
// layers as [base, count] with count >= 1, aspects by name. Whether the
// range lies inside the image is Validate's rule.
func (rd *fileReader) accessRange(a *planner.Access, fa *fileAccess, aw where) *planner.GraphError {
	pair := func(field string, v []uint32, most uint32) (base, count uint32, gerr *planner.GraphError) {
		if len(v) != 2 {
			return 0, 0, rd.fail(aw, field, planner.RuleField, "%s is [base, count], not %d numbers", field, len(v))
		}
		if v[1] == 0 || v[0] > most || v[1] > most {
			return 0, 0, rd.fail(aw, field, planner.RuleSubresourceRange, "%s [%d, %d]: count must be at least 1 and base and count at most %d", field, v[0], v[1], most)
		}
		return v[0], v[1], nil
	}
	if fa.Mips != nil {
		b, n, gerr := pair("mips", fa.Mips, 0xfe)
		if gerr != nil {
			return gerr
		}
		a.Mips = planner.MipRange{Base: uint8(b), Count: uint8(n)}
	}
	if fa.Layers != nil {
		b, n, gerr := pair("layers", fa.Layers, 0xfffe)
		if gerr != nil {
			return gerr
		}
		a.Layers = planner.LayerRange{Base: uint16(b), Count: uint16(n)}
	}
	for _, n := range fa.Aspects {
		f, ok := vk.ParseAspect(n)
		if !ok {
			return rd.fail(aw, "aspects", planner.RuleUnknownName, "unknown aspect name %q", n)
		}
		a.Aspects |= f
	}
	return nil
}

// didYouMean returns " (did you mean X?)" when suggest knows a name X
// close to name, else "".
func didYouMean(name string, suggest func(string) (string, bool)) string {
	if s, ok := suggest(name); ok {
		return fmt.Sprintf(" (did you mean %s?)", s)
	}
	return ""
}

// suggestMemory returns the memory name closest to name.
func suggestMemory(name string) (string, bool) {
	return suggest.Closest(name, []string{planner.GPUOnly.String(), planner.CPUToGPU.String(), planner.GPUToCPU.String()})
}

// resourceNames lists g's resource names, in order (only on an error path).
func resourceNames(g *planner.Graph) []string {
	names := make([]string, len(g.Resources))
	for i, r := range g.Resources {
		names[i] = r.Name
	}
	return names
}

// WriteGraph writes g as a graph file (version 1), indented by two spaces,
// fields in a fixed order: the same graph always gives the same bytes, and
// ReadGraph gives back a graph deeply equal to g when g's slices are nil
// when empty. Every field is written except imported and dedicated when
// false, memory when gpu_only, requirements when nil, the
// prefers/requiresDedicated flags when false, the layout of buffer
// accesses, and an access's mips, layers and aspects when zero (the whole
// image); access is written as [] when empty. A mip or layer range with
// count 0 (every level or layer from base on) is written with the image's
// explicit count, so it reads back with that count.
//
// It does not validate g (a graph that breaks a rule can be written and
// inspected), but it fails with a *GraphError (File empty) on what the
// format cannot express: a value with no name, an access to a resource
// that does not exist, a name that is not valid UTF-8.
func WriteGraph(w io.Writer, g *planner.Graph) error {
	fg := fileGraph{
		Version:   GraphFileVersion,
		Resources: make([]fileResource, len(g.Resources)),
		Commands:  make([]fileCommand, len(g.Commands)),
	}
	for i := range g.Resources {
		if err := writeResource(&fg.Resources[i], &g.Resources[i], i); err != nil {
			return err
		}
	}
	for i := range g.Commands {
		if err := writeCommand(&fg.Commands[i], g, i); err != nil {
			return err
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&fg); err != nil {
		return fmt.Errorf("planner: writing graph: %w", err)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// maskFileNames returns the names of a mask's bits, failing on a bit that
// has none (Names writes those in hex).
func maskFileNames(names []string) (string, bool) {
	for _, n := range names {
		if strings.HasPrefix(n, "0x") {
			return n, false
		}
	}
	return "", true
}

func writeResource(fr *fileResource, r *planner.Resource, i int) error {
	fail := func(rule planner.Rule, format string, args ...any) error {
		e := &planner.GraphError{Resource: r.Name, Access: -1, Rule: rule, Detail: fmt.Sprintf(format, args...)}
		if r.Name == "" {
			e.Item = fmt.Sprintf("resources[%d]", i)
		}
		return e
	}
	if !utf8.ValidString(r.Name) {
		return fail(planner.RuleField, "name is not valid UTF-8")
	}
	fr.Name = ptr(r.Name)
	fr.Type = ptr(r.Kind.String())
	fr.Imported = r.Imported
	fr.Dedicated = r.Dedicated
	if r.Memory != planner.GPUOnly {
		if _, ok := planner.ParseMemory(r.Memory.String()); !ok {
			return fail(planner.RuleUnknownName, "memory %s has no name", r.Memory)
		}
		fr.Memory = ptr(r.Memory.String())
	}
	switch r.Kind {
	case planner.KindBuffer:
		usage := r.Buffer.Usage.Names()
		if bad, ok := maskFileNames(usage); !ok {
			return fail(planner.RuleUnknownName, "buffer usage bit %s has no name", bad)
		}
		fr.Buffer = &fileBuffer{Size: ptr(r.Buffer.Size), Usage: usage}
	case planner.KindImage:
		d := &r.Image
		usage := d.Usage.Names()
		if bad, ok := maskFileNames(usage); !ok {
			return fail(planner.RuleUnknownName, "image usage bit %s has no name", bad)
		}
		if v, ok := vk.ParseFormat(d.Format.String()); !ok || v != d.Format {
			return fail(planner.RuleUnknownName, "format %s has no name", d.Format)
		}
		if v, ok := vk.ParseTiling(d.Tiling.String()); !ok || v != d.Tiling {
			return fail(planner.RuleUnknownName, "tiling %s has no name", d.Tiling)
		}
		if v, ok := vk.ParseLayout(d.InitialLayout.String()); !ok || v != d.InitialLayout {
			return fail(planner.RuleUnknownName, "initial layout %s has no name", d.InitialLayout)
		}
		fr.Image = &fileImage{
			Format: ptr(d.Format.String()),
			Width:  ptr(d.Width), Height: ptr(d.Height), Depth: ptr(d.Depth),
			MipLevels: ptr(d.MipLevels), ArrayLayers: ptr(d.ArrayLayers), Samples: ptr(d.Samples),
			Tiling:        ptr(d.Tiling.String()),
			Usage:         usage,
			InitialLayout: ptr(d.InitialLayout.String()),
		}
		if d.FinalLayout != vk.LayoutUndefined {
			if v, ok := vk.ParseLayout(d.FinalLayout.String()); !ok || v != d.FinalLayout {
				return fail(planner.RuleUnknownName, "final layout %s has no name", d.FinalLayout)
			}
			fr.Image.FinalLayout = ptr(d.FinalLayout.String())
		}
	default:
		return fail(planner.RuleField, "unknown resource kind %d", r.Kind)
	}
	if q := r.Requirements; q != nil {
		fr.Requirements = &fileRequirements{Size: ptr(q.Size), Alignment: ptr(q.Alignment), MemoryTypeBits: ptr(q.MemoryTypeBits),
			PrefersDedicated: q.PrefersDedicated, RequiresDedicated: q.RequiresDedicated}
	}
	return nil
}

func writeCommand(fc *fileCommand, g *planner.Graph, i int) error {
	c := &g.Commands[i]
	fail := func(ai int, res string, rule planner.Rule, format string, args ...any) error {
		e := &planner.GraphError{Command: c.Name, Resource: res, Access: ai, Rule: rule, Detail: fmt.Sprintf(format, args...)}
		if c.Name == "" {
			e.Item = fmt.Sprintf("commands[%d]", i)
			if ai >= 0 {
				e.Item = fmt.Sprintf("commands[%d].accesses[%d]", i, ai)
			}
		}
		return e
	}
	if !utf8.ValidString(c.Name) {
		return fail(-1, "", planner.RuleField, "name is not valid UTF-8")
	}
	fc.Name = ptr(c.Name)
	if c.Queue != planner.QueueGraphics {
		if _, ok := planner.ParseQueue(c.Queue.String()); !ok {
			return fail(-1, "", planner.RuleQueue, "unknown queue %d", uint8(c.Queue))
		}
		fc.Queue = ptr(c.Queue.String())
	}
	fc.Accesses = make([]fileAccess, len(c.Accesses))
	for ai, a := range c.Accesses {
		if a.Resource < 0 || int(a.Resource) >= len(g.Resources) {
			return fail(ai, "", planner.RuleUnknownResource, "resource id %d is not in the graph", a.Resource)
		}
		res := &g.Resources[a.Resource]
		fa := &fc.Accesses[ai]
		fa.Resource = ptr(res.Name)
		fa.Stages = a.Stages.Names()
		if bad, ok := maskFileNames(fa.Stages); !ok {
			return fail(ai, res.Name, planner.RuleUnknownName, "stage bit %s has no name", bad)
		}
		fa.Access = a.Access.Names()
		if bad, ok := maskFileNames(fa.Access); !ok {
			return fail(ai, res.Name, planner.RuleUnknownName, "access bit %s has no name", bad)
		}
		if res.Kind == planner.KindImage {
			if v, ok := vk.ParseLayout(a.Layout.String()); !ok || v != a.Layout {
				return fail(ai, res.Name, planner.RuleUnknownName, "layout %s has no name", a.Layout)
			}
			fa.Layout = ptr(a.Layout.String())
		}
		if err := writeRange(fa, &a, res); err != nil {
			return fail(ai, res.Name, planner.RuleUnknownName, "%v", err)
		}
	}
	return nil
}

// writeRange writes an access's subresource range, a count of 0 (every
// level or layer from base on) as the explicit count of res's image.
func writeRange(fa *fileAccess, a *planner.Access, res *planner.Resource) error {
	if a.Mips != (planner.MipRange{}) {
		n := uint32(a.Mips.Count)
		if n == 0 && res.Kind == planner.KindImage && res.Image.MipLevels > uint32(a.Mips.Base) {
			n = res.Image.MipLevels - uint32(a.Mips.Base)
		}
		fa.Mips = []uint32{uint32(a.Mips.Base), n}
	}
	if a.Layers != (planner.LayerRange{}) {
		n := uint32(a.Layers.Count)
		if n == 0 && res.Kind == planner.KindImage && res.Image.ArrayLayers > uint32(a.Layers.Base) {
			n = res.Image.ArrayLayers - uint32(a.Layers.Base)
		}
		fa.Layers = []uint32{uint32(a.Layers.Base), n}
	}
	if a.Aspects != 0 {
		fa.Aspects = a.Aspects.Names()
		if bad, ok := maskFileNames(fa.Aspects); !ok {
			return fmt.Errorf("aspect bit %s has no name", bad)
		}
	}
	return nil
}
