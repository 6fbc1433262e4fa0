package cache

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// addLabelled adds n objects whose labels are equal (each object has its
// own map, as decoded ones do).
func addLabelled(t *testing.T, srv *modelServer, n int) {
	t.Helper()
	for i := range n {
		o := testObjectWithLabels("ns", "o"+string(rune('a'+i)), "", map[string]string{"app": "web", "tier": "front"})
		o.Finalizers = []string{"example.com/f"}
		if _, err := srv.Add(o); err != nil {
			t.Fatal(err)
		}
	}
}

func mapHeader(m map[string]string) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&m)) }

func TestCompactingInformerSharesEqualPartsAndCachesEqualObjects(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, tt := range []struct {
		name       string
		compact    bool
		wantShared bool
	}{{"compaction on", true, true}, {"compaction off", false, false}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(mutationDetectorEnv, "false")
			srv := newModelServer()
			addLabelled(t, srv, 5)
			inf := startInformer(t, srv, SharedIndexInformerOptions{Compact: tt.compact}, nil)
			defer inf.stop(t)
			waitConverged(t, srv, inf)
			want, _ := srv.List(metav1.ListOptions{})
			objs := inf.GetStore().List()
			for _, o := range want.(*metav1.PartialObjectMetadataList).Items {
				got, ok, _ := inf.GetStore().GetByKey("ns/" + o.Name)
				if !ok || !reflect.DeepEqual(got, &o) {
					t.Errorf("cached %#v, want the server's %#v", got, &o)
				}
			}
			// A value is shared from its second sighting on: the first
			// object keeps its own, the two others share one.
			labels, finalizers := map[unsafe.Pointer]int{}, map[*string]int{}
			for _, o := range objs {
				m := o.(*metav1.PartialObjectMetadata)
				labels[mapHeader(m.Labels)]++
				finalizers[&m.Finalizers[0]]++
			}
			if shared := len(labels) < len(objs); shared != tt.wantShared {
				t.Errorf("equal labels of cached objects shared: %v (%d maps for %d objects), want %v", shared, len(labels), len(objs), tt.wantShared)
			}
			if shared := len(finalizers) < len(objs); shared != tt.wantShared {
				t.Errorf("equal finalizers of cached objects shared: %v, want %v", shared, tt.wantShared)
			}
		})
	}
}

// An object that replaces a cached version, from a watch event or a
// relist, shares the parts equal to the cached version's with it (the
// update walk): an unchanged label map or name is the cached one, a
// changed part is the new object's.
func TestCompactingInformerTakesUnchangedPartsFromTheCachedVersion(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, tt := range []struct {
		name   string
		update func(srv *modelServer, obj *metav1.PartialObjectMetadata) error
	}{
		{"watch event", func(srv *modelServer, obj *metav1.PartialObjectMetadata) error {
			_, err := srv.Update(obj)
			return err
		}},
		{"relist", func(srv *modelServer, obj *metav1.PartialObjectMetadata) (err error) {
			srv.partition(func(p *partitionOps) { _, err = p.tx.Update(obj) })
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(mutationDetectorEnv, "false")
			srv := newModelServer()
			// Labels no other test uses: compact.Default() is the
			// process's, and a value already canonical there would be
			// shared by the lookup with or without the update walk.
			labels := map[string]string{"test": t.Name(), "at": time.Now().Format(time.RFC3339Nano)}
			if _, err := srv.Add(testObjectWithLabels("ns", "oa", "", labels)); err != nil {
				t.Fatal(err)
			}
			inf := startInformer(t, srv, SharedIndexInformerOptions{Compact: true}, nil)
			defer inf.stop(t)
			waitConverged(t, srv, inf)
			before := cachedModelObject(t, inf, "ns/oa")
			changed := before.DeepCopy()
			changed.Annotations = map[string]string{"rollout": "2"}
			if err := tt.update(srv, changed); err != nil {
				t.Fatal(err)
			}
			waitConverged(t, srv, inf)
			after := cachedModelObject(t, inf, "ns/oa")
			switch {
			case after == before || after.ResourceVersion == before.ResourceVersion:
				t.Fatal("the update is not cached")
			case after.Annotations["rollout"] != "2":
				t.Errorf("cached annotations %v, want the update's", after.Annotations)
			case mapHeader(after.Labels) != mapHeader(before.Labels):
				t.Error("the unchanged labels are not the cached version's")
			case unsafe.StringData(after.Name) != unsafe.StringData(before.Name):
				t.Error("the unchanged name is not the cached version's")
			}
		})
	}
}

// cachedModelObject returns the object inf caches under key.
func cachedModelObject(t *testing.T, inf *informerRun, key string) *metav1.PartialObjectMetadata {
	t.Helper()
	o, ok, _ := inf.GetStore().GetByKey(key)
	if !ok {
		t.Fatalf("%s is not cached", key)
	}
	return o.(*metav1.PartialObjectMetadata)
}

func TestMutationDetectorIsOnInTestBinariesWhileCompacting(t *testing.T) {
	for _, tt := range []struct {
		env      string
		explicit bool
		compact  bool
		want     bool
	}{
		{"", false, true, true},
		{"", false, false, false},
		{"false", false, true, false},
		{"false", true, true, true},
		{"true", false, false, true},
	} {
		t.Setenv(mutationDetectorEnv, tt.env)
		inf := NewSharedIndexInformerWithOptions(newModelServer(), &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{Compact: tt.compact, DetectCacheMutations: tt.explicit}).(*sharedIndexInformer)
		if got := inf.detector != nil; got != tt.want {
			t.Errorf("env %q, DetectCacheMutations %v, Compact %v: detector on %v, want %v", tt.env, tt.explicit, tt.compact, got, tt.want)
		}
	}
}

func TestHandlerMutatingASharedPartIsReportedWithKeyFieldAndStack(t *testing.T) {
	defer goleak.VerifyNone(t)
	t.Setenv(mutationDetectorEnv, "")
	srv := newModelServer()
	addLabelled(t, srv, 4)
	var mu sync.Mutex
	var reports []string
	inf := startInformer(t, srv, SharedIndexInformerOptions{Compact: true}, func(s *sharedIndexInformer) {
		if s.detector == nil {
			t.Fatal("compacting informer in a test binary has no mutation detector")
		}
		s.detector.Fail = func(msg string) { mu.Lock(); reports = append(reports, msg); mu.Unlock() }
		s.detector.Period = time.Hour // only the handler check and the final one
		mustAdd(t, s, ResourceEventHandlerFuncs{AddFunc: func(obj any) {
			// The last object's add: all are recorded by now.
			if o := obj.(*metav1.PartialObjectMetadata); o.Name == "od" {
				o.Labels["tier"] = "back" // the map is shared with ns/oc (and ns/ob)
			}
		}}, HandlerOptions{Name: "mutator"})
	})
	waitConverged(t, srv, inf)
	// The cache converges before the handler is called; the detector
	// checks after the call returns.
	cachetest.Eventually(t, "a report of the mutation", func() bool { mu.Lock(); defer mu.Unlock(); return len(reports) > 0 })
	inf.stop(t)
	mu.Lock()
	defer mu.Unlock()
	first := reports[0]
	for _, want := range []string{`"ns/od"`, ".ObjectMeta.Labels[tier]", `handler "mutator"`, "TestHandlerMutatingASharedPartIsReportedWithKeyFieldAndStack"} {
		if !strings.Contains(first, want) {
			t.Errorf("report lacks %q:\n%s", want, first)
		}
	}
	all := strings.Join(reports, "\n")
	if !strings.Contains(all, `"ns/oc"`) && !strings.Contains(all, `"ns/ob"`) {
		t.Errorf("no object sharing the mutated labels (ns/oc, ns/ob) is reported:\n%s", all)
	}
}

func TestReaderMutatingACachedObjectIsReportedWithKeyAndField(t *testing.T) {
	defer goleak.VerifyNone(t)
	t.Setenv(mutationDetectorEnv, "")
	srv := newModelServer()
	addLabelled(t, srv, 1)
	var mu sync.Mutex
	var reports []string
	inf := startInformer(t, srv, SharedIndexInformerOptions{Compact: true}, func(s *sharedIndexInformer) {
		s.detector.Fail = func(msg string) { mu.Lock(); reports = append(reports, msg); mu.Unlock() }
		s.detector.Period = time.Hour // the final check finds it
	})
	waitConverged(t, srv, inf)
	o, _, _ := inf.GetStore().GetByKey("ns/oa")
	o.(*metav1.PartialObjectMetadata).Finalizers[0] = "mutated"
	inf.stop(t)
	mu.Lock()
	defer mu.Unlock()
	if len(reports) == 0 || !strings.Contains(reports[0], `"ns/oa"`) || !strings.Contains(reports[0], ".ObjectMeta.Finalizers[0]") {
		t.Fatalf("reports %q, want one naming ns/oa and .ObjectMeta.Finalizers[0]", reports)
	}
}

// An informer given a Compactor compacts with it, and only while Compact
// is on: every object entering the cache goes through it, a new version
// with the cached one as old.
func TestCompactingInformerUsesTheCompactorItIsGiven(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, on := range []bool{true, false} {
		t.Run(map[bool]string{true: "compaction on", false: "compaction off"}[on], func(t *testing.T) {
			t.Setenv(mutationDetectorEnv, "false")
			var mu sync.Mutex
			var calls []string
			compactor := func(obj, old any) {
				mu.Lock()
				defer mu.Unlock()
				call := obj.(*metav1.PartialObjectMetadata).Name
				if old != nil {
					call += "<" + old.(*metav1.PartialObjectMetadata).ResourceVersion
				}
				calls = append(calls, call)
			}
			srv := newModelServer()
			addLabelled(t, srv, 1)
			inf := startInformer(t, srv, SharedIndexInformerOptions{Compact: on, Compactor: compactor}, nil)
			defer inf.stop(t)
			waitConverged(t, srv, inf)
			cached, _, _ := inf.GetStore().GetByKey("ns/oa")
			o := cached.(*metav1.PartialObjectMetadata).DeepCopy()
			rv := o.ResourceVersion
			o.Labels = map[string]string{"app": "db"}
			if _, err := srv.Update(o); err != nil {
				t.Fatal(err)
			}
			waitConverged(t, srv, inf)
			mu.Lock()
			defer mu.Unlock()
			want := []string{"oa", "oa<" + rv}
			if !on {
				want = nil
			}
			if !slices.Equal(calls, want) {
				t.Errorf("compactor calls %v, want %v", calls, want)
			}
		})
	}
}
