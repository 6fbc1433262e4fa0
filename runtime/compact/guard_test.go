package compact

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/go-logr/logr/funcr"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"
)

// objectsHolder is a Holder over a fixed set of objects, keyed by name;
// it records what it was told.
type objectsHolder struct {
	objs      map[string]any
	mu        sync.Mutex
	corrupted []Mutation
}

func (h *objectsHolder) Corrupted(m Mutation) []Held {
	h.mu.Lock()
	h.corrupted = append(h.corrupted, m)
	h.mu.Unlock()
	var held []Held
	for key, obj := range h.objs {
		if paths := m.PathsIn(obj); len(paths) > 0 {
			held = append(held, Held{Key: key, Type: fmt.Sprintf("%T", obj), Paths: paths})
		}
	}
	slices.SortFunc(held, func(a, b Held) int { return strings.Compare(a.Key, b.Key) })
	return held
}

// logLines is a logger that keeps its lines.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logger() *klog.Logger {
	lg := funcr.New(func(_, args string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.lines = append(l.lines, args)
	}, funcr.Options{})
	return &lg
}

func (l *logLines) matching(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

// testGuard is a guard over table that checks every copy in one round and
// runs rounds only when the test calls Round.
func testGuard(table *Table, logs *logLines) *Guard {
	return NewGuard(table, GuardOptions{PerRound: 1 << 20, Budget: time.Hour,
		Clock: testingclock.NewFakeClock(time.Unix(0, 0)), Logger: logs.logger()})
}

func TestGuardFindsRemovesAndReportsAMutatedSharedPart(t *testing.T) {
	cases := []guardCase{
		{"labels map (reflective walk)", func(w *widget) { w.Labels["tier"] = "back" }, ".ObjectMeta.Labels",
			func(w, m *widget) bool { return mapData(w.Labels) == mapData(m.Labels) }},
		{"args slice element", func(w *widget) { w.Containers[0].Args[0] = "--v=9" }, ".Containers[0].Args",
			func(w, m *widget) bool {
				return unsafe.SliceData(w.Containers[0].Args) == unsafe.SliceData(m.Containers[0].Args)
			}},
		{"resource map", func(w *widget) { w.Containers[0].Resources["cpu"] = resource.MustParse("2") }, ".Containers[0].Resources",
			func(w, m *widget) bool {
				return mapData(w.Containers[0].Resources) == mapData(m.Containers[0].Resources)
			}},
		{"pointed-to probe", func(w *widget) { w.Containers[0].Probe.Port = 1 }, ".Containers[0].Probe",
			func(w, m *widget) bool { return w.Containers[0].Probe == m.Containers[0].Probe }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.run(t) })
	}
}

// guardCase mutates one kind of shared part of a widget.
type guardCase struct {
	name   string
	mutate func(w *widget)
	path   string
	// shared reports whether w holds the part the case mutates as
	// mutated holds it.
	shared func(w, mutated *widget) bool
}

// run compacts widgets sharing the part, mutates it in one, and checks
// that a round finds it, its holders are told with the path, it is logged
// once and no longer handed out.
func (tc guardCase) run(t *testing.T) {
	table, logs := NewTable(), &logLines{}
	holder := &objectsHolder{objs: map[string]any{}}
	var ws []*widget
	for i := range 4 {
		w := decodeWidget(t, fmt.Sprintf("w%d", i), "/healthz", []string{"--v=2"}, "1")
		table.Object(w)
		ws = append(ws, w)
		holder.objs[w.Name] = w
	}
	g := testGuard(table, logs)
	defer g.Hold(holder)()
	if g.Round(); g.Stats().Mutations != 0 {
		t.Fatalf("mutations found before any: %+v", g.Stats())
	}
	victim := ws[2]
	var sharing []string
	for _, w := range ws {
		if tc.shared(w, victim) {
			sharing = append(sharing, w.Name)
		}
	}
	if len(sharing) < 2 {
		t.Fatalf("the part is held by %v only: nothing shared to mutate", sharing)
	}
	tc.mutate(victim)
	g.Round()
	// The part is found, and so is any shared value holding it
	// (a shared containers slice holds the args slice).
	st := g.Stats()
	if st.Mutations < 1 {
		t.Fatalf("stats %+v, want a mutation", st)
	}
	var keys []string
	for _, m := range holder.corrupted {
		for _, h := range holder.Corrupted(m) {
			if slices.Contains(h.Paths, tc.path) {
				keys = append(keys, h.Key)
			}
		}
	}
	if !slices.Equal(keys, sharing) {
		t.Errorf("objects holding the mutated part at %s: %v, want %v", tc.path, keys, sharing)
	}
	if n := logs.matching(tc.path); n != 1 {
		t.Errorf("%d log lines name %s, want 1: %q", n, tc.path, logs.lines)
	}
	// The mutated copy is no longer handed out: a new object with
	// the victim's new value does not get it.
	fresh := decodeWidget(t, "fresh", "/healthz", []string{"--v=2"}, "1")
	tc.mutate(fresh)
	table.Object(fresh)
	if tc.shared(fresh, victim) {
		t.Error("a new object was given the mutated copy")
	}
	if g.Round(); g.Stats().Mutations != st.Mutations {
		t.Errorf("the mutation was reported again: %+v, was %+v", g.Stats(), st)
	}
}

func TestGuardFindsAMutatedUnstructuredLabelsMap(t *testing.T) {
	table, logs := NewTable(), &logLines{}
	holder := &objectsHolder{objs: map[string]any{}}
	var objs []*unstructured.Unstructured
	for i := range 3 {
		u := decodeUnstructured(t, unstructuredPod(i, "Running"))
		table.Object(u)
		objs = append(objs, u)
		holder.objs[u.GetName()] = u
	}
	g := testGuard(table, logs)
	defer g.Hold(holder)()
	g.Round()
	labels := objs[1].Object["metadata"].(map[string]any)["labels"].(map[string]any)
	labels["app"] = "mutated"
	g.Round()
	if st := g.Stats(); st.Mutations != 1 || st.Objects < 2 {
		t.Fatalf("stats %+v, want 1 mutation held by 2 or more objects", st)
	}
	if n := logs.matching("[metadata][labels]"); n != 1 {
		t.Errorf("%d log lines name [metadata][labels], want 1: %q", n, logs.lines)
	}
}

func TestGuardFindsNoMutationInUntouchedObjects(t *testing.T) {
	table, logs := NewTable(), &logLines{}
	var keep []any // canonical copies are held weakly: keep them alive
	defer func() { runtime.KeepAlive(keep) }()
	for i := range 50 {
		objs := []any{
			decodeWidget(t, fmt.Sprintf("w%d", i), fmt.Sprintf("/p%d", i%5), []string{"--v=2", fmt.Sprint(i % 3)}, fmt.Sprint(i%4+1)),
			decodeUnstructured(t, unstructuredPod(i, "Running")),
			decodeUnstructured(t, unstructuredCR(i)),
		}
		for _, o := range objs {
			table.Object(o)
		}
		keep = append(keep, objs...)
	}
	g := testGuard(table, logs)
	if n := g.Round(); n == 0 {
		t.Fatal("the round checked no copy")
	}
	if st := g.Stats(); st.Mutations != 0 {
		t.Errorf("untouched copies reported mutated: %+v %q", st, logs.lines)
	}
}

// steppingClock advances by step each time it is read: every copy a
// round checks costs step.
type steppingClock struct {
	*testingclock.FakeClock
	step time.Duration
}

func (c steppingClock) Now() time.Time {
	c.Step(c.step)
	return c.FakeClock.Now()
}

func (c steppingClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// checkableCopies counts the live canonical copies of table that have a
// check.
func checkableCopies(table *Table) int {
	live := 0
	for i := range table.shards {
		for _, sl := range table.shards[i].slots {
			if sl.hash != 0 && sl.check != nil && sl.ptr.Value() != nil {
				live++
			}
		}
	}
	return live
}

// roundRun is what one Round did: the copies it checked, the slots it
// looked at and the time it took on its steppingClock.
type roundRun struct {
	checked, scanned int
	took             time.Duration
}

// runRound runs one round of g, whose clock is clk.
func runRound(g *Guard, clk steppingClock) roundRun {
	before, at := g.Stats(), clk.FakeClock.Now()
	n := g.Round()
	after := g.Stats()
	// The round's first clock read (its start) cost one step.
	return roundRun{checked: n, scanned: after.Scanned - before.Scanned, took: clk.FakeClock.Since(at) - clk.step}
}

// checkRoundsCover runs rounds of g until they checked live copies. No
// round checks more than want; a round that checks fewer is the last one
// or was stopped by its other bound (stopped).
func checkRoundsCover(t *testing.T, g *Guard, clk steppingClock, live, want int, stopped func(roundRun) bool) {
	t.Helper()
	total := 0
	for round := 0; total < live; round++ {
		if round > live {
			t.Fatalf("%d rounds checked %d of %d copies", round, total, live)
		}
		r := runRound(g, clk)
		last := total+r.checked >= live
		if r.checked > want || (r.checked < want && !last && !stopped(r)) {
			t.Fatalf("round %d checked %d copies (%+v), want %d", round, r.checked, r, want)
		}
		total += r.checked
	}
	if st := g.Stats(); st.Checked != total || st.Mutations != 0 {
		t.Errorf("stats %+v after %d checked", st, total)
	}
}

func TestGuardRoundsStayWithinTheirBounds(t *testing.T) {
	table := NewTable()
	var keep []*widget // canonical copies are held weakly: keep them alive
	defer func() { runtime.KeepAlive(keep) }()
	for i := range 200 {
		// 200 distinct args slices and probe paths, each held by two objects.
		for j := range 2 {
			w := decodeWidget(t, fmt.Sprintf("w%d-%d", i, j), fmt.Sprintf("/p%d", i), []string{fmt.Sprint(i)}, "1")
			table.Object(w)
			keep = append(keep, w)
		}
	}
	live := checkableCopies(table)
	// Where a round starts and how sparse the table is there depend on
	// the hashes, whose seed is the process's: a round may meet its other
	// bound (the slots it looks at, a shard's change that reads the clock)
	// before its copies.
	cases := []struct {
		name      string
		perRound  int
		budget    time.Duration
		costEach  time.Duration
		wantRound int                 // copies each round checks at most
		stopped   func(roundRun) bool // whether a round that checked fewer met its other bound
	}{
		{"PerRound bounds a round and the slots it looks at", 10, time.Hour, 0, 10,
			func(r roundRun) bool { return r.scanned == scanFactor*10 }},
		{"Budget bounds a round", 1000, 5 * time.Millisecond, time.Millisecond, 5,
			func(r roundRun) bool { return r.took >= 5*time.Millisecond }},
		{"a round goes once around a small table at most", 1 << 20, time.Hour, 0, live,
			func(roundRun) bool { return false }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := steppingClock{testingclock.NewFakeClock(time.Unix(0, 0)), tc.costEach}
			g := NewGuard(table, GuardOptions{PerRound: tc.perRound, Budget: tc.budget, Clock: clk})
			checkRoundsCover(t, g, clk, live, tc.wantRound, tc.stopped)
			if st := g.Stats(); st.Scanned > st.Rounds*scanFactor*tc.perRound {
				t.Errorf("%d rounds looked at %d slots, want at most %d each", st.Rounds, st.Scanned, scanFactor*tc.perRound)
			}
		})
	}
	if live < 400 {
		t.Errorf("the table holds %d checkable copies, want 400 or more (args and probes)", live)
	}
}

// tickClock hands the guard a ticker whose ticks the test sends.
type tickClock struct {
	*testingclock.FakeClock
	ticks chan time.Time
}

func (c tickClock) NewTicker(time.Duration) clock.Ticker { return chanTicker(c.ticks) }

type chanTicker chan time.Time

func (t chanTicker) C() <-chan time.Time { return t }
func (chanTicker) Stop()                 {}

func TestGuardSamplerRunsWhileHeldAndStopsAfterTheLastRelease(t *testing.T) {
	table := NewTable()
	ws := make([]*widget, 3)
	for i := range ws {
		ws[i] = decodeWidget(t, fmt.Sprintf("w%d", i), "/healthz", []string{"--v=2"}, "1")
		table.Object(ws[i])
	}
	clk := tickClock{testingclock.NewFakeClock(time.Unix(0, 0)), make(chan time.Time)}
	g := NewGuard(table, GuardOptions{Clock: clk})
	running := func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return g.cancel != nil
	}
	release1 := g.Hold(&objectsHolder{})
	release2 := g.Hold(&objectsHolder{})
	// The second tick is taken once the first tick's round is done.
	clk.ticks <- time.Time{}
	clk.ticks <- time.Time{}
	if st := g.Stats(); st.Rounds < 1 || st.Checked == 0 {
		t.Errorf("after two ticks: %+v, want a round that checked copies", st)
	}
	release1()
	release1()
	if !running() {
		t.Error("the sampler stopped while a holder holds the guard")
	}
	release2()
	if running() {
		t.Error("the sampler runs after the last release")
	}
	release3 := g.Hold(&objectsHolder{})
	clk.ticks <- time.Time{} // a new sampler takes ticks
	release3()
	runtime.KeepAlive(ws)
}

func TestIndexFreePathsNameTheField(t *testing.T) {
	for in, want := range map[string]string{
		".Spec.Containers[0].Env":  ".Spec.Containers[].Env",
		".Spec.Containers[12].Env": ".Spec.Containers[].Env",
		"[metadata][labels]":       "[metadata][labels]",
		".ObjectMeta.Labels":       ".ObjectMeta.Labels",
	} {
		if got := indexFree(in); got != want {
			t.Errorf("indexFree(%q) = %q, want %q", in, got, want)
		}
	}
	_ = reflect.TypeFor[int]
}

// BenchmarkGuardRound is the sampler's cost per canonical copy it checks:
// one op re-hashes one copy (labels maps and owner reference slices of
// metadata-only objects, three objects per value).
func BenchmarkGuardRound(b *testing.B) {
	table := NewTable()
	keep := make([]*metav1.PartialObjectMetadata, 0, 30000)
	for i := range cap(keep) {
		rs := i / 3
		o := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
			Namespace: fmt.Sprintf("team-%d", rs%20), Name: fmt.Sprintf("app-%d-%d", rs, i),
			Labels:          map[string]string{"app": fmt.Sprintf("app-%d", rs), "team": fmt.Sprintf("team-%d", rs%20)},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: fmt.Sprintf("app-%d", rs), UID: types.UID(fmt.Sprint(rs))}},
		}}
		table.Object(o)
		keep = append(keep, o)
	}
	g := NewGuard(table, GuardOptions{PerRound: DefaultGuardPerRound, Budget: time.Hour})
	b.ResetTimer()
	checked, cpu := 0, processCPU(b)
	for checked < b.N {
		checked += g.Round()
	}
	used := processCPU(b) - cpu
	b.StopTimer()
	b.ReportMetric(float64(used.Nanoseconds())/float64(checked), "cpu-ns/copy")
	if st := g.Stats(); st.Mutations != 0 {
		b.Fatalf("mutations found in untouched objects: %+v", st)
	}
	b.ReportMetric(float64(checked)/float64(b.N), "copies/op")
	runtime.KeepAlive(keep)
}

// processCPU is the CPU time (user and system) the process used so far:
// unlike ns/op, other processes of a shared machine do not change it.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestChecksAreMadeOncePerTypeAndWalk(t *testing.T) {
	table := NewTable()
	var keep []*widget
	count := func() int {
		checks.mu.RLock()
		defer checks.mu.RUnlock()
		return len(checks.byKey)
	}
	compactN := func(from, n int) {
		for i := from; i < from+n; i++ {
			for j := range 2 { // each value held by two objects: shared
				w := decodeWidget(t, fmt.Sprintf("w%d-%d", i, j), fmt.Sprintf("/p%d", i), []string{fmt.Sprint(i)}, fmt.Sprint(i+1))
				table.Object(w)
				keep = append(keep, w)
			}
		}
	}
	compactN(0, 10)
	after10 := count()
	compactN(10, 100)
	if got := count(); got != after10 {
		t.Errorf("%d cached checks after 110 distinct values of each part, %d after 10: want one per type and walk", got, after10)
	}
	// The second holder of a value holds the canonical copy.
	a, b := keep[1].Containers[0], keep[3].Containers[0]
	ca, cb := checkOf(table, unsafe.Pointer(unsafe.SliceData(a.Args))), checkOf(table, unsafe.Pointer(unsafe.SliceData(b.Args)))
	if ca == nil || ca != cb {
		t.Errorf("the checks of two canonical args slices: %p and %p, want one", ca, cb)
	}
	runtime.KeepAlive(keep)
}

// checkOf is the word of the check of the canonical copy at p.
func checkOf(table *Table, p unsafe.Pointer) unsafe.Pointer {
	for i := range table.shards {
		for _, sl := range table.shards[i].slots {
			if unsafe.Pointer(sl.ptr.Value()) == p {
				return funcWord(sl.check)
			}
		}
	}
	return nil
}
