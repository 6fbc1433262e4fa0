package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
)

// shared is the cluster the tests share; nil with -short. Tests that inject
// faults into it do not run in parallel with others.
var shared *cluster.Cluster

// binaries are the control-plane executables, for tests that start a
// cluster of their own.
var binaries cluster.Binaries

// running lists every cluster started by this test binary, so that the
// deadline watchdog can stop them all.
var running struct {
	sync.Mutex
	clusters []*cluster.Cluster
}

func track(c *cluster.Cluster) {
	running.Lock()
	defer running.Unlock()
	running.clusters = append(running.clusters, c)
}

// stopAll stops every cluster started so far; Cluster.Stop is idempotent.
func stopAll() {
	running.Lock()
	cs := append([]*cluster.Cluster(nil), running.clusters...)
	running.Unlock()
	for _, c := range cs {
		if err := c.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: stop cluster: %v\n", err)
		}
	}
}

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	os.Exit(run(m))
}

func run(m *testing.M) int {
	before := goleak.IgnoreCurrent()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer stopAll()

	// go test's -timeout panics without running deferred calls, which
	// would leave etcd and kube-apiserver running. Stop them and exit
	// ourselves a little before that happens.
	if f := flag.Lookup("test.timeout"); f != nil {
		if d, err := time.ParseDuration(f.Value.String()); err == nil && d > 0 {
			margin := min(d/10, time.Minute)
			timer := time.AfterFunc(d-margin, func() {
				fmt.Fprintf(os.Stderr, "e2e: test deadline (-timeout %v) nearly reached; stopping the control plane\n", d)
				cancel()
				stopAll()
				os.Exit(2)
			})
			defer timer.Stop()
		}
	}

	stopSignals := stopOnSignal(cancel)
	defer stopSignals()

	start := time.Now()
	var err error
	binaries, err = cluster.EnsureBinaries(ctx)
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		return 1
	}
	c, err := cluster.Start(ctx, cluster.Options{Binaries: binaries})
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		return 1
	}
	track(c)
	shared = c
	fmt.Fprintf(os.Stderr, "e2e: control plane up at %s in %v\n", c.APIServerAddress(), time.Since(start).Round(time.Millisecond))
	code := m.Run()
	if code != 0 {
		return code
	}
	// Every informer, watch and proxy goroutine the tests started must be
	// gone; idle HTTP connections are closed with the control plane.
	stopAll()
	stopSignals()
	if err := goleak.Find(before); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: goroutine leak after the tests: %v\n", err)
		return 1
	}
	return 0
}

// sharedCluster returns the shared cluster or skips the test with -short.
func sharedCluster(t *testing.T) *cluster.Cluster {
	t.Helper()
	if shared == nil {
		t.Skip("needs a kube-apiserver (skipped with -short)")
	}
	return shared
}

// ownCluster starts a cluster for t alone, stopped when t ends.
func ownCluster(t *testing.T, opts cluster.Options) *cluster.Cluster {
	t.Helper()
	if shared == nil {
		t.Skip("needs a kube-apiserver (skipped with -short)")
	}
	opts.Binaries = binaries
	c, err := cluster.Start(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	track(c)
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Errorf("stop cluster: %v", err)
		}
	})
	return c
}

// stopOnSignal stops every cluster and exits when the test binary is
// interrupted (^C reaches the whole foreground process group, but envtest
// starts etcd and kube-apiserver in process groups of their own, so they
// would outlive the test). The returned function ends the watch; it is
// idempotent.
func stopOnSignal(cancel context.CancelFunc) (stop func()) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		select {
		case sig := <-signals:
			fmt.Fprintf(os.Stderr, "e2e: %v; stopping the control plane\n", sig)
			cancel()
			stopAll()
			os.Exit(130)
		case <-done:
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(signals)
			close(done)
			<-ended
		})
	}
}
