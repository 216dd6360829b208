package main

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
)

// queueFrames are frames with async compute (issue 24), in testdata/queues:
// kept out of testdata/frames until replay runs submissions.
var queueFrames = []struct {
	name string
	gen  func() *planner.Graph
}{
	{"async-320x180", func() *planner.Graph { return &aliasplan.AsyncSampleFrame(320, 180).Graph }},
	{"async-1920x1080", func() *planner.Graph { return &aliasplan.AsyncSampleFrame(1920, 1080).Graph }},
}

const queuesReadme = `# Frames with async compute (graph files with ` + "`queue`" + `, SPEC §5)

Written by ` + "`go run ./scripts/gentestdata`" + ` (do not edit): aliasplan.AsyncSampleFrame
(the deferred sample frame with the hierarchical-Z build, SSAO, light culling, a
particle simulation and the auto-exposure passes on the compute queue), with the H200
profile's requirements written in. "one queue" is the same frame with every command
on graphics.

| file | commands | compute commands | submissions | semaphores | pooled bytes | one queue | async / one queue |
|---|---|---|---|---|---|---|---|
`

func writeQueueFrames(dir string) error {
	var readme bytes.Buffer
	readme.WriteString(queuesReadme)
	for _, f := range queueFrames {
		g := f.gen()
		makeReplayable(g)
		if err := fillRequirements(g); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		var b bytes.Buffer
		if err := format.WriteGraph(&b, g); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		plan, err := aliasplan.New(aliasplan.Options{}).Plan(&aliasplan.Graph{Graph: *g})
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		one := &aliasplan.Graph{}
		one.Resources = g.Resources
		compute := 0
		for _, c := range g.Commands {
			if c.Queue != planner.QueueGraphics {
				compute++
			}
			c.Queue = planner.QueueGraphics
			one.Commands = append(one.Commands, c)
		}
		onePlan, err := aliasplan.New(aliasplan.Options{}).Plan(one)
		if err != nil {
			return fmt.Errorf("%s on one queue: %w", f.name, err)
		}
		fmt.Fprintf(&readme, "| %s.json | %d | %d | %d | %d | %s | %s | %.3f |\n", f.name, len(g.Commands), compute,
			len(plan.Submissions), plan.Semaphores, commas(plan.Stats.PooledBytes), commas(onePlan.Stats.PooledBytes),
			float64(plan.Stats.PooledBytes)/float64(onePlan.Stats.PooledBytes))
		if err := write(filepath.Join(dir, "queues", f.name+".json"), b.Bytes()); err != nil {
			return err
		}
	}
	return write(filepath.Join(dir, "queues", "README.md"), readme.Bytes())
}
