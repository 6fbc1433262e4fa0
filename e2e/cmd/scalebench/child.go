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
	"time"

	"k8s.io/client-go/tools/clientcmd"
)

// The child runs one variant's informer in a process of its own, so that
// heaps of different variants never mix. It talks to the parent over its
// standard streams, one JSON message per line on stdout and one command
// line on stdin:
//
//	child  -> {"phase":"synced", ...}     initial sync measured
//	parent -> "relist <namespace/name> <resourceVersion>\n"
//	                                      the connection is cut, the history
//	                                      moved on and was compacted
//	child  -> {"phase":"sampling"}        heap sampler running
//	                                      (the parent restores the connection)
//	child  -> {"phase":"done", ...}       back in sync after the relist
const (
	phaseSynced   = "synced"
	phaseSampling = "sampling"
	phaseDone     = "done"
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
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.HeapAfterSync = ms.HeapAlloc
	res.LiveHeap, res.HeapInuse = liveHeap()
	res.InitialLists, res.InitialWatchLists = counts.lists.Load(), counts.watchLists.Load()
	res.Objects, res.WithManagedFields = countObjects(inf)
	if err := enc.Encode(res); err != nil {
		return err
	}

	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil {
		return fmt.Errorf("read the relist command: %w", err)
	}
	var key, rv string
	if _, err := fmt.Sscanf(line, "relist %s %s", &key, &rv); err != nil {
		return fmt.Errorf("bad relist command %q: %w", line, err)
	}
	relistsBefore := counts.relists()
	listsBefore, watchListsBefore := counts.lists.Load(), counts.watchLists.Load()
	runtime.GC()
	runtime.GC()

	var (
		peak     atomic.Uint64
		peakLive atomic.Uint64
		samples  atomic.Int64
		wg       sync.WaitGroup
	)
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		live := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			rtmetrics.Read(live)
			samples.Add(1)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			if v := live[0].Value.Uint64(); v > peakLive.Load() {
				peakLive.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
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
			close(stop)
			wg.Wait()
			return fmt.Errorf("no relist within the timeout (initial-list requests %d, before %d)", counts.relists(), relistsBefore)
		}
		time.Sleep(time.Millisecond)
	}
	res.RelistSeconds = time.Since(t1).Seconds()
	close(stop)
	wg.Wait()
	res.Phase = phaseDone
	res.RelistPeakHeap = peak.Load()
	res.RelistPeakLiveHeap = peakLive.Load()
	res.RelistSamples = int(samples.Load())
	res.Relists = counts.lists.Load() - listsBefore
	res.RelistWatchLists = counts.watchLists.Load() - watchListsBefore
	res.ObjectsAfter, res.WithManagedFieldsAfter = countObjects(inf)
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
