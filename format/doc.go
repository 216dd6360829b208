// Package format reads and writes aliasplan's files: the graph file (JSON,
// version 1), the plan file (JSON, version 1) and MiniMalloc's CSV for
// interval problems and their solutions. docs/formats.md describes every
// field; this package is that description in code.
//
// Readers validate as they go and fail with a *planner.GraphError that
// names the file, the item (resource, command, access, barrier, CSV line)
// and the rule broken, with line and column where the JSON decoder gives
// an offset. They never panic, whatever the input (each has a fuzz
// target). Writers produce the same bytes for the same value, fields in a
// fixed order, so that files diff cleanly and golden tests hold.
//
// The model, the algorithms and Verify live in package planner; this
// package only translates between them and bytes.
package format
