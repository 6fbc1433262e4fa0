package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"k8s.io/client-go/tools/clientcmd"
)

// The child runs one variant's informer in a process of its own, so that
// heaps of different variants never mix. It talks to the parent over its
// standard streams, one JSON message per line on stdout and one command
// line on stdin:
//
//	child  -> {"phase":"synced", ...}     initial sync measured
//	parent -> "events\n"                  the child reads its CPU time
//	child  -> {"phase":"counting"}
//	parent -> "events-done <namespace/name> <resourceVersion>\n"
//	                                      the parent changed pods, this one
//	                                      last
//	child  -> {"phase":"events", ...}     CPU time until that change is
//	                                      cached
//	parent -> "relist <namespace/name> <resourceVersion>\n"
//	                                      the connection is cut, the history
//	                                      moved on and was compacted
//	child  -> {"phase":"sampling"}        heap sampler running
//	                                      (the parent restores the connection)
//	child  -> {"phase":"done", ...}       back in sync after the relist
const (
	phaseSynced   = "synced"
	phaseCounting = "counting"
	phaseEvents   = "events"
	phaseSampling = "sampling"
	phaseDone     = "done"
)

// The parent's commands.
const (
	cmdEvents     = "events"
	cmdEventsDone = "events-done"
	cmdRelist     = "relist"
)

// childResult is what a child measures; the parent adds the API server's
// side.
type childResult struct {
	// Phase is the message's place in the protocol (phaseSynced, ...);
	// Variant the variant measured.
	Phase   string `json:"phase"`
	Variant string `json:"variant,omitempty"`

	// SyncSeconds is the time from Start (Run) until HasSynced.
	SyncSeconds float64 `json:"syncSeconds,omitempty"`
	// BaselineHeap is HeapAlloc after two GCs before the informer existed.
	BaselineHeap uint64 `json:"baselineHeap,omitempty"`
	// HeapAfterSync is HeapAlloc right after HasSynced.
	HeapAfterSync uint64 `json:"heapAfterSync,omitempty"`
	// LiveHeap and HeapInuse are read after two forced GCs.
	LiveHeap  uint64 `json:"liveHeap,omitempty"`
	HeapInuse uint64 `json:"heapInuse,omitempty"`
	// Objects is the number of cached objects after the initial sync;
	// WithManagedFields how many of them carry managedFields.
	Objects           int `json:"objects,omitempty"`
	WithManagedFields int `json:"withManagedFields,omitempty"`
	// InitialLists and InitialWatchLists count the initial-list requests
	// of the first sync, by protocol.
	InitialLists      int64 `json:"initialLists,omitempty"`
	InitialWatchLists int64 `json:"initialWatchLists,omitempty"`
	// ProtobufResponses counts the responses to those requests that came
	// as protobuf.
	ProtobufResponses int64 `json:"protobufResponses,omitempty"`
	// InitialBytes is the body bytes of the pod responses read until
	// HasSynced: what the replica received for its initial list;
	// GzippedResponses how many of those responses came gzipped (the
	// bytes are counted after decompression).
	InitialBytes     int64 `json:"initialBytes,omitempty"`
	GzippedResponses int64 `json:"gzippedResponses,omitempty"`

	// EventCPUSeconds is the child's user+system CPU time from the
	// "events" command until the last changed pod was cached;
	// EventSeconds the wall time.
	EventCPUSeconds float64 `json:"eventCPUSeconds,omitempty"`
	EventSeconds    float64 `json:"eventSeconds,omitempty"`

	// RelistPeakHeap is the largest HeapAlloc sampled from the restore
	// of the connection until the informer held the changed objects
	// again; RelistSeconds that time.
	RelistPeakHeap uint64 `json:"relistPeakHeap,omitempty"`
	// RelistPeakLiveHeap is the largest live heap that a collection during
	// the relist found (runtime/metrics /gc/heap/live:bytes): the memory
	// the relist needed, garbage excluded.
	RelistPeakLiveHeap uint64  `json:"relistPeakLiveHeap,omitempty"`
	RelistSeconds      float64 `json:"relistSeconds,omitempty"`
	RelistSamples      int     `json:"relistSamples,omitempty"`
	// Relists and RelistWatchLists count the initial-list requests after
	// the first sync (lists, streamed lists).
	Relists                int64 `json:"relists,omitempty"`
	RelistWatchLists       int64 `json:"relistWatchLists,omitempty"`
	ObjectsAfter           int   `json:"objectsAfter,omitempty"`
	WithManagedFieldsAfter int   `json:"withManagedFieldsAfter,omitempty"`
}

// isChild reports whether args (without the program name) are a child's
// command line (flags -variant and -kubeconfig). The smoke test's TestMain
// checks it too: there the test binary serves as the child.
func isChild(args []string) bool {
	for _, a := range args {
		if a == "-variant" || strings.HasPrefix(a, "-variant=") {
			return true
		}
	}
	return false
}

// childMain runs a child with args (without the program name) and returns
// the exit code.
func childMain(args []string, stdin io.Reader, stdout io.Writer) int {
	fs := flag.NewFlagSet("scalebench child", flag.ContinueOnError)
	variant := fs.String("variant", "", "variant to run")
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig of the API server (through the parent's proxy)")
	timeout := fs.Duration("timeout", 20*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := runChild(*variant, *kubeconfig, *timeout, stdin, stdout); err != nil {
		fmt.Fprintf(os.Stderr, "scalebench %s: %v\n", *variant, err)
		return 1
	}
	return 0
}

func runChild(variant, kubeconfig string, timeout time.Duration, stdin io.Reader, stdout io.Writer) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = 1000, 2000
	counts := &requestCounts{}
	cfg.Wrap(counts.wrap)
	enc := json.NewEncoder(stdout)
	deadline := time.Now().Add(timeout)

	res := childResult{Phase: phaseSynced, Variant: variant}
	res.BaselineHeap, _ = liveHeap()
	stopProfile, err := startCPUProfile(variant)
	if err != nil {
		return err
	}
	inf, t0, err := startVariant(variant, cfg)
	if err != nil {
		return err
	}
	defer inf.stop()
	for !inf.HasSynced() {
		if time.Now().After(deadline) {
			return errors.New("initial sync timed out")
		}
		time.Sleep(time.Millisecond)
	}
	res.SyncSeconds = time.Since(t0).Seconds()
	if err := stopProfile(); err != nil {
		return err
	}
	if err := readSynced(&res, inf, counts); err != nil {
		return err
	}
	if err := enc.Encode(res); err != nil {
		return err
	}
	if isFloor(variant) {
		return nil // it measures the initial sync only
	}

	cmds := bufio.NewReader(stdin)
	if err := measureEvents(variant, inf, cmds, enc, deadline); err != nil {
		return err
	}
	return measureRelist(inf, counts, res, cmds, enc, deadline)
}

// readSynced fills in what res reports right after HasSynced: the heap,
// the requests and bytes of the initial list, and the cached objects,
// which for a sharded variant must all be in its shard.
func readSynced(res *childResult, inf started, counts *requestCounts) error {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.HeapAfterSync = ms.HeapAlloc
	res.InitialBytes, res.GzippedResponses = counts.bytes.Load(), counts.gzipped.Load()
	res.LiveHeap, res.HeapInuse = liveHeap()
	if err := writeHeapProfile(res.Variant); err != nil {
		return err
	}
	res.InitialLists, res.InitialWatchLists = counts.lists.Load(), counts.watchLists.Load()
	res.ProtobufResponses = counts.protobuf.Load()
	res.Objects, res.WithManagedFields = countObjects(inf.informerUnderTest)
	return checkShard(res.Variant, inf)
}

// checkShard fails when variant is sharded and inf holds an object
// outside its shard.
func checkShard(variant string, inf informerUnderTest) error {
	sel, ok, err := variantShard(variant)
	if err != nil || !ok {
		return err
	}
	return checkShardCache(variant, sel, inf)
}

// measureRelist measures the relist the parent forces after its "relist"
// command: the heap sampled until the changed pod the command names is
// cached at its resourceVersion.
func measureRelist(inf started, counts *requestCounts, res childResult, cmds *bufio.Reader, enc *json.Encoder, deadline time.Time) error {
	key, rv, err := readCommand(cmds, cmdRelist)
	if err != nil {
		return err
	}
	relistsBefore := counts.relists()
	listsBefore, watchListsBefore := counts.lists.Load(), counts.watchLists.Load()
	runtime.GC()
	runtime.GC()

	sampler := startHeapSampler()
	if err := enc.Encode(childResult{Phase: phaseSampling}); err != nil {
		return err
	}
	t1 := time.Now()
	for {
		if counts.relists() > relistsBefore {
			if obj, ok := inf.get(key); ok && obj.GetResourceVersion() == rv {
				break
			}
		}
		if time.Now().After(deadline) {
			sampler.stop()
			return fmt.Errorf("no relist within the timeout (initial-list requests %d, before %d)", counts.relists(), relistsBefore)
		}
		time.Sleep(time.Millisecond)
	}
	res.RelistSeconds = time.Since(t1).Seconds()
	sampler.stop()
	res.Phase = phaseDone
	res.RelistPeakHeap = sampler.peak.Load()
	res.RelistPeakLiveHeap = sampler.peakLive.Load()
	res.RelistSamples = int(sampler.samples.Load())
	res.Relists = counts.lists.Load() - listsBefore
	res.RelistWatchLists = counts.watchLists.Load() - watchListsBefore
	res.ObjectsAfter, res.WithManagedFieldsAfter = countObjects(inf)
	if err := checkShard(res.Variant, inf); err != nil {
		return fmt.Errorf("after the relist: %w", err)
	}
	return enc.Encode(res)
}

// liveHeap collects garbage twice and returns HeapAlloc and HeapInuse.
func liveHeap() (alloc, inuse uint64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, ms.HeapInuse
}

// countObjects returns the number of cached objects and how many carry
// managedFields.
func countObjects(inf informerUnderTest) (n, withManagedFields int) {
	if f, ok := inf.(*floorClient); ok {
		return f.received(), 0
	}
	for _, k := range inf.keys() {
		obj, ok := inf.get(k)
		if !ok {
			continue
		}
		n++
		if len(obj.GetManagedFields()) > 0 {
			withManagedFields++
		}
	}
	return n, withManagedFields
}

// measureEvents measures the CPU time the informer spends on watch
// events: from the parent's "events" command, while the parent changes
// pods, until the change its "events-done" command names is cached (the
// events of one watch arrive in order, so every earlier one was handled).
// The child blocks on its standard input meanwhile: no polling is billed.
func measureEvents(variant string, inf started, cmds *bufio.Reader, enc *json.Encoder, deadline time.Time) error {
	line, err := cmds.ReadString('\n')
	if err != nil {
		return fmt.Errorf("read the %s command: %w", cmdEvents, err)
	}
	if strings.TrimSpace(line) != cmdEvents {
		return fmt.Errorf("bad command %q, want %q", line, cmdEvents)
	}
	runtime.GC()
	stopProfile, err := startEventsCPUProfile(variant)
	if err != nil {
		return err
	}
	cpu0, err := ownCPU()
	if err != nil {
		return err
	}
	t0 := time.Now()
	if err := enc.Encode(childResult{Phase: phaseCounting}); err != nil {
		return err
	}
	key, rv, err := readCommand(cmds, cmdEventsDone)
	if err != nil {
		return err
	}
	for {
		if obj, ok := inf.get(key); ok && obj.GetResourceVersion() == rv {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the change of %s to resourceVersion %s never reached the cache", key, rv)
		}
		time.Sleep(time.Millisecond)
	}
	cpu1, err := ownCPU()
	if err != nil {
		return err
	}
	if err := stopProfile(); err != nil {
		return err
	}
	return enc.Encode(childResult{Phase: phaseEvents, EventCPUSeconds: cpu1 - cpu0, EventSeconds: time.Since(t0).Seconds()})
}

// readCommand reads the parent's next command, which must be verb with a
// key and a resourceVersion.
func readCommand(cmds *bufio.Reader, verb string) (key, rv string, err error) {
	line, err := cmds.ReadString('\n')
	if err != nil {
		return "", "", fmt.Errorf("read the %s command: %w", verb, err)
	}
	var got string
	if _, err := fmt.Sscanf(line, "%s %s %s", &got, &key, &rv); err != nil || got != verb {
		return "", "", fmt.Errorf("bad command %q, want %q <namespace/name> <resourceVersion>", line, verb)
	}
	return key, rv, nil
}

// ownCPU is this process's user plus system CPU time, in seconds (to the
// microsecond: getrusage, not /proc's clock ticks).
func ownCPU() (float64, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds(), nil
}

// heapSampler samples HeapAlloc and the live heap the last GC found every
// 5 ms until stopped, keeping the peaks.
type heapSampler struct {
	peak, peakLive atomic.Uint64
	samples        atomic.Int64
	done           chan struct{}
	wg             sync.WaitGroup
}

// startHeapSampler starts sampling at once.
func startHeapSampler() *heapSampler {
	h := &heapSampler{done: make(chan struct{})}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		var ms runtime.MemStats
		live := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			rtmetrics.Read(live)
			h.samples.Add(1)
			if ms.HeapAlloc > h.peak.Load() {
				h.peak.Store(ms.HeapAlloc)
			}
			if v := live[0].Value.Uint64(); v > h.peakLive.Load() {
				h.peakLive.Store(v)
			}
			select {
			case <-h.done:
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

// stop ends the sampling and waits for the last sample.
func (h *heapSampler) stop() {
	close(h.done)
	h.wg.Wait()
}
