package planner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/vk"
)

// TestImpliedReadsRule checks the rule of asrefs.go command by command:
// which implied reads each command gets, written as "command: resource
// (stages)".
func TestImpliedReadsRule(t *testing.T) {
	const (
		build = vk.StageAccelerationStructureBuild
		cp    = vk.StageAccelerationStructureCopy
		rt    = vk.StageRayTracingShader
		cs    = vk.StageComputeShader
		asr   = vk.AccessAccelerationStructureRead
		asw   = vk.AccessAccelerationStructureWrite
	)
	type acc struct {
		res    string
		stages vk.Stage
		access vk.AccessFlags
	}
	cases := []struct {
		name string
		cmds [][]acc
		want []string
	}{
		{"trace reads the bottom level", [][]acc{
			{{"b", build, asw}},
			{{"t", build, asw}, {"b", build, asr}},
			{{"t", rt, asr}},
		}, []string{"c2: b (RAY_TRACING_SHADER_KHR)"}},
		{"a storage read of the top level in compute counts", [][]acc{
			{{"b", build, asw}},
			{{"t", build, asw}, {"b", build, asr}},
			{{"t", cs, vk.AccessShaderStorageRead}},
		}, []string{"c2: b (COMPUTE_SHADER)"}},
		{"a transfer read is no trace", [][]acc{
			{{"b", build, asw}},
			{{"t", build, asw}, {"b", build, asr}},
			{{"t", vk.StageCopy, vk.AccessTransferRead}},
		}, nil},
		{"a copy keeps the source's bottom levels, and the source", [][]acc{
			{{"b", build, asw}},
			{{"t", build, asw}, {"b", build, asr}},
			{{"t", cp, asr}, {"u", cp, asw}},
			{{"u", rt, asr}},
		}, []string{"c2: b (ACCELERATION_STRUCTURE_COPY_KHR)", "c3: b (RAY_TRACING_SHADER_KHR)", "c3: t (RAY_TRACING_SHADER_KHR)"}},
		{"a rebuild over nothing ends the references", [][]acc{
			{{"b", build, asw}},
			{{"t", build, asw}, {"b", build, asr}},
			{{"t", build, asw}},
			{{"t", rt, asr}},
		}, nil},
		{"a transfer write ends them too", [][]acc{
			{{"b", build, asw}},
			{{"t", build, asw}, {"b", build, asr}},
			{{"t", vk.StageCopy, vk.AccessTransferWrite}},
			{{"t", rt, asr}},
		}, nil},
		{"an in-place update keeps the old ones", [][]acc{
			{{"b", build, asw}},
			{{"t", build, asw}, {"b", build, asr}},
			{{"t", build, asr | asw}},
			{{"t", rt, asr}},
		}, []string{"c2: b (ACCELERATION_STRUCTURE_BUILD_KHR)", "c3: b (RAY_TRACING_SHADER_KHR)"}},
		{"two reads of one command merge", [][]acc{
			{{"b", build, asw}},
			{{"t", build, asw}, {"b", build, asr}},
			{{"t", rt, asr}, {"t", cs, asr}},
		}, []string{"c2: b (COMPUTE_SHADER|RAY_TRACING_SHADER_KHR)"}},
		{"a buffer without structure storage usage refers to nothing", [][]acc{
			{{"plain", cs, vk.AccessShaderStorageWrite}},
			{{"t", build, asw}, {"plain", build, asr}},
			{{"t", rt, asr}},
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := &Graph{}
			ids := map[string]ResourceID{}
			id := func(n string) ResourceID {
				if r, ok := ids[n]; ok {
					return r
				}
				u := vk.BufferUsageAccelerationStructureStorage | vk.BufferUsageTransferSrc | vk.BufferUsageTransferDst
				if n == "plain" {
					u = vk.BufferUsageStorageBuffer
				}
				ids[n] = g.AddBuffer(n, BufferDesc{Size: 256, Usage: u})
				return ids[n]
			}
			for i, cmd := range c.cmds {
				var as []Access
				for _, a := range cmd {
					as = append(as, Access{Resource: id(a.res), Stages: a.stages, Access: a.access})
				}
				g.AddCommand(fmt.Sprintf("c%d", i), as...)
			}
			var got []string
			imps, _ := impliedReads(g)
			for ci, imp := range imps {
				for _, a := range imp {
					if a.Access != vk.AccessAccelerationStructureRead {
						t.Errorf("c%d: implied access %s, want ACCELERATION_STRUCTURE_READ", ci, a.Access)
					}
					got = append(got, fmt.Sprintf("c%d: %s (%s)", ci, g.Resources[a.Resource].Name, a.Stages))
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("implied reads:\n  got  %s\n  want %s", strings.Join(got, "; "), strings.Join(c.want, "; "))
			}
			if _, err := Compile(g); err != nil {
				t.Errorf("Compile: %v", err)
			}
		})
	}
}
