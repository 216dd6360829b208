package replay

import (
	"sync"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vulkan"
)

// Every Replayer of one device shares its shader modules, descriptor set
// layouts, pipeline layouts and pipelines: pipeline creation is most of a
// small frame's replay time on lavapipe (measured: 474 pipelines, 79
// distinct, about 80% of TestGeneratedFrames), and frames of one
// generator repeat the same specializations. They live until the device
// closes (vulkan.ReplayHooks.OnClose destroys them); the pipeline maps
// are guarded by the shared mutex, so replayers of one device may still
// be used from different goroutines.

type staticKit struct {
	mu        sync.Mutex
	modules   map[string]vk.ShaderModule
	setsLay   [numStages]vk.DescriptorSetLayout
	compLay   vk.PipelineLayout
	gfxLay    vk.PipelineLayout
	gfxLayX   vk.PipelineLayout
	meshLay   vk.PipelineLayout
	compPipes map[specMasks]vk.Pipeline
	gfxPipes  map[gfxKey]vk.Pipeline
}

var sharedKits struct {
	sync.Mutex
	m map[*vulkan.Device]*staticKit
}

// init makes the kit: the device's shared objects (made by the first
// kit of the device), then the kit's own.
func (k *kit) init() error {
	sharedKits.Lock()
	st := sharedKits.m[k.dev]
	if st == nil {
		if err := k.initStatic(); err != nil {
			sharedKits.Unlock()
			return err
		}
		st = &staticKit{modules: k.modules, setsLay: k.setsLay, compLay: k.compLay, gfxLay: k.gfxLay, gfxLayX: k.gfxLayX, meshLay: k.meshLay,
			compPipes: k.compPipes, gfxPipes: k.gfxPipes}
		if sharedKits.m == nil {
			sharedKits.m = map[*vulkan.Device]*staticKit{}
		}
		sharedKits.m[k.dev] = st
		dev := k.dev
		k.hooks.OnClose(func() { destroyShared(dev) })
	}
	sharedKits.Unlock()
	k.static = st
	k.modules, k.setsLay, k.compLay, k.gfxLay, k.gfxLayX, k.meshLay = st.modules, st.setsLay, st.compLay, st.gfxLay, st.gfxLayX, st.meshLay
	k.compPipes, k.gfxPipes = st.compPipes, st.gfxPipes
	return k.initRest()
}

// lockPipes locks the shared pipeline maps; the result unlocks them.
func (k *kit) lockPipes() func() {
	if k.static == nil {
		return func() {}
	}
	k.static.mu.Lock()
	return k.static.mu.Unlock
}

// releaseShared drops the kit's references to the shared objects, so that
// close destroys only its own.
func (k *kit) releaseShared() {
	if k.static == nil {
		return
	}
	k.modules, k.compPipes, k.gfxPipes = nil, nil, nil
	k.setsLay = [numStages]vk.DescriptorSetLayout{}
	k.compLay, k.gfxLay, k.gfxLayX, k.meshLay = vk.NullPipelineLayout, vk.NullPipelineLayout, vk.NullPipelineLayout, vk.NullPipelineLayout
	k.static = nil
}

// destroyShared destroys a closing device's shared objects.
func destroyShared(dev *vulkan.Device) {
	sharedKits.Lock()
	st := sharedKits.m[dev]
	delete(sharedKits.m, dev)
	sharedKits.Unlock()
	if st == nil {
		return
	}
	vd := dev.Handle()
	for _, pl := range st.gfxPipes {
		vk.DestroyPipeline(vd, pl, nil)
	}
	for _, pl := range st.compPipes {
		vk.DestroyPipeline(vd, pl, nil)
	}
	for _, l := range []vk.PipelineLayout{st.compLay, st.gfxLay, st.gfxLayX, st.meshLay} {
		if l != vk.NullPipelineLayout {
			vk.DestroyPipelineLayout(vd, l, nil)
		}
	}
	for _, l := range st.setsLay {
		if l != vk.NullDescriptorSetLayout {
			vk.DestroyDescriptorSetLayout(vd, l, nil)
		}
	}
	for _, m := range st.modules {
		vk.DestroyShaderModule(vd, m, nil)
	}
}
