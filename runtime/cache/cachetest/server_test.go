package cachetest_test

import (
	"context"
	"errors"
	"fmt"
	"go/build"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

var (
	_ cache.ListerWatcher            = (*cachetest.Server)(nil)
	_ cache.ListerWatcherWithContext = (*cachetest.Server)(nil)
)

// got is one event as a test sees it: type, key and resourceVersion, or
// the code of an error event.
type got struct {
	typ  watch.EventType
	key  string
	rv   string
	code int32
}

// next receives one event from w; ok is false when w closed.
func next(t *testing.T, w watch.Interface) (got, bool) {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			return got{}, false
		}
		if ev.Type == watch.Error {
			return got{typ: ev.Type, code: ev.Object.(*metav1.Status).Code}, true
		}
		o := ev.Object.(*metav1.PartialObjectMetadata)
		g := got{typ: ev.Type, rv: o.ResourceVersion}
		if ev.Type != watch.Bookmark {
			g.key = o.Namespace + "/" + o.Name
		}
		return g, true
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10s")
		return got{}, false
	}
}

// expectEvents receives len(want) events, then, with closed, the close.
func expectEvents(t *testing.T, w watch.Interface, closed bool, want ...got) {
	t.Helper()
	for i, wantEv := range want {
		g, ok := next(t, w)
		if !ok || g != wantEv {
			t.Fatalf("event %d: got %+v (open %t), want %+v", i, g, ok, wantEv)
		}
	}
	if closed {
		if g, ok := next(t, w); ok {
			t.Fatalf("got %+v, want the watch closed", g)
		}
	}
}

// must returns a function that fails t on a non-nil error and returns v
// otherwise: must(t)(s.Add(obj)).
func must[T any](t *testing.T) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func labelled(namespace, name string, labels map[string]string) *metav1.PartialObjectMetadata {
	o := object(namespace, name)
	o.Labels = labels
	return o
}

// newServer returns a server holding ns/a (rv 2), ns/b (3), other/c (4),
// then ns/a updated (5), ns/b deleted (6).
func newServer(t *testing.T) *cachetest.Server {
	t.Helper()
	s := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
	t.Cleanup(s.Wait)
	must[runtime.Object](t)(s.Add(labelled("ns", "a", map[string]string{"app": "x"})))
	must[runtime.Object](t)(s.Add(object("ns", "b")))
	must[runtime.Object](t)(s.Add(labelled("other", "c", map[string]string{"app": "x"})))
	a := must[runtime.Object](t)(s.Update(object("ns", "a")))
	if a.(*metav1.PartialObjectMetadata).UID != "uid-1" {
		t.Fatalf("update changed the UID: %v", a)
	}
	must[runtime.Object](t)(s.Delete("ns", "b"))
	return s
}

func listKeys(t *testing.T, s *cachetest.Server, opts metav1.ListOptions) (keys []string, rv, cont string, err error) {
	t.Helper()
	obj, err := s.ListWithContext(t.Context(), opts)
	if err != nil {
		return nil, "", "", err
	}
	l := obj.(*metav1.PartialObjectMetadataList)
	for _, o := range l.Items {
		keys = append(keys, o.Namespace+"/"+o.Name+"@"+o.ResourceVersion)
	}
	return keys, l.ResourceVersion, l.Continue, nil
}

func TestListHonoursResourceVersionSemanticsAndSelectors(t *testing.T) {
	tests := []struct {
		name     string
		opts     metav1.ListOptions
		wantKeys []string
		wantRV   string
		wantCont bool
		wantErr  func(error) bool
	}{
		{name: "consistent read", opts: metav1.ListOptions{}, wantKeys: []string{"ns/a@5", "other/c@4"}, wantRV: "6"},
		{name: "consistent read pages", opts: metav1.ListOptions{Limit: 1}, wantKeys: []string{"ns/a@5"}, wantRV: "6", wantCont: true},
		{name: "any version ignores the limit", opts: metav1.ListOptions{ResourceVersion: "0", Limit: 1}, wantKeys: []string{"ns/a@5", "other/c@4"}, wantRV: "6"},
		{name: "not older than a past version is the current state", opts: metav1.ListOptions{ResourceVersion: "3", ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan}, wantKeys: []string{"ns/a@5", "other/c@4"}, wantRV: "6"},
		{name: "exact version is the past state", opts: metav1.ListOptions{ResourceVersion: "4", ResourceVersionMatch: metav1.ResourceVersionMatchExact}, wantKeys: []string{"ns/a@2", "ns/b@3", "other/c@4"}, wantRV: "4"},
		{name: "label selector", opts: metav1.ListOptions{LabelSelector: "app=x"}, wantKeys: []string{"other/c@4"}, wantRV: "6"},
		{name: "field selector on the namespace", opts: metav1.ListOptions{FieldSelector: "metadata.namespace=ns"}, wantKeys: []string{"ns/a@5"}, wantRV: "6"},
		{name: "field selector on another field", opts: metav1.ListOptions{FieldSelector: "spec.x=y"}, wantErr: apierrors.IsBadRequest},
		{name: "version not reached", opts: metav1.ListOptions{ResourceVersion: "7"}, wantErr: apierrors.IsTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t)
			keys, rv, cont, err := listKeys(t, s, tt.opts)
			if tt.wantErr != nil {
				if err == nil || !tt.wantErr(err) {
					t.Fatalf("err %v, want one matching %s", err, t.Name())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(keys, tt.wantKeys) || rv != tt.wantRV || (cont != "") != tt.wantCont {
				t.Errorf("got %v at %s (continue %q), want %v at %s (continue %t)", keys, rv, cont, tt.wantKeys, tt.wantRV, tt.wantCont)
			}
		})
	}
}

func TestListTooLargeResourceVersionIsReportedAsKubeAPIServerDoes(t *testing.T) {
	s := newServer(t)
	_, _, _, err := listKeys(t, s, metav1.ListOptions{ResourceVersion: "7"})
	var status apierrors.APIStatus
	if !errors.As(err, &status) || len(status.Status().Details.Causes) == 0 ||
		status.Status().Details.Causes[0].Type != metav1.CauseTypeResourceVersionTooLarge {
		t.Fatalf("err %v, want a Too large resource version error", err)
	}
}

func TestListContinueServesTheSnapshotUntilCompacted(t *testing.T) {
	s := newServer(t)
	_, _, cont, err := listKeys(t, s, metav1.ListOptions{Limit: 1})
	if err != nil || cont == "" {
		t.Fatalf("first page: continue %q, err %v", cont, err)
	}
	must[runtime.Object](t)(s.Add(object("ns", "b")))
	must[runtime.Object](t)(s.Delete("other", "c"))
	keys, rv, next, err := listKeys(t, s, metav1.ListOptions{Limit: 1, Continue: cont})
	if err != nil || !reflect.DeepEqual(keys, []string{"other/c@4"}) || rv != "6" || next != "" {
		t.Fatalf("second page: %v at %s (continue %q), err %v; want the snapshot at 6", keys, rv, next, err)
	}
	s.Compact()
	if _, _, _, err := listKeys(t, s, metav1.ListOptions{Limit: 1, Continue: cont}); !apierrors.IsResourceExpired(err) {
		t.Fatalf("continue after compaction: err %v, want 410 Gone", err)
	}
}

func TestWatchReplaysFollowsAndExpires(t *testing.T) {
	tests := []struct {
		name string
		opts metav1.ListOptions
		want []got
	}{
		{name: "from a resourceVersion: the changes after it", opts: metav1.ListOptions{ResourceVersion: "4"},
			want: []got{{typ: watch.Modified, key: "ns/a", rv: "5"}, {typ: watch.Deleted, key: "ns/b", rv: "6"}, {typ: watch.Added, key: "ns/d", rv: "7"}}},
		{name: "from any version: the current objects as adds", opts: metav1.ListOptions{ResourceVersion: "0"},
			want: []got{{typ: watch.Added, key: "ns/a", rv: "5"}, {typ: watch.Added, key: "other/c", rv: "4"}, {typ: watch.Added, key: "ns/d", rv: "7"}}},
		{name: "watch list: initial events then the end bookmark", opts: metav1.ListOptions{ResourceVersion: "3", SendInitialEvents: ptr(true), AllowWatchBookmarks: true, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan},
			want: []got{{typ: watch.Added, key: "ns/a", rv: "5"}, {typ: watch.Added, key: "other/c", rv: "4"}, {typ: watch.Bookmark, rv: "6"}, {typ: watch.Added, key: "ns/d", rv: "7"}}},
		{name: "a label selector turns leaving into a delete and entering into an add", opts: metav1.ListOptions{ResourceVersion: "1", LabelSelector: "app=x"},
			want: []got{{typ: watch.Added, key: "ns/a", rv: "2"}, {typ: watch.Added, key: "other/c", rv: "4"}, {typ: watch.Deleted, key: "ns/a", rv: "5"}, {typ: watch.Added, key: "ns/d", rv: "7"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t)
			w := must[watch.Interface](t)(s.WatchWithContext(t.Context(), tt.opts))
			defer w.Stop()
			must[runtime.Object](t)(s.Add(labelled("ns", "d", map[string]string{"app": "x"})))
			expectEvents(t, w, false, tt.want...)
		})
	}
}

func TestWatchFromBeforeTheHorizonGetsGone(t *testing.T) {
	tests := []struct {
		name    string
		compact func(s *cachetest.Server)
		from    string
		want    []got
	}{
		{name: "compact", compact: (*cachetest.Server).Compact, from: "5", want: []got{{typ: watch.Error, code: http.StatusGone}}},
		{name: "history limit of one change", compact: func(s *cachetest.Server) { s.SetHistoryLimit(1) }, from: "4", want: []got{{typ: watch.Error, code: http.StatusGone}}},
		{name: "history limit keeps the last change", compact: func(s *cachetest.Server) { s.SetHistoryLimit(1) }, from: "5", want: []got{{typ: watch.Deleted, key: "ns/b", rv: "6"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t)
			tt.compact(s)
			w := must[watch.Interface](t)(s.WatchWithContext(t.Context(), metav1.ListOptions{ResourceVersion: tt.from}))
			defer w.Stop()
			expectEvents(t, w, tt.want[0].code != 0, tt.want...)
		})
	}
}

func TestDisruptionsEndWatchesAfterWhatWasDelivered(t *testing.T) {
	s := newServer(t)
	w := must[watch.Interface](t)(s.WatchWithContext(t.Context(), metav1.ListOptions{ResourceVersion: "6", AllowWatchBookmarks: true}))
	defer w.Stop()
	plain := must[watch.Interface](t)(s.WatchWithContext(t.Context(), metav1.ListOptions{ResourceVersion: "6"}))
	defer plain.Stop()
	if n := s.OpenWatches(); n != 2 {
		t.Fatalf("%d open watches, want 2", n)
	}
	must[runtime.Object](t)(s.Add(object("ns", "d")))
	s.Bookmark()
	err := s.ExpireWatches(func(tx *cachetest.Tx) error {
		_, err := tx.Delete("ns", "d")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := s.OpenWatches(); n != 0 {
		t.Fatalf("%d open watches after the expiry, want 0", n)
	}
	expectEvents(t, w, true, got{typ: watch.Added, key: "ns/d", rv: "7"}, got{typ: watch.Bookmark, rv: "7"}, got{typ: watch.Error, code: http.StatusGone})
	expectEvents(t, plain, true, got{typ: watch.Added, key: "ns/d", rv: "7"}, got{typ: watch.Error, code: http.StatusGone})

	// The hidden delete is only in a list; the watch cannot resume.
	if keys, rv, _, err := listKeys(t, s, metav1.ListOptions{}); err != nil || rv != "8" || len(keys) != 2 {
		t.Fatalf("list after the expiry: %v at %s, err %v", keys, rv, err)
	}
	again := must[watch.Interface](t)(s.WatchWithContext(t.Context(), metav1.ListOptions{ResourceVersion: "7"}))
	expectEvents(t, again, true, got{typ: watch.Error, code: http.StatusGone})

	live := must[watch.Interface](t)(s.WatchWithContext(t.Context(), metav1.ListOptions{ResourceVersion: "8"}))
	must[runtime.Object](t)(s.Add(object("ns", "e")))
	s.CloseWatches()
	must[runtime.Object](t)(s.Add(object("ns", "f")))
	expectEvents(t, live, true, got{typ: watch.Added, key: "ns/e", rv: "9"})
}

func TestInjectedFailures(t *testing.T) {
	s := newServer(t)
	boom := apierrors.NewTooManyRequests("slow down", 1)
	s.FailLists(1, boom)
	s.FailWatches(2, boom)
	if _, err := s.ListWithContext(t.Context(), metav1.ListOptions{}); !errors.Is(err, boom) {
		t.Fatalf("list: err %v, want the injected one", err)
	}
	if _, err := s.ListWithContext(t.Context(), metav1.ListOptions{}); err != nil {
		t.Fatalf("second list: %v", err)
	}
	for i := range 2 {
		if _, err := s.WatchWithContext(t.Context(), metav1.ListOptions{}); !errors.Is(err, boom) {
			t.Fatalf("watch %d: err %v, want the injected one", i, err)
		}
	}
	w := must[watch.Interface](t)(s.WatchWithContext(t.Context(), metav1.ListOptions{ResourceVersion: "6"}))
	w.Stop()
	if lists, watches := s.Calls(); lists != 2 || watches != 3 {
		t.Errorf("calls: %d lists %d watches, want 2 and 3", lists, watches)
	}
}

func TestWatchEndsWithItsContext(t *testing.T) {
	s := newServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	must[watch.Interface](t)(s.WatchWithContext(ctx, metav1.ListOptions{}))
	cancel()
	s.Wait() // returns only once the watch goroutine ended
	if _, err := s.WatchWithContext(ctx, metav1.ListOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("watch with a done context: err %v, want context.Canceled", err)
	}
}

// A Watch call racing Hang(true) followed by CloseWatches is either
// served before the hang, so that CloseWatches ends the watch it opened,
// or waits for the server to answer: never a watch opened after
// CloseWatches while the server hangs, which would leave a client that
// a test made wait for an unanswered request watching instead.
func TestWatchRacingHangIsEndedOrWaits(t *testing.T) {
	// A long selector (every object matches it) makes a request take
	// long enough to parse that Hang often comes during the call.
	terms := make([]string, 500)
	for i := range terms {
		terms[i] = fmt.Sprintf("!absent%d", i)
	}
	opts := metav1.ListOptions{ResourceVersion: "6", LabelSelector: strings.Join(terms, ",")}
	for range 100 {
		s := newServer(t)
		opened := make(chan watch.Interface, 1)
		go func() {
			w, err := s.WatchWithContext(t.Context(), opts)
			if err != nil {
				t.Error(err)
			}
			opened <- w
		}()
		s.Hang(true)
		s.CloseWatches()
		var w watch.Interface
		cachetest.Eventually(t, "the watch served, or waiting for the server", func() bool {
			select {
			case w = <-opened:
				return true
			default:
				return s.Unanswered() > 0
			}
		})
		if w != nil {
			expectEvents(t, w, true)
			continue
		}
		s.Hang(false)
		if w := <-opened; w != nil {
			w.Stop()
		}
	}
}

func TestMutationsRejectWhatAServerRejects(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(s *cachetest.Server) error
		wantErr func(error) bool
	}{
		{"add of present", func(s *cachetest.Server) error { _, err := s.Add(object("ns", "a")); return err }, apierrors.IsAlreadyExists},
		{"update of absent", func(s *cachetest.Server) error { _, err := s.Update(object("ns", "b")); return err }, apierrors.IsNotFound},
		{"delete of absent", func(s *cachetest.Server) error { _, err := s.Delete("ns", "b"); return err }, apierrors.IsNotFound},
		{"update of another UID", func(s *cachetest.Server) error {
			o := object("ns", "a")
			o.UID = "other"
			_, err := s.Update(o)
			return err
		}, apierrors.IsConflict},
		{"object of another type", func(s *cachetest.Server) error { _, err := s.Add(&metav1.Status{}); return err }, apierrors.IsBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t)
			before := s.ResourceVersion()
			if err := tt.mutate(s); !tt.wantErr(err) {
				t.Fatalf("err %v", err)
			}
			if after := s.ResourceVersion(); after != before {
				t.Errorf("a rejected change moved the resourceVersion from %s to %s", before, after)
			}
		})
	}
}

func TestObjectsAreCopies(t *testing.T) {
	s := newServer(t)
	o, _ := s.Get("ns", "a")
	o.(*metav1.PartialObjectMetadata).Name = "changed"
	for _, obj := range s.Objects() {
		obj.(*metav1.PartialObjectMetadata).Labels = map[string]string{"changed": "yes"}
	}
	keys, _, _, _ := listKeys(t, s, metav1.ListOptions{LabelSelector: "changed"})
	if again, _ := s.Get("ns", "a"); again.(*metav1.PartialObjectMetadata).Name != "a" || len(keys) != 0 {
		t.Errorf("changing returned objects changed the server: %v, %v", again, keys)
	}
}

// TestImportsOnlyAPIMachinery pins that runtime/cache's internal tests can
// import this package (no import cycle) and that it never brings
// client-go into the main module.
func TestImportsOnlyAPIMachinery(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if strings.Contains(imp, "informer-gen/runtime/cache") || strings.HasPrefix(imp, "k8s.io/client-go") {
			t.Errorf("cachetest imports %s", imp)
		}
	}
}

func ptr[T any](v T) *T { return &v }
