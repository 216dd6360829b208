package aliasplan

import (
	"io"

	"github.com/aliasplan/aliasplan/format"
)

// ReadGraph reads a graph file (JSON, version 1; docs/formats.md) and
// validates it. file names the input in errors, which are
// *planner.GraphError values naming the file, the item and the rule.
func ReadGraph(r io.Reader, file string) (*Graph, error) {
	g, err := format.ReadGraph(r, file)
	if err != nil {
		return nil, err
	}
	return &Graph{Graph: *g}, nil
}

// WriteGraph writes g as a graph file, fields in a fixed order.
func WriteGraph(w io.Writer, g *Graph) error { return format.WriteGraph(w, &g.Graph) }

// WritePlan writes p, a plan of g, as a plan file (JSON, version 1).
func WritePlan(w io.Writer, g *Graph, p *Plan) error { return format.WritePlan(w, &g.Graph, p) }

// ReadPlan reads a plan file for g. It checks the file's shape and names,
// not the plan's safety: run verify.Plan on the result (aliasplan check
// does both).
func ReadPlan(r io.Reader, file string, g *Graph) (*Plan, error) {
	return format.ReadPlan(r, file, &g.Graph)
}
