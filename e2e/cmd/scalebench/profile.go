package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
)

// heapProfileEnv names a directory: when set, each child writes the heap
// profile of its live heap right after the initial sync there, as
// <variant>-<pid>.heap (go tool pprof -sample_index=inuse_space). It is
// how the per-object costs in docs/benchmarks.md were broken down.
const heapProfileEnv = "SCALEBENCH_HEAP_PROFILE"

// cpuProfileEnv names a directory: when set, each child writes the CPU
// profile of its initial sync (from Start until HasSynced) there, as
// <variant>-<pid>.cpu. It is how the informer's share of the time to
// HasSynced was broken down.
const cpuProfileEnv = "SCALEBENCH_CPU_PROFILE"

// eventsCPUProfileEnv names a directory: when set, each child writes the
// CPU profile of its watch-event phase (the CPU billed as "informer CPU
// per watch event") there, as <variant>-<pid>.events.cpu. It is how the
// per-event CPU was broken down by function.
const eventsCPUProfileEnv = "SCALEBENCH_EVENTS_CPU_PROFILE"

// writeHeapProfile writes the heap profile of variant when heapProfileEnv
// asks for it. A heap profile is as of the collection before the last
// one, so it collects twice more first.
func writeHeapProfile(variant string) error {
	dir := os.Getenv(heapProfileEnv)
	if dir == "" {
		return nil
	}
	runtime.GC()
	runtime.GC()
	name := filepath.Join(dir, fmt.Sprintf("%s-%d.heap", variant, os.Getpid()))
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("%s: %w", heapProfileEnv, err)
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return f.Close()
}

// startCPUProfile starts the CPU profile of variant's sync when
// cpuProfileEnv asks for it; the function it returns stops it (a no-op
// otherwise).
func startCPUProfile(variant string) (stop func() error, err error) {
	return startProfileIn(cpuProfileEnv, fmt.Sprintf("%s-%d.cpu", variant, os.Getpid()))
}

// startEventsCPUProfile starts the CPU profile of variant's watch-event
// phase when eventsCPUProfileEnv asks for it, as startCPUProfile does.
func startEventsCPUProfile(variant string) (stop func() error, err error) {
	return startProfileIn(eventsCPUProfileEnv, fmt.Sprintf("%s-%d.events.cpu", variant, os.Getpid()))
}

// startProfileIn starts a CPU profile written to file in the directory
// the environment variable env names; without it, it does nothing.
func startProfileIn(env, file string) (stop func() error, err error) {
	dir := os.Getenv(env)
	if dir == "" {
		return func() error { return nil }, nil
	}
	name := filepath.Join(dir, file)
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", env, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}
