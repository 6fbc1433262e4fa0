package cache

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/go-logr/logr/funcr"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/compact"
	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	testingclock "k8s.io/utils/clock/testing"
)

// guardMetrics counts what a compaction guard reports.
type guardMetrics struct {
	mu                sync.Mutex
	checked, mutation int
	objects           int
}

func (m *guardMetrics) ValuesChecked(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.checked += n
}

func (m *guardMetrics) MutationFound(objects int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mutation++
	m.objects += objects
}

// guardLog keeps the lines a compaction guard logs.
type guardLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *guardLog) add(_, args string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, args)
}

func (l *guardLog) snapshot() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

// cachedLabels returns the cached objects by name, and the names of the
// objects sharing each labels map.
func cachedLabels(inf *informerRun) (map[string]*metav1.PartialObjectMetadata, map[unsafe.Pointer][]string) {
	byName, sharing := map[string]*metav1.PartialObjectMetadata{}, map[unsafe.Pointer][]string{}
	for _, o := range inf.GetStore().List() {
		m := o.(*metav1.PartialObjectMetadata)
		byName[m.Name] = m
		sharing[mapHeader(m.Labels)] = append(sharing[mapHeader(m.Labels)], m.Name)
	}
	return byName, sharing
}

// cacheEqualsServer reports whether every cached object is deep-equal to
// the server's, and names one that is not.
func cacheEqualsServer(srv *modelServer, inf *informerRun) (bool, string) {
	want := srv.objects()
	if got := len(inf.GetStore().List()); got != len(want) {
		return false, fmt.Sprintf("%d cached objects, %d on the server", got, len(want))
	}
	for _, w := range want {
		o := w.(*metav1.PartialObjectMetadata)
		got, ok, _ := inf.GetStore().GetByKey(o.Namespace + "/" + o.Name)
		if !ok || !reflect.DeepEqual(got, o) {
			return false, fmt.Sprintf("cached %s is %v, the server's %v", o.Name, got, o)
		}
	}
	return true, ""
}

// checkGuardReported checks that the guard counted one mutation of the
// part shared by the objects named shared, and logged it once with a key.
func checkGuardReported(t *testing.T, st compact.GuardStats, metrics *guardMetrics, logs *guardLog, shared []string) {
	t.Helper()
	if st.Objects != len(shared) || metrics.mutation != 1 || metrics.objects != len(shared) || metrics.checked == 0 {
		t.Errorf("guard stats %+v, metrics %+v: want 1 mutation of %d objects %v counted", st, metrics, len(shared), shared)
	}
	var named []string
	for _, line := range logs.snapshot() {
		if strings.Contains(line, `"path"=".ObjectMeta.Labels"`) {
			named = append(named, line)
		}
	}
	if len(named) != 1 || !strings.Contains(named[0], `"key"="ns/o`) {
		t.Errorf("log lines naming .ObjectMeta.Labels with a key: %q, want 1 (all: %q)", named, logs.snapshot())
	}
}

// mutateSharedLabels mutates the labels of the cached object "ob" and
// returns it with the names of the cached objects sharing its labels map,
// after checking they all show the damage.
func mutateSharedLabels(t *testing.T, inf *informerRun) (*metav1.PartialObjectMetadata, []string) {
	t.Helper()
	byName, sharing := cachedLabels(inf)
	victim := byName["ob"]
	shared := sharing[mapHeader(victim.Labels)]
	if len(shared) < 2 {
		t.Fatalf("the labels of %s are shared by %v only", victim.Name, shared)
	}
	victim.Labels["tier"] = "mutated" // the bug: a cached object mutated
	for _, name := range shared {
		if byName[name].Labels["tier"] != "mutated" {
			t.Fatalf("%s, sharing the labels, does not show the damage", name)
		}
	}
	return victim, shared
}

// A controller that mutates a cached object's labels changes every object
// sharing the labels map (compaction); the guard finds the mutated map,
// counts and logs it once, removes it from the table, and the informer
// relists so that its cache equals the server's again. With the guard off
// the damage stays.
func TestCompactionGuardRepairsAMutatedSharedPartOfARunningInformer(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, tt := range []struct {
		name      string
		disabled  bool
		watchList bool
	}{{"guard on", false, false}, {"guard on, relisting by watch list", false, true}, {"guard disabled", true, false}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(testChecksEnv, "false") // the test binaries' detector off, as in production
			t.Setenv(mutationDetectorEnv, "false")
			t.Setenv(compactionGuardEnv, "")
			logs, metrics := &guardLog{}, &guardMetrics{}
			logger := funcr.New(logs.add, funcr.Options{})
			// The guard's ticks never come (a fake clock nobody steps): the
			// test runs its rounds, in its own goroutine, after its write.
			guard := compact.NewGuard(compact.Default(), compact.GuardOptions{PerRound: 1 << 20, Budget: time.Hour,
				Clock: testingclock.NewFakeClock(time.Now()), Metrics: metrics, Logger: &logger})
			srv := newModelServer()
			addLabelled(t, srv, 6)
			inf := startInformer(t, srv, SharedIndexInformerOptions{Compact: true, CompactionGuard: guard, DisableCompactionGuard: tt.disabled, UseWatchList: tt.watchList}, nil)
			defer inf.stop(t)
			waitConverged(t, srv, inf)
			if ok, why := cacheEqualsServer(srv, inf); !ok {
				t.Fatalf("before the mutation: %s", why)
			}
			lists, watches := srv.counts()

			victim, shared := mutateSharedLabels(t, inf)
			guard.Round()
			st := guard.Stats()
			if st.Mutations != 1 {
				t.Fatalf("guard stats %+v, want 1 mutation", st)
			}
			if tt.disabled {
				if st.Objects != 0 || victim.Labels["tier"] != "mutated" {
					t.Errorf("with the guard disabled the informer was told: %+v", st)
				}
				return
			}
			checkGuardReported(t, st, metrics, logs, shared)
			cachetest.EventuallyExplained(t, func() (bool, string) { return cacheEqualsServer(srv, inf) })
			// A relist is a list, or a watch list (a watch from "").
			if afterLists, afterWatches := srv.counts(); afterLists+afterWatches <= lists+watches {
				t.Errorf("the informer was repaired without a relist (%d lists and watches before, %d after)", lists+watches, afterLists+afterWatches)
			}
			_, sharing := cachedLabels(inf)
			if _, held := sharing[mapHeader(victim.Labels)]; held {
				t.Error("a cached object still holds the mutated labels map")
			}
			if guard.Round(); guard.Stats().Mutations != 1 {
				t.Errorf("after the repair: %+v, want no new mutation", guard.Stats())
			}
		})
	}
}

func TestCompactionGuardIsOnByDefaultOutsideTests(t *testing.T) {
	cases := []struct {
		name       string
		env        string
		testChecks bool
		compacting bool
		disabled   bool
		want       bool
	}{
		{"production binary, compacting", "", false, true, false, true},
		{"not compacting", "", false, false, false, false},
		{"test binary (the mutation detector is on)", "", true, true, false, false},
		{"disabled by option", "", false, true, true, false},
		{"env false", "false", false, true, false, false},
		{"env true in a test binary", "true", true, true, false, true},
		{"option wins over env true", "true", false, true, true, false},
		{"env garbage: the default", "maybe", false, true, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(compactionGuardEnv, tc.env)
			opts := SharedIndexInformerOptions{DisableCompactionGuard: tc.disabled}
			if got := compactionGuardWanted(opts, tc.compacting, tc.testChecks); got != tc.want {
				t.Errorf("compactionGuardWanted = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTaintedObjectsAreNotKeptByARelist(t *testing.T) {
	old := testObject("ns", "a", "5")
	old.UID = "u"
	listed := testObject("ns", "a", "5")
	listed.UID = "u"
	if !unchangedRelist(old, listed) {
		t.Fatal("an unchanged relisted object is not kept")
	}
	tainted.Add(old)
	if unchangedRelist(old, listed) {
		t.Error("a tainted cached object is kept by a relist")
	}
	other := testObject("ns", "b", "5")
	other.UID = "v"
	if !unchangedRelist(other, other) {
		t.Error("an object that is not tainted is replaced by a relist")
	}
}
