package format

import (
	"errors"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// TestReadGraphDidYouMean: an unknown name gets the closest known one of
// its kind in the error, and none when nothing is close.
func TestReadGraphDidYouMean(t *testing.T) {
	both := fileBuf + ", " + fileImg
	okCmds := cmdDoc("c0", fileWrite, fileImgOut)
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"stage", graphDoc(both, cmdDoc("c0", strings.Replace(fileWrite, "COMPUTE_SHADER", "COMPUTE_SHADERR", 1))),
			`unknown stage name "COMPUTE_SHADERR" (did you mean COMPUTE_SHADER?)`},
		{"access", graphDoc(both, cmdDoc("c0", strings.Replace(fileWrite, "SHADER_STORAGE_WRITE", "SHADER_STORAGE_WRTIE", 1))),
			`unknown access name "SHADER_STORAGE_WRTIE" (did you mean SHADER_STORAGE_WRITE?)`},
		{"access layout", graphDoc(both, cmdDoc("c0", fileWrite, strings.Replace(fileImgOut, `"COLOR_ATTACHMENT_OPTIMAL"`, `"color_attachment_optimal"`, 1))),
			`unknown layout name "color_attachment_optimal" (did you mean COLOR_ATTACHMENT_OPTIMAL?)`},
		{"format", graphDoc(fileBuf+", "+strings.Replace(fileImg, "R8G8B8A8_UNORM", "R8G8B8A8_UNROM", 1), okCmds),
			`unknown format name "R8G8B8A8_UNROM" (did you mean R8G8B8A8_UNORM?)`},
		{"buffer usage", graphDoc(strings.Replace(fileBuf, "STORAGE_BUFFER", "STORAGE_BUFER", 1)+", "+fileImg, okCmds),
			`unknown buffer usage name "STORAGE_BUFER" (did you mean STORAGE_BUFFER?)`},
		{"image usage", graphDoc(fileBuf+", "+strings.Replace(fileImg, `"height": 4`, `"height": 4, "usage": ["SAMPLD"]`, 1), okCmds),
			`unknown image usage name "SAMPLD" (did you mean SAMPLED?)`},
		{"initial layout", graphDoc(fileBuf+", "+strings.Replace(fileImg, `"height": 4`, `"height": 4, "initialLayout": "UNDEFINE"`, 1), okCmds),
			`unknown layout name "UNDEFINE" (did you mean UNDEFINED?)`},
		{"tiling", graphDoc(fileBuf+", "+strings.Replace(fileImg, `"height": 4`, `"height": 4, "tiling": "LINEAER"`, 1), okCmds),
			`unknown tiling name "LINEAER" (did you mean LINEAR?)`},
		{"memory", graphDoc(strings.Replace(fileBuf, `"type"`, `"memory": "gpu_onyl", "type"`, 1)+", "+fileImg, okCmds),
			`unknown memory name "gpu_onyl" (did you mean gpu_only?)`},
		{"resource", graphDoc(both, cmdDoc("c0", strings.Replace(fileWrite, `"buf"`, `"bfu"`, 1))),
			`no resource is named "bfu" (did you mean buf?)`},
		{"nothing close", graphDoc(both, cmdDoc("c0", strings.Replace(fileWrite, "COMPUTE_SHADER", "RASTERIZER", 1))),
			`unknown stage name "RASTERIZER" (rule`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadGraph(strings.NewReader(tc.doc), "test.json")
			var ge *planner.GraphError
			if !errors.As(err, &ge) {
				t.Fatalf("error %v is not a *GraphError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}
