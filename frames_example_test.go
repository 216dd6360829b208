package aliasplan_test

import (
	"fmt"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/vk"
)

// ExampleFrames plans a few frames of dynamic resolution into held
// memory: the renderer allocates on PoolNew, frees on PoolFree, and
// records each plan's entry barrier before its first command.
func ExampleFrames() {
	frames := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{InFlight: 2})
	for _, size := range [][2]uint32{{1920, 1080}, {1728, 972}, {1728, 972}, {2560, 1440}, {2304, 1296}, {2304, 1296}, {2304, 1296}} {
		fp, err := frames.Plan(aliasplan.SampleFrame(size[0], size[1]))
		if err != nil {
			fmt.Println(err)
			return
		}
		var allocate, free int
		for _, h := range fp.Held {
			switch h.State {
			case aliasplan.PoolNew:
				allocate++
			case aliasplan.PoolFree:
				free++
			}
		}
		waits := "the previous frame's last uses"
		if fp.Entry[0].SrcStages == vk.StageAllCommands {
			waits = "everything before (first frame)"
		}
		fmt.Printf("frame %d %dx%d: %s, allocate %d, free %d; entry waits for %s\n", fp.Frame, size[0], size[1], fp.Path, allocate, free, waits)
	}
	// The allocation the 1440p frame replaced was last used by frame 3:
	// with 2 frames in flight it is freed at frame 5.

	// Output:
	// frame 1 1920x1080: planned, allocate 2, free 0; entry waits for everything before (first frame)
	// frame 2 1728x972: resized, allocate 0, free 0; entry waits for the previous frame's last uses
	// frame 3 1728x972: same, allocate 0, free 0; entry waits for the previous frame's last uses
	// frame 4 2560x1440: planned, allocate 1, free 0; entry waits for the previous frame's last uses
	// frame 5 2304x1296: resized, allocate 0, free 1; entry waits for the previous frame's last uses
	// frame 6 2304x1296: same, allocate 0, free 0; entry waits for the previous frame's last uses
	// frame 7 2304x1296: same, allocate 0, free 0; entry waits for the previous frame's last uses
}
