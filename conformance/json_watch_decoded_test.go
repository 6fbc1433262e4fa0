package conformance

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	crdscheme "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned/scheme"
	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsonwatch"
)

// A watch whose decoder hands over its objects compact
// (jsonwatch.Watcher.Decoded, compact.Decoded) must leave in the cache
// what decoding and then compacting in the informer leaves: equal
// objects, whose parts are shared exactly alike, the update walk's
// taking of the cached version's parts included.

// decodedWidget is the i-th Widget of decodedWidgetStream, at version v:
// parts shared by teams (labels, owner references, finalizers, tags),
// parts of its own (an annotation, its UID), and, from version 1 on, a
// changed status and, for some, changed labels.
func decodedWidget(i, v int) *stablev1.Widget {
	team := fmt.Sprintf("team-%d", i%4)
	labels := map[string]string{"team": team, "tier": "backend"}
	if v > 0 && i%3 == 0 {
		labels = map[string]string{"team": team, "tier": "frontend"}
	}
	return &stablev1.Widget{
		TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: team, Name: fmt.Sprintf("widget-%d", i), UID: types.UID(fmt.Sprintf("uid-%06d", i)),
			ResourceVersion: fmt.Sprint(100 + 100*v + i), Generation: int64(1 + v), Labels: labels,
			Annotations:     map[string]string{"note": fmt.Sprintf("widget %d of %s", i, team)},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: team, UID: types.UID("owner-" + team), Controller: new(true)}},
			Finalizers:      []string{"example.com/cleanup"},
		},
		Spec:   stablev1.WidgetSpec{Size: int32(i % 3), Color: []string{"red", "green"}[i%2], Tags: []string{"prod", team}},
		Status: stablev1.WidgetStatus{ObservedGeneration: int64(1 + v), Phase: []string{"Pending", "Ready"}[min(v, 1)]},
	}
}

// decodedWidgetStream is ADDED events of n Widgets, then versions MODIFIED
// events of each (the update case), then a DELETED event of every
// fifth.
func decodedWidgetStream(t testing.TB, n, versions int) string {
	var sb strings.Builder
	for i := range n {
		sb.WriteString(widgetEvent(t, "ADDED", decodedWidget(i, 0)))
	}
	for v := 1; v <= versions; v++ {
		for i := range n {
			sb.WriteString(widgetEvent(t, "MODIFIED", decodedWidget(i, v)))
		}
	}
	for i := 0; i < n; i += 5 {
		sb.WriteString(widgetEvent(t, "DELETED", decodedWidget(i, versions)))
	}
	return sb.String()
}

// widgetCache is what an informer's queue and cache do with the events
// of a watch, reduced to compaction: each object is compacted against the
// cached version of its key (the hint), unless the decoder compacted it
// against that version already; then it is cached. Its table admits
// exactly (compact.NewExactTable), so that what is shared does not depend
// on which values a lossy filter forgot, which differs with the order in
// which a decoder and a walk meet them.
type widgetCache struct {
	table   *compact.Table
	compact func(obj, old any)
	decoded *compact.Decoded
	// objects, guarded by mu, is the cache.
	mu      sync.Mutex
	objects map[string]*stablev1.Widget
	// skipped counts the objects the decoder compacted.
	skipped int
	// keepUnchanged makes an ADDED event's object at the cached version
	// (UID and resourceVersion) leave the cached object in place, as the
	// informer's queue does with the initial events of a watch list (a
	// relist); kept counts them.
	keepUnchanged bool
	kept          int
}

func newWidgetCache(decoding bool) *widgetCache {
	c := &widgetCache{table: compact.NewExactTable(), objects: map[string]*stablev1.Widget{}}
	c.compact = c.table.TransformUpdate(&stablev1.Widget{})
	if decoding {
		c.decoded = &compact.Decoded{}
		key := func(obj any) (string, error) {
			w := obj.(*stablev1.Widget)
			return w.Namespace + "/" + w.Name, nil
		}
		c.decoded.Enable(key, c.hintOf, c.compact, false)
	}
	return c
}

// decoderTable is the table the watch's decoder interns into: c's when
// the decoder builds the compact object (c.decoded), none otherwise, so
// that the objects compared with it are the plain decoding's, compacted
// by the informer's walks alone (a decoder that interns counts as a
// sighting of its strings in another object for the walk after it).
func (c *widgetCache) decoderTable() *compact.Table {
	if c.decoded == nil {
		return nil
	}
	return c.table
}

// hint is the cached version of obj's key, nil for none (an untyped nil,
// as the informer's queue gives).
func (c *widgetCache) hint(obj *stablev1.Widget) any { return c.hintOf(obj.Namespace + "/" + obj.Name) }

// hintOf is the cached version of key; the stream's goroutine reads it
// while the test's caches the previous event.
func (c *widgetCache) hintOf(key string) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.objects[key]; ok {
		return old
	}
	return nil
}

// watch runs stream through a Watcher decoding with the generated
// decoder into c's table (and compacting when c.decoded is set) and
// returns every event's object, in order, after caching it.
func (c *widgetCache) watch(t *testing.T, stream string) []*stablev1.Widget {
	t.Helper()
	generated, _ := jsondecode.For[stablev1.Widget]()
	jw := &jsonwatch.Watcher[stablev1.Widget, *stablev1.Widget]{
		Open: func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader(stream)), nil
		},
		Kind:   stablev1.SchemeGroupVersion.WithKind("Widget"),
		Codecs: crdscheme.Codecs.WithoutConversion(),
		Decode: generated, Table: c.decoderTable(), Decoded: c.decoded,
	}
	w, err := jw.WatchWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*stablev1.Widget
	// One event at a time, as a reflector takes them; the stream decodes
	// the next one meanwhile.
	for ev := range w.ResultChan() {
		out = append(out, c.cache(ev))
	}
	return out
}

// cache compacts ev's object against the cached version of its key,
// unless the decoder did, and caches it (deletes it for a DELETED
// event), as an informer's queue and cache do.
func (c *widgetCache) cache(ev watch.Event) *stablev1.Widget {
	obj := ev.Object.(*stablev1.Widget)
	hint := c.hint(obj)
	if old, ok := hint.(*stablev1.Widget); ok && c.keepUnchanged && ev.Type == watch.Added && old.UID == obj.UID && old.ResourceVersion == obj.ResourceVersion {
		c.kept++
		return old
	}
	if c.decoded.Compacted(obj, hint) {
		c.skipped++
	} else {
		c.compact(obj, hint)
	}
	key := obj.Namespace + "/" + obj.Name
	c.mu.Lock()
	defer c.mu.Unlock()
	if ev.Type == watch.Deleted {
		delete(c.objects, key)
	} else {
		c.objects[key] = obj
	}
	return obj
}

// widgetParts are the addresses of the parts of w a compaction may share
// or take from the cached version: strings, maps, slices and pointers.
// The strings in a map are left out: a walk never writes a map (it
// shares it whole, the same address in both, or leaves it as decoded),
// while a decoder that interns interns its keys and values from their
// second sighting whether the map is shared or not.
func widgetParts(w *stablev1.Widget) []uintptr {
	str := func(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }
	mp := func(m map[string]string) uintptr { return reflect.ValueOf(m).Pointer() }
	parts := []uintptr{str(w.APIVersion), str(w.Kind), str(w.Name), str(w.Namespace), str(string(w.UID)), str(w.ResourceVersion),
		mp(w.Labels), mp(w.Annotations), uintptr(unsafe.Pointer(unsafe.SliceData(w.OwnerReferences))),
		uintptr(unsafe.Pointer(unsafe.SliceData(w.Finalizers))), str(w.Spec.Color),
		uintptr(unsafe.Pointer(unsafe.SliceData(w.Spec.Tags))), str(w.Status.Phase)}
	for _, r := range w.OwnerReferences {
		parts = append(parts, str(r.Name), str(string(r.UID)), uintptr(unsafe.Pointer(r.Controller)))
	}
	for _, tag := range w.Spec.Tags {
		parts = append(parts, str(tag))
	}
	return parts
}

func TestJSONWatchDecodedObjectsShareWhatTheWalkShares(t *testing.T) {
	for _, c := range []struct {
		name        string
		n, versions int
	}{
		{"added only", 24, 0},
		{"updates of cached keys", 24, 2},
		{"one key updated repeatedly", 1, 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			stream := decodedWidgetStream(t, c.n, c.versions)
			walked := newWidgetCache(false)
			decoded := newWidgetCache(true)
			want := walked.watch(t, stream)
			got := decoded.watch(t, stream)
			if len(got) != len(want) {
				t.Fatalf("%d events decoded compact, %d decoded then walked", len(got), len(want))
			}
			if decoded.skipped != len(got) {
				t.Errorf("the informer compacted %d of %d objects again; want none", len(got)-decoded.skipped, len(got))
			}
			var wantParts, gotParts []uintptr
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("event %d: decoded compact %+v, decoded then walked %+v", i, got[i], want[i])
				}
				wantParts = append(wantParts, widgetParts(want[i])...)
				gotParts = append(gotParts, widgetParts(got[i])...)
			}
			assertSameSharing(t, wantParts, gotParts)
		})
	}
}

// A watch list's initial events that relist cached keys unchanged are
// kept as cached by the informer, which never takes their decoded
// objects: the decoder does not hand them over, so that the next event
// of each key is decoded against the cached version, which the informer
// compacts it against, and not walked again.
func TestJSONWatchListRelistOfUnchangedKeysLeavesTheCachedVersionsTheHints(t *testing.T) {
	const n = 24
	var sb strings.Builder
	for _, round := range []struct {
		typ string
		v   int
	}{{"ADDED", 0}, {"ADDED", 0}, {"MODIFIED", 1}} {
		for i := range n {
			sb.WriteString(widgetEvent(t, round.typ, decodedWidget(i, round.v)))
		}
	}
	walked, decoded := newWidgetCache(false), newWidgetCache(true)
	walked.keepUnchanged, decoded.keepUnchanged = true, true
	want, got := walked.watch(t, sb.String()), decoded.watch(t, sb.String())
	if decoded.kept != n || walked.kept != n {
		t.Errorf("kept %d and %d unchanged objects as cached; want %d", decoded.kept, walked.kept, n)
	}
	if decoded.skipped != 2*n {
		t.Errorf("the informer compacted %d of the %d added and modified objects again; want none", 2*n-decoded.skipped, 2*n)
	}
	var wantParts, gotParts []uintptr
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("event %d: decoded compact %+v, decoded then walked %+v", i, got[i], want[i])
		}
		wantParts = append(wantParts, widgetParts(want[i])...)
		gotParts = append(gotParts, widgetParts(got[i])...)
	}
	assertSameSharing(t, wantParts, gotParts)
}

// assertSameSharing fails unless got's parts are one address exactly
// where want's are: the same parts shared (across objects, from the table
// or from the cached version), the same ones their object's own.
func assertSameSharing(t *testing.T, want, got []uintptr) {
	t.Helper()
	first := map[uintptr]int{}
	firstGot := map[uintptr]int{}
	shared := 0
	for i := range want {
		w, okW := first[want[i]]
		g, okG := firstGot[got[i]]
		if !okW {
			first[want[i]], w = i, i
		} else if want[i] != 0 {
			shared++
		}
		if !okG {
			firstGot[got[i]], g = i, i
		}
		if w != g {
			t.Fatalf("part %d: decoded compact it is part %d's, decoded then walked part %d's", i, g, w)
		}
	}
	if shared == 0 {
		t.Fatal("no part shared: the stream tests nothing")
	}
}
