package bench_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	"go.uber.org/goleak"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
	"github.com/informer-gen/informer-gen/bench/internal/measure"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

func TestMain(m *testing.M) {
	flag.Parse()
	// Benchmarks measure the cache as a program runs it: in a test binary
	// our compacting informers turn the cache mutation detector on, which
	// keeps a deep copy of every cached object. The smoke tests keep it.
	if b := flag.Lookup("test.bench"); b != nil && b.Value.String() != "" {
		if err := os.Setenv("KUBE_CACHE_MUTATION_DETECTOR", "false"); err != nil {
			panic(err)
		}
	}
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("k8s.io/klog/v2.(*flushDaemon).run.func1"))
}

// smokeContext bounds each smoke measurement.
func smokeContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

var smokeInput = measure.NewInput(dataset.Small)

func TestSmokeSyncFillsTheListerWithEveryObject(t *testing.T) {
	for _, subj := range subject.All() {
		t.Run(subj.Name, func(t *testing.T) {
			ctx := smokeContext(t)
			if _, err := measure.Sync(ctx, smokeInput, subj); err != nil {
				t.Fatal(err)
			}
			l, stop, err := measure.SyncedLister(ctx, smokeInput, subj)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			total := 0
			for _, ns := range smokeInput.Namespaces {
				objs, err := l.List(ns)
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range objs {
					if o.Namespace != ns {
						t.Fatalf("List(%q) returned an object of namespace %q", ns, o.Namespace)
					}
				}
				total += len(objs)
			}
			if total != dataset.Small.Objects {
				t.Errorf("listed %d objects over all namespaces, want %d", total, dataset.Small.Objects)
			}
			got, err := l.Get(dataset.Namespace(7%dataset.Small.Namespaces), dataset.Name(7))
			if err != nil || got.Name != dataset.Name(7) {
				t.Errorf("Get object 7 = %v, %v", got, err)
			}
			if _, err := l.Get(dataset.Namespace(0), "absent"); !apierrors.IsNotFound(err) {
				t.Errorf("Get of an absent object: err = %v, want NotFound", err)
			}
		})
	}
}

func TestSmokeUpdatesReachEveryHandlerInFinalState(t *testing.T) {
	for _, subj := range subject.All() {
		for _, handlers := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/%d-handlers", subj.Name, handlers), func(t *testing.T) {
				res, err := measure.Updates(smokeContext(t), smokeInput, subj, handlers)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Calls) != handlers {
					t.Fatalf("got calls of %d handlers, want %d", len(res.Calls), handlers)
				}
				for i, c := range res.Calls {
					if c < int64(dataset.Small.Updated()) || c > int64(dataset.Small.Updates) {
						t.Errorf("handler %d got %d updates, want between %d and %d", i, c, dataset.Small.Updated(), dataset.Small.Updates)
					}
				}
				if res.EventsPerSec <= 0 {
					t.Errorf("events/s = %v", res.EventsPerSec)
				}
			})
		}
	}
}

func TestSmokeStalledHandlerCatchesUpToTheFinalState(t *testing.T) {
	for _, subj := range append(subject.All(), subject.OursLatestOnly()) {
		t.Run(subj.Name, func(t *testing.T) {
			res, err := measure.Stalled(smokeContext(t), smokeInput, subj)
			if err != nil {
				t.Fatal(err)
			}
			if !res.FinalOK {
				t.Error("a handler did not end with the final state")
			}
			if res.StalledCalls < int64(dataset.Small.Updated()) || res.StalledCalls > int64(dataset.Small.Updates) {
				t.Errorf("stalled handler got %d updates, want between %d and %d", res.StalledCalls, dataset.Small.Updated(), dataset.Small.Updates)
			}
			// Only LatestOnly drops the old object, and only for merged
			// updates, which a stall of 2k updates on 1k keys produces.
			if latestOnly := subj.Name == subject.OursLatestOnly().Name; latestOnly != (res.NilOldCalls > 0) {
				t.Errorf("%d updates without the old object, want them only with LatestOnly", res.NilOldCalls)
			}
		})
	}
}

func TestSmokeOverheadIsPositive(t *testing.T) {
	for _, subj := range subject.All() {
		t.Run(subj.Name, func(t *testing.T) {
			v, err := measure.Overhead(smokeContext(t), smokeInput, subj)
			if err != nil {
				t.Fatal(err)
			}
			// Every cached object costs at least its key and index entry.
			if v <= 0 || v > 64<<10 {
				t.Errorf("overhead = %.0f B/object, want in (0, 64 KiB]", v)
			}
		})
	}
}

func TestSmokeListerBenchmarksRun(t *testing.T) {
	for _, subj := range subject.All() {
		t.Run(subj.Name, func(t *testing.T) {
			l, stop, err := measure.SyncedLister(smokeContext(t), smokeInput, subj)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			for name, f := range map[string]func(*testing.B, *measure.Input, subject.Lister){
				"List": measure.ListerList, "Get": measure.ListerGet,
			} {
				r := testing.Benchmark(func(b *testing.B) { f(b, smokeInput, l) })
				if r.N == 0 {
					t.Errorf("%s benchmark failed", name)
				}
			}
		})
	}
}

// The live heap per cached object counts at least the decoded struct of
// each object (names are unique, so no cache can share it) and stays
// plausible, for every kind and subject.
func TestSmokeLiveHeapCountsEveryObject(t *testing.T) {
	for _, kind := range measure.Kinds {
		for _, subj := range liveHeapSubjects() {
			t.Run(kind.Name+"/"+subj.Name, func(t *testing.T) {
				v, err := measure.LiveHeap(smokeContext(t), dataset.Small, kind, subj)
				if err != nil {
					t.Fatal(err)
				}
				floor := float64(reflect.TypeOf(kind.Example).Elem().Size())
				if v < floor || v > 64<<10 {
					t.Errorf("live heap = %.0f B/object, want in [%.0f B (the struct), 64 KiB]", v, floor)
				}
			})
		}
	}
}
