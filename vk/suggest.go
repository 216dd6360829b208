package vk

import "github.com/aliasplan/aliasplan/internal/suggest"

// The Suggest functions return the known name closest to one its Parse
// function did not know, for "did you mean" in messages
// (COMPUTE_SHADERR → COMPUTE_SHADER), and false when none is close
// (internal/suggest says how close).

// SuggestStage returns the stage name closest to name.
func SuggestStage(name string) (string, bool) { return closest(name, stageTable) }

// SuggestAccess returns the access name closest to name.
func SuggestAccess(name string) (string, bool) { return closest(name, accessTable) }

// SuggestLayout returns the layout name closest to name.
func SuggestLayout(name string) (string, bool) { return closest(name, layoutTable) }

// SuggestBufferUsage returns the buffer usage name closest to name.
func SuggestBufferUsage(name string) (string, bool) { return closest(name, bufferUsageTable) }

// SuggestImageUsage returns the image usage name closest to name.
func SuggestImageUsage(name string) (string, bool) { return closest(name, imageUsageTable) }

// SuggestTiling returns the tiling name closest to name.
func SuggestTiling(name string) (string, bool) { return closest(name, tilingTable) }

// SuggestFormat returns the format name closest to name.
func SuggestFormat(name string) (string, bool) {
	names := make([]string, len(formatTable))
	for i, e := range formatTable {
		names[i] = e.name
	}
	return suggest.Closest(name, names)
}

func closest[T any](name string, table []nameValue[T]) (string, bool) {
	names := make([]string, len(table))
	for i, e := range table {
		names[i] = e.name
	}
	return suggest.Closest(name, names)
}
