package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// enumSpec says where one of package vk's enums is in vulkan_core.h and
// how it is written in Go.
type enumSpec struct {
	cType    string // the C type: the typedef enum, or the type of 64-bit static consts
	flags64  bool   // VkFlags64 bits are static consts, not a typedef enum
	cPrefix  string // stripped from the C name
	goType   string // package vk's type
	goPrefix string // the Go constants' prefix
	table    string // the name table's variable
	hex      bool   // values written in hex (masks) rather than decimal
	coreOnly bool   // leave out names with a vendor suffix (formats, tilings: core Vulkan 1.3)
	doc      string // the const block's comment
}

var specs = []enumSpec{
	{cType: "VkPipelineStageFlagBits2", flags64: true, cPrefix: "VK_PIPELINE_STAGE_2_", goType: "Stage", goPrefix: "Stage",
		table: "stageTable", hex: true, doc: "Pipeline stages (VK_PIPELINE_STAGE_2_*)."},
	{cType: "VkAccessFlagBits2", flags64: true, cPrefix: "VK_ACCESS_2_", goType: "AccessFlags", goPrefix: "Access",
		table: "accessTable", hex: true, doc: "Access types (VK_ACCESS_2_*)."},
	{cType: "VkImageLayout", cPrefix: "VK_IMAGE_LAYOUT_", goType: "Layout", goPrefix: "Layout",
		table: "layoutTable", doc: "Image layouts (VK_IMAGE_LAYOUT_*)."},
	{cType: "VkFormat", cPrefix: "VK_FORMAT_", goType: "Format", goPrefix: "Format",
		table: "formatTable", coreOnly: true, doc: "Image formats (VK_FORMAT_*), the formats of core Vulkan 1.3."},
	{cType: "VkBufferUsageFlagBits", cPrefix: "VK_BUFFER_USAGE_", goType: "BufferUsage", goPrefix: "BufferUsage",
		table: "bufferUsageTable", hex: true, doc: "Buffer usages (VK_BUFFER_USAGE_*)."},
	{cType: "VkImageUsageFlagBits", cPrefix: "VK_IMAGE_USAGE_", goType: "ImageUsage", goPrefix: "ImageUsage",
		table: "imageUsageTable", hex: true, doc: "Image usages (VK_IMAGE_USAGE_*)."},
	{cType: "VkImageTiling", cPrefix: "VK_IMAGE_TILING_", goType: "Tiling", goPrefix: "Tiling",
		table: "tilingTable", coreOnly: true, doc: "Image tilings (VK_IMAGE_TILING_*)."},
}

// vendorRank orders the names of one value: the first is canonical. Core
// names come first, then KHR, then EXT, then every other vendor's (NV,
// HUAWEI, QCOM...), each in header order.
var vendorRank = map[string]int{"": 0, "KHR": 1, "EXT": 2}

// vendors are the author suffixes of Vulkan names (vk.xml's <tags>) that
// these enums use, or may use in a later header.
var vendors = map[string]bool{
	"KHR": true, "EXT": true, "NV": true, "NVX": true, "AMD": true, "INTEL": true,
	"HUAWEI": true, "QCOM": true, "ARM": true, "IMG": true, "GOOGLE": true, "VALVE": true,
	"MESA": true, "QNX": true, "ANDROID": true, "FUCHSIA": true, "MVK": true, "NN": true,
	"GGP": true, "SEC": true, "MSFT": true, "LUNARG": true, "KHX": true,
}

// entry is one name of an enum.
type entry struct {
	cName  string
	name   string // the file name: cPrefix and _BIT stripped
	vendor string // the author suffix, "" for core
	value  uint64
	order  int // position in the header
}

// header is what Generate reads from vulkan_core.h.
type header struct {
	version int
	enums   map[string][]entry // by C type, beta extensions left out
}

var (
	reVersion  = regexp.MustCompile(`^#define VK_HEADER_VERSION (\d+)`)
	reFlags64  = regexp.MustCompile(`^static const (\w+) (VK_\w+) = (0x[0-9A-Fa-f]+|\d+)ULL;`)
	reEnumOpen = regexp.MustCompile(`^typedef enum (\w+) \{`)
	reEnumItem = regexp.MustCompile(`^\s+(VK_\w+) = ([^,]+),?$`)
)

// parseHeader reads the enums of specs from vulkan_core.h. Names inside
// #ifdef VK_ENABLE_BETA_EXTENSIONS are left out: beta extensions are not
// part of the API a release driver promises.
func parseHeader(src []byte) (*header, error) {
	want := map[string]bool{}
	for _, s := range specs {
		want[s.cType] = true
	}
	h := &header{enums: map[string][]entry{}}
	raw := map[string][][2]string{} // cType → (cName, value text), header order
	var inEnum string
	beta := 0 // #if depth inside a beta block; 0 when outside
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		trim := strings.TrimSpace(line)
		if beta > 0 {
			switch {
			case strings.HasPrefix(trim, "#if"):
				beta++
			case strings.HasPrefix(trim, "#endif"):
				beta--
			}
			continue
		}
		if trim == "#ifdef VK_ENABLE_BETA_EXTENSIONS" {
			beta = 1
			continue
		}
		if m := reVersion.FindStringSubmatch(line); m != nil {
			h.version, _ = strconv.Atoi(m[1])
			continue
		}
		if inEnum != "" {
			if strings.HasPrefix(line, "}") {
				inEnum = ""
				continue
			}
			if m := reEnumItem.FindStringSubmatch(line); m != nil {
				raw[inEnum] = append(raw[inEnum], [2]string{m[1], strings.TrimSpace(m[2])})
			}
			continue
		}
		if m := reEnumOpen.FindStringSubmatch(line); m != nil && want[m[1]] {
			inEnum = m[1]
			continue
		}
		if m := reFlags64.FindStringSubmatch(line); m != nil && want[m[1]] {
			raw[m[1]] = append(raw[m[1]], [2]string{m[2], m[3]})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if h.version == 0 {
		return nil, fmt.Errorf("vkgen: no VK_HEADER_VERSION in the header")
	}
	for _, s := range specs {
		items := raw[s.cType]
		if len(items) == 0 {
			return nil, fmt.Errorf("vkgen: no %s in the header", s.cType)
		}
		values := map[string]uint64{}
		for i, it := range items {
			cName, text := it[0], it[1]
			if strings.HasSuffix(cName, "_MAX_ENUM") {
				continue
			}
			v, err := strconv.ParseUint(text, 0, 64)
			if err != nil {
				ref, ok := values[text]
				if !ok {
					return nil, fmt.Errorf("vkgen: %s = %s: neither a number nor an earlier name", cName, text)
				}
				v = ref
			}
			values[cName] = v
			e, err := s.entry(cName, v, i)
			if err != nil {
				return nil, err
			}
			h.enums[s.cType] = append(h.enums[s.cType], e)
		}
	}
	return h, nil
}

// entry splits a C name into its file name and vendor suffix.
func (s enumSpec) entry(cName string, v uint64, order int) (entry, error) {
	name, ok := strings.CutPrefix(cName, s.cPrefix)
	if !ok {
		return entry{}, fmt.Errorf("vkgen: %s: not prefixed %s", cName, s.cPrefix)
	}
	vendor := ""
	if i := strings.LastIndexByte(name, '_'); i >= 0 && vendors[name[i+1:]] {
		vendor = name[i+1:]
		name = name[:i]
	}
	name = strings.TrimSuffix(name, "_BIT")
	if vendor != "" {
		name += "_" + vendor
	}
	return entry{cName: cName, name: name, vendor: vendor, value: v, order: order}, nil
}

// names returns the names of spec s as graph files write them: by ascending
// value, the canonical name of each value first (vendorRank). A name with
// a _KHR suffix whose value also has the name without it (promoted to
// core: SHADER_READ and SHADER_READ_KHR) is left out, since the parsers
// accept a missing _KHR suffix and never need the other spelling; so are
// vendor names where s is core-only.
func (h *header) names(s enumSpec) ([]entry, error) {
	all := h.enums[s.cType]
	byName := map[string]uint64{}
	for _, e := range all {
		byName[e.name] = e.value
	}
	var out []entry
	for _, e := range all {
		if s.coreOnly && e.vendor != "" {
			continue
		}
		if base, ok := strings.CutSuffix(e.name, "_KHR"); ok {
			if v, ok := byName[base]; ok && v == e.value {
				continue
			}
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b entry) int {
		if c := cmp.Compare(a.value, b.value); c != 0 {
			return c
		}
		return cmp.Compare(rank(a.vendor), rank(b.vendor))
	})
	seen := map[string]bool{}
	for _, e := range out {
		id := s.ident(e)
		if seen[id] {
			return nil, fmt.Errorf("vkgen: two names make the Go constant %s", id)
		}
		seen[id] = true
	}
	return out, nil
}

func rank(vendor string) int {
	if r, ok := vendorRank[vendor]; ok {
		return r
	}
	return len(vendorRank)
}

// reComponents matches a word of a format name that lists components and
// their bits (R8G8B8A8, R10X6G10X6, D24, E5B9G9R9): kept as written.
var reComponents = regexp.MustCompile(`^(?:[RGBADSXE]\d+)+$`)

// ident is the Go constant of e: the prefix and the name's words with the
// first letter capitalised (COMPUTE_SHADER → StageComputeShader), component
// words kept (R8G8B8A8_UNORM → FormatR8G8B8A8Unorm), the vendor suffix kept
// in capitals except KHR, which is dropped (RAY_TRACING_SHADER_KHR →
// StageRayTracingShader, TASK_SHADER_NV → StageTaskShaderNV).
func (s enumSpec) ident(e entry) string {
	name := e.name
	if e.vendor != "" {
		name = strings.TrimSuffix(name, "_"+e.vendor)
	}
	var b strings.Builder
	b.WriteString(s.goPrefix)
	for _, w := range strings.Split(name, "_") {
		if reComponents.MatchString(w) {
			b.WriteString(w)
			continue
		}
		// The first letter keeps its case (ASTC_4x4 → Astc4x4), the
		// others are lowered (3PLANE → 3Plane, BC6H → Bc6h).
		first := true
		for _, r := range w {
			if r >= 'A' && r <= 'Z' {
				if !first {
					r += 'a' - 'A'
				}
				first = false
			} else if r >= 'a' && r <= 'z' {
				first = false
			}
			b.WriteRune(r)
		}
	}
	if e.vendor != "KHR" {
		b.WriteString(e.vendor)
	}
	return b.String()
}

func (s enumSpec) literal(v uint64) string {
	if s.hex {
		return fmt.Sprintf("0x%08x", v)
	}
	return strconv.FormatUint(v, 10)
}

// Generate returns names_gen.go for vulkan_core.h. module names the
// header's module and version for the file's first comment.
func Generate(src []byte, module string) ([]byte, error) {
	h, err := parseHeader(src)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by vkgen from vulkan_core.h (VK_HEADER_VERSION %d) of %s; DO NOT EDIT.\n\n", h.version, module)
	b.WriteString("package vk\n\n")
	for _, s := range specs {
		entries, err := h.names(s)
		if err != nil {
			return nil, err
		}
		canonical := map[uint64]string{}
		fmt.Fprintf(&b, "// %s\nconst (\n", s.doc)
		for _, e := range entries {
			id := s.ident(e)
			if c, ok := canonical[e.value]; ok {
				fmt.Fprintf(&b, "\t%s = %s // alias\n", id, c)
				continue
			}
			canonical[e.value] = id
			fmt.Fprintf(&b, "\t%s %s = %s\n", id, s.goType, s.literal(e.value))
		}
		b.WriteString(")\n\n")
		if s.goType == "AccessFlags" {
			writeWriteAccess(&b, s, entries)
		}
		if s.goType == "Format" {
			if err := writeFormatTable(&b, s, entries); err != nil {
				return nil, err
			}
			continue
		}
		fmt.Fprintf(&b, "// %s lists every name by ascending value; the first name of a value is canonical.\n", s.table)
		fmt.Fprintf(&b, "var %s = []nameValue[%s]{\n", s.table, s.goType)
		for _, e := range entries {
			fmt.Fprintf(&b, "\t{%q, %s},\n", e.name, s.ident(e))
		}
		b.WriteString("}\n\n")
	}
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("vkgen: gofmt: %w", err)
	}
	return out, nil
}

// writeWriteAccess writes WriteAccess: every access bit whose name contains
// WRITE (SPEC §2), one constant per value.
func writeWriteAccess(b *bytes.Buffer, s enumSpec, entries []entry) {
	b.WriteString("// WriteAccess is every access bit whose name contains WRITE: an access with any\n// of them modifies the resource (SPEC §2).\nconst WriteAccess = ")
	seen := map[uint64]bool{}
	first := true
	for _, e := range entries {
		if !strings.Contains(e.name, "WRITE") || seen[e.value] {
			continue
		}
		seen[e.value] = true
		if !first {
			b.WriteString(" |\n\t")
		}
		first = false
		b.WriteString(s.ident(e))
	}
	b.WriteString("\n\n")
}

func writeFormatTable(b *bytes.Buffer, s enumSpec, entries []entry) error {
	b.WriteString("// formatTable lists every format by ascending value with its block size.\n")
	b.WriteString("var formatTable = []formatInfo{\n")
	for _, e := range entries {
		f, err := formatFacts(e.name)
		if err != nil {
			return err
		}
		aspects := "0"
		switch {
		case f.depth && f.stencil:
			aspects = "aspectDepth | aspectStencil"
		case f.depth:
			aspects = "aspectDepth"
		case f.stencil:
			aspects = "aspectStencil"
		}
		fmt.Fprintf(b, "\t{%q, %s, %d, %d, %d, %s},\n", e.name, s.ident(e), f.bytes, f.blockWidth, f.blockHeight, aspects)
	}
	b.WriteString("}\n")
	return nil
}
