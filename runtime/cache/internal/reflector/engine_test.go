package reflector

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

// The engine's contract, tested on the engine itself with a sink that
// records what it is given (runtime/cache's Reflector tests pin the same
// behaviour through the client-go-shaped wrapper).

// recordingSink is a queue.Sink that records each call as a string.
type recordingSink struct {
	mu    sync.Mutex
	calls []string
}

func (s *recordingSink) record(format string, args ...any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, fmt.Sprintf(format, args...))
	return nil
}

func (s *recordingSink) log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

func name(obj any) string { return obj.(*metav1.PartialObjectMetadata).Name }

func (s *recordingSink) Add(obj any) error                       { return s.record("add %s", name(obj)) }
func (s *recordingSink) Update(obj any) error                    { return s.record("update %s", name(obj)) }
func (s *recordingSink) Delete(obj any) error                    { return s.record("delete %s", name(obj)) }
func (s *recordingSink) Bookmark(rv string) error                { return s.record("bookmark %s", rv) }
func (s *recordingSink) TracksResourceVersion() bool             { return false }
func (s *recordingSink) UpdateResourceVersion(string)            {}
func (s *recordingSink) Resync() error                           { return s.record("resync") }
func (s *recordingSink) OpenFirstList() (queue.FirstList, bool)  { return nil, false }
func (s *recordingSink) ListTransformer() func(any) (any, error) { return nil }
func (s *recordingSink) AfterApplied(fn func())                  { fn() }
func (s *recordingSink) Prune(func(any) bool) (bool, error)      { return false, nil }

func (s *recordingSink) PrepareListed(page []any) error {
	names := make([]string, len(page))
	for i, o := range page {
		names[i] = name(o)
	}
	return s.record("page %v", names)
}

func (s *recordingSink) ReplaceListed(list []any, rv string) error {
	names := make([]string, len(list))
	for i, o := range list {
		names[i] = name(o)
	}
	return s.record("replace %v at %s", names, rv)
}

func object(n, rv string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: n, ResourceVersion: rv}}
}

// lw is a ListerWatcher over pages by continue token and one watch.
type lw struct {
	pages map[string]*metav1.PartialObjectMetadataList
	w     watch.Interface
	mu    sync.Mutex
	lists []metav1.ListOptions
}

func (l *lw) ListWithContext(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	l.mu.Lock()
	l.lists = append(l.lists, opts)
	l.mu.Unlock()
	return l.pages[opts.Continue].DeepCopy(), nil
}

func (l *lw) WatchWithContext(context.Context, metav1.ListOptions) (watch.Interface, error) {
	return l.w, nil
}

func pageOf(next, rv string, names ...string) *metav1.PartialObjectMetadataList {
	p := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: rv, Continue: next}}
	for _, n := range names {
		p.Items = append(p.Items, *object(n, rv))
	}
	return p
}

func config(c *testingclock.FakeClock) Config {
	return Config{Name: "test", MinWatchTimeout: time.Minute, IdleTimeout: time.Hour,
		WatchListTimeout: time.Minute, WatchListProgressTimeout: time.Minute, Clock: c}
}

// List hands the sink each page as it arrives, then the whole list at the
// list's resourceVersion; the page size is Config's unless Run's replaces
// it, and continue requests carry no resourceVersion.
func TestEngineListHandsTheSinkPagesThenTheList(t *testing.T) {
	tests := []struct {
		name      string
		cfgSize   int64
		runSize   int64
		wantLimit int64
	}{
		{"default page size", 0, 0, DefaultPageSize},
		{"Config's page size", 2, 0, 2},
		{"Run's page size replaces Config's", 2, 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &lw{pages: map[string]*metav1.PartialObjectMetadataList{
				"":   pageOf("p2", "9", "a", "b"),
				"p2": pageOf("", "9", "c"),
			}}
			sink := &recordingSink{}
			cfg := config(testingclock.NewFakeClock(time.Unix(0, 0)))
			cfg.PageSize = tt.cfgSize
			e := New(l, sink, cfg)
			e.setRun(Run{PageSize: tt.runSize})
			if err := e.List(t.Context(), "0"); err != nil {
				t.Fatal(err)
			}
			want := []string{"page [a b]", "page [c]", "replace [a b c] at 9"}
			if got := sink.log(); !slices.Equal(got, want) {
				t.Errorf("sink calls %q, want %q", got, want)
			}
			if len(l.lists) != 2 || l.lists[0].Limit != tt.wantLimit || l.lists[0].ResourceVersion != "0" ||
				l.lists[1].Continue != "p2" || l.lists[1].ResourceVersion != "" {
				t.Errorf("list requests %+v, want limit %d at RV 0, then continue p2 without RV", l.lists, tt.wantLimit)
			}
			if rv := e.LastSyncResourceVersion(); rv != "9" {
				t.Errorf("LastSyncResourceVersion %q, want 9", rv)
			}
		})
	}
}

// ListAndWatch lists, then applies the watch's events to the sink in
// order, moving the position, and returns nil once ctx ends.
func TestEngineListAndWatchAppliesEventsInOrder(t *testing.T) {
	w := watch.NewFakeWithChanSize(4, false)
	l := &lw{pages: map[string]*metav1.PartialObjectMetadataList{"": pageOf("", "9", "a")}, w: w}
	sink := &recordingSink{}
	e := New(l, sink, config(testingclock.NewFakeClock(time.Unix(0, 0))))
	w.Add(object("b", "10"))
	w.Modify(object("a", "11"))
	w.Delete(object("b", "12"))
	w.Action(watch.Bookmark, object("", "13"))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- e.ListAndWatch(ctx, Run{}) }()
	want := []string{"page [a]", "replace [a] at 9", "add b", "update a", "delete b", "bookmark 13"}
	cachetest.EventuallyExplained(t, func() (bool, string) {
		got, rv := sink.log(), e.LastSyncResourceVersion()
		return slices.Equal(got, want) && rv == "13", fmt.Sprintf("sink calls %q at %q, want %q at 13", got, rv, want)
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("ListAndWatch returned %v after ctx ended, want nil", err)
	}
}
