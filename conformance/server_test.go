package conformance

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// received is one event as a test sees it.
type received struct {
	typ   watch.EventType
	key   string
	state State
	code  int32 // of an error event
}

// next receives one event from w, failing after a second.
func next(t *testing.T, w watch.Interface) (received, bool) {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			return received{}, false
		}
		if ev.Type == watch.Error {
			return received{typ: ev.Type, code: ev.Object.(*metav1.Status).Code}, true
		}
		cm := ev.Object.(*corev1.ConfigMap)
		r := received{typ: ev.Type, state: StateOf(cm)}
		if ev.Type != watch.Bookmark {
			r.key = keyOf(cm)
		}
		return r, true
	case <-time.After(time.Second):
		t.Fatal("no event within a second")
		return received{}, false
	}
}

func mustApply(t *testing.T, s *Server, changes ...Change) {
	t.Helper()
	for _, c := range changes {
		if err := s.Apply(c); err != nil {
			t.Fatal(err)
		}
	}
}

func TestServerWatchReplaysAfterResourceVersionThenFollows(t *testing.T) {
	s := NewServer()
	defer s.Wait()
	mustApply(t, s, Change{ChangeAdd, "ns/a"}, Change{ChangeUpdate, "ns/a"}, Change{ChangeAdd, "ns/b"})
	c := s.NewClient("c")
	// The server starts at resourceVersion 1: the first change is 2.
	w, err := c.Watch(t.Context(), metav1.ListOptions{ResourceVersion: "2"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	mustApply(t, s, Change{ChangeRecreate, "ns/b"})
	want := []received{
		{typ: watch.Modified, key: "ns/a", state: State{"uid-1", "3"}},
		{typ: watch.Added, key: "ns/b", state: State{"uid-2", "4"}},
		{typ: watch.Deleted, key: "ns/b", state: State{"uid-2", "5"}},
		{typ: watch.Added, key: "ns/b", state: State{"uid-3", "6"}},
	}
	for i, wantEv := range want {
		got, ok := next(t, w)
		if !ok || got != wantEv {
			t.Fatalf("event %d: got %+v (open %t), want %+v", i, got, ok, wantEv)
		}
	}
	if !s.Watching() {
		t.Error("a client watching from a live resourceVersion does not count as watching")
	}
}

func TestServerExpiryHidesGapAndRelistShowsIt(t *testing.T) {
	s := NewServer()
	defer s.Wait()
	mustApply(t, s, Change{ChangeAdd, "ns/a"}, Change{ChangeAdd, "ns/b"})
	c := s.NewClient("c")
	if _, err := c.List(t.Context(), metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	w, err := c.Watch(t.Context(), metav1.ListOptions{ResourceVersion: "3"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	mustApply(t, s, Change{ChangeUpdate, "ns/a"}) // rv 4: delivered before the 410
	if err := s.ExpireWatches([]Change{{ChangeDelete, "ns/b"}, {ChangeRecreate, "ns/a"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := next(t, w); got.typ != watch.Modified || got.state != (State{"uid-1", "4"}) {
		t.Fatalf("got %+v, want the update made before the expiry", got)
	}
	if got, _ := next(t, w); got.typ != watch.Error || got.code != http.StatusGone {
		t.Fatalf("got %+v, want a 410 error event", got)
	}
	if got, ok := next(t, w); ok {
		t.Fatalf("got %+v after the 410, want the watch closed", got)
	}
	if s.Watching() {
		t.Error("client counts as watching after its watch expired")
	}

	// Resuming below the horizon fails with 410; the list shows the gap.
	old, err := c.Watch(t.Context(), metav1.ListOptions{ResourceVersion: "4"})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Stop()
	if got, _ := next(t, old); got.typ != watch.Error || got.code != http.StatusGone {
		t.Fatalf("watch below the horizon: got %+v, want 410", got)
	}
	obj, err := c.List(t.Context(), metav1.ListOptions{ResourceVersion: "4"})
	if err != nil {
		t.Fatal(err)
	}
	list := obj.(*corev1.ConfigMapList)
	if list.ResourceVersion != "7" || len(list.Items) != 1 || StateOf(&list.Items[0]) != (State{"uid-3", "7"}) {
		t.Fatalf("list after the gap: rv %s items %v", list.ResourceVersion, list.Items)
	}
	w2, err := c.Watch(t.Context(), metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Stop()
	if !s.Watching() {
		t.Error("client watching from the list's resourceVersion does not count as watching")
	}
	sum := c.Trace().Summarize()
	if len(sum.Relists) != 1 || !reflect.DeepEqual(sum.Relists[0].Vanished, map[string]State{"ns/b": {"uid-2", "3"}}) ||
		!reflect.DeepEqual(sum.Relists[0].Recreated, map[string][2]State{"ns/a": {{"uid-1", "4"}, {"uid-3", "7"}}}) {
		t.Errorf("trace summary %+v", sum.Relists)
	}
}

func TestServerFailWatchesPerClientThenRecovers(t *testing.T) {
	s := NewServer()
	defer s.Wait()
	c1, c2 := s.NewClient("one"), s.NewClient("two")
	s.FailWatches(2, FailTooManyRequests.Err())
	for _, c := range []*Client{c1, c2} {
		for i := range 2 {
			if _, err := c.Watch(t.Context(), metav1.ListOptions{ResourceVersion: "0"}); !apierrors.IsTooManyRequests(err) {
				t.Fatalf("%s: watch %d: err %v, want 429", c.Name(), i, err)
			}
		}
		w, err := c.Watch(t.Context(), metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			t.Fatalf("%s: third watch: %v", c.Name(), err)
		}
		defer w.Stop()
	}
	if !s.Watching() {
		t.Error("clients do not count as watching after their failures ran out")
	}
}

func TestServerCloseWatchesDeliversThenClosesCleanly(t *testing.T) {
	s := NewServer()
	defer s.Wait()
	c := s.NewClient("c")
	w, err := c.Watch(t.Context(), metav1.ListOptions{ResourceVersion: "0", AllowWatchBookmarks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	mustApply(t, s, Change{ChangeAdd, "ns/a"})
	s.Bookmark()
	s.CloseWatches()
	mustApply(t, s, Change{ChangeUpdate, "ns/a"}) // after the close: not on this watch
	if got, _ := next(t, w); got.typ != watch.Added {
		t.Fatalf("got %+v, want the add", got)
	}
	if got, _ := next(t, w); got.typ != watch.Bookmark || got.state.ResourceVersion != "2" {
		t.Fatalf("got %+v, want a bookmark at 2", got)
	}
	if got, ok := next(t, w); ok {
		t.Fatalf("got %+v, want a clean close", got)
	}
}

func TestServerWatchEndsWithItsContext(t *testing.T) {
	s := NewServer()
	c := s.NewClient("c")
	ctx, cancel := context.WithCancel(t.Context())
	if _, err := c.Watch(ctx, metav1.ListOptions{ResourceVersion: "0"}); err != nil {
		t.Fatal(err)
	}
	cancel()
	s.Wait() // returns only once the watch goroutine ended
	if _, err := c.Watch(ctx, metav1.ListOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("watch with a done context: err %v, want context.Canceled", err)
	}
}

func TestServerRejectsInvalidChanges(t *testing.T) {
	tests := []struct {
		name    string
		changes []Change
	}{
		{"update of absent", []Change{{ChangeUpdate, "ns/a"}}},
		{"delete of absent", []Change{{ChangeDelete, "ns/a"}}},
		{"recreate of absent", []Change{{ChangeRecreate, "ns/a"}}},
		{"add of present", []Change{{ChangeAdd, "ns/a"}, {ChangeAdd, "ns/a"}}},
		{"key without namespace", []Change{{ChangeAdd, "a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewServer()
			var err error
			for _, c := range tt.changes {
				if err = s.Apply(c); err != nil {
					break
				}
			}
			if err == nil {
				t.Error("invalid change accepted")
			}
		})
	}
}

func TestGenerateIsDeterministicAndValid(t *testing.T) {
	early := 0
	defer func() {
		if early < 20 {
			t.Errorf("%d of 200 seeds have early changes, want about a third", early)
		}
	}()
	for seed := uint64(1); seed <= 200; seed++ {
		sc := Generate(seed)
		if !reflect.DeepEqual(sc, Generate(seed)) {
			t.Fatalf("seed %d: two different scenarios", seed)
		}
		s := NewServer()
		for i := range sc.Backlog {
			mustApply(t, s, Change{ChangeAdd, BacklogKey(i)})
		}
		for _, k := range sc.Initial {
			mustApply(t, s, Change{ChangeAdd, k})
		}
		if len(sc.Early) > 0 {
			early++
			if sc.Backlog <= 512 || sc.HoldHandlers || sc.Early[0].Kind != ChangeRecreate {
				t.Errorf("seed %d: early changes need a backlog over one batch, no held handlers and a re-creation first: %v", seed, sc)
			}
		}
		for _, c := range sc.Early {
			mustApply(t, s, c)
		}
		expiries, units := 0, 0
		for i, op := range sc.Ops {
			if op.Disrupts() && (i == 0 || sc.Ops[i-1].Disrupts()) {
				t.Errorf("seed %d: op %d %v does not follow a change or bookmark", seed, i, op)
			}
			switch op.Kind {
			case OpExpire:
				expiries++
				units++
				if len(op.Gap) == 0 {
					t.Errorf("seed %d: expiry with an empty gap", seed)
				}
			case OpCloseWatches:
				units++
			case OpFailWatches:
				units += op.Failures
			}
			if err := op.Apply(s); err != nil {
				t.Fatalf("seed %d: op %d %v: %v", seed, i, op, err)
			}
		}
		if expiries == 0 || units > genMaxDisruptions {
			t.Errorf("seed %d: %d expiries, %d disruption units: %v", seed, expiries, units, sc)
		}
	}
}
