package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

func TestReplayBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"replay", "--scale", "0"},
		{"replay", "--scale", "0.3"},
		{"replay", "--scale", "x"},
		{"replay", "--scale", "1.5"},
		{"replay", "--scale", "-4"},
		{"replay", "--runs", "0"},
		{"replay", "--device", "vulkan"},
		{"replay", "-o", "x.json"},
		{"replay", "--format", "yaml"},
		{"replay", "a.json", "b.json"},
		{"replay", "does-not-exist.json"},
	} {
		var out, errb bytes.Buffer
		if got := run(args, &out, &errb); got != exitBadInput {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, got, exitBadInput, errb.String())
		}
		if errb.Len() == 0 {
			t.Errorf("%v: no message on stderr", args)
		}
	}
}

// TestParseScale: --scale takes an integer divisor or the fraction 1/N
// it stands for, and its error says so.
func TestParseScale(t *testing.T) {
	for in, want := range map[string]uint32{"1": 1, "4": 4, "0.25": 4, "1/4": 4, "0.5": 2, "65536": 65536, "1/16": 16} {
		got, err := parseScale(in)
		if err != nil || got != want {
			t.Errorf("parseScale(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "0.3", "1.5", "x", "-4", "65537", "1/0", ""} {
		_, err := parseScale(in)
		if err == nil || !strings.Contains(err.Error(), "integer divisor") || !strings.Contains(err.Error(), "0.25") {
			t.Errorf("parseScale(%q): error %v, want one saying what --scale takes", in, err)
		}
	}
}

// TestReplaySample replays the sample frame, small, on the Vulkan device
// (lavapipe in CI) and checks the JSON report the README promises.
func TestReplaySample(t *testing.T) {
	needReplayDevice(t)
	var out, errb bytes.Buffer
	code := run([]string{"replay", "--runs", "1", "--resolution", "96x64", "--format", "json"}, &out, &errb)
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	var rep map[string]any
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not one JSON report: %v\n%s", err, out.String())
	}
	for _, k := range []string{"digestsEqual", "validationMessages", "transientBytes", "pooledBytes", "gpuNsAliased", "gpuNsUnaliased"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("report lacks %q", k)
		}
	}
	if rep["digestsEqual"] != true || rep["validationMessages"] != float64(0) {
		t.Errorf("digestsEqual %v, validationMessages %v", rep["digestsEqual"], rep["validationMessages"])
	}
	if !strings.Contains(out.String(), `"digests"`) {
		t.Errorf("no per-command digests")
	}
}

// TestReplayQueues: a graph with a command on the compute queue replays
// through the CLI (submissions and semaphores, CompareQueues), with the
// queues in the report; it used to fail telling the user to call an API.
func TestReplayQueues(t *testing.T) {
	needReplayDevice(t)
	g := &aliasplan.Graph{}
	desc := aliasplan.BufferDesc{Size: 1 << 16, Usage: vk.BufferUsageStorageBuffer}
	a, b, c := g.AddBuffer("a", desc), g.AddBuffer("b", desc), g.AddBuffer("c", desc)
	write := func(r aliasplan.ResourceID) aliasplan.Access {
		return aliasplan.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
	}
	g.AddCommand("write.a", write(a))
	g.AddCommandOn(aliasplan.QueueCompute, "a.to.b", g.ReadBuffer(a, vk.StageComputeShader), write(b))
	g.AddCommand("b.to.c", g.ReadBuffer(b, vk.StageComputeShader), write(c))
	g.AddCommand("read.c", g.ReadBuffer(c, vk.StageComputeShader))
	file := filepath.Join(t.TempDir(), "queues.json")
	var buf bytes.Buffer
	if err := format.WriteGraph(&buf, &g.Graph); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"replay", "--runs", "1", "--format", "json", file}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	var rep struct {
		DigestsEqual       bool `json:"digestsEqual"`
		ValidationMessages int  `json:"validationMessages"`
		Queues             *struct {
			Batches    int `json:"batches"`
			Semaphores int `json:"semaphores"`
		} `json:"queues"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not one JSON report: %v\n%s", err, out.String())
	}
	if !rep.DigestsEqual || rep.ValidationMessages != 0 {
		t.Errorf("digestsEqual %v, validationMessages %d", rep.DigestsEqual, rep.ValidationMessages)
	}
	if rep.Queues == nil || rep.Queues.Batches != 3 || rep.Queues.Semaphores == 0 {
		t.Errorf("queues %+v, want 3 batches with semaphores between them", rep.Queues)
	}
}

// needReplayDevice skips (or, with ALIASPLAN_REQUIRE_VULKAN=1, fails)
// where no Vulkan device with validation opens for replay.
func needReplayDevice(t *testing.T) {
	t.Helper()
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	}
	d, err := vulkan.Open(vulkan.Config{Validation: true, Replay: true})
	if err != nil {
		if os.Getenv("ALIASPLAN_REQUIRE_VULKAN") == "1" {
			t.Fatalf("no usable Vulkan device and ALIASPLAN_REQUIRE_VULKAN=1: %v", err)
		}
		t.Skipf("SKIP: no usable Vulkan device with validation, replay not run: %v", err)
	}
	d.Close()
}
