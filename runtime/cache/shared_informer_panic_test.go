package cache

import (
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr/funcr"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

// captureLogs sends klog's output to the returned function's result for
// the rest of the test.
func captureLogs(t *testing.T) func() string {
	var mu sync.Mutex
	var b strings.Builder
	klog.SetLogger(funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		b.WriteString(prefix + " " + args + "\n")
	}, funcr.Options{}))
	t.Cleanup(klog.ClearLogger)
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		return b.String()
	}
}

// onAdd is a handler that only handles adds.
type onAdd func(obj any, isInInitialList bool)

func (f onAdd) OnAdd(obj any, isInInitialList bool) { f(obj, isInInitialList) }
func (f onAdd) OnUpdate(_, _ any)                   {}
func (f onAdd) OnDelete(any)                        {}

// setReallyCrash sets utilruntime.ReallyCrash for the rest of the test.
func setReallyCrash(t *testing.T, v bool) {
	old := utilruntime.ReallyCrash
	utilruntime.ReallyCrash = v
	t.Cleanup(func() { utilruntime.ReallyCrash = old })
}

// TestInformerHandlerPanicDropsOnlyThatNotification pins that, when the
// process recovers panics, a handler that panics loses only the
// notification it panicked on: it keeps receiving the others, its
// registration syncs, and the panic is logged with the handler's name and
// counted.
func TestInformerHandlerPanicDropsOnlyThatNotification(t *testing.T) {
	setReallyCrash(t, false)
	logs := captureLogs(t)
	srv := newModelServer()
	fill(srv, 3) // o0 o1 o2
	var mu sync.Mutex
	var got []string
	h := onAdd(func(obj any, _ bool) {
		name := obj.(interface{ GetName() string }).GetName()
		if name == "o1" || name == "late" {
			panic("handler bug on " + name)
		}
		mu.Lock()
		got = append(got, name)
		mu.Unlock()
	})
	metrics := newInformerMetricsRecorder()
	var reg ResourceEventHandlerRegistration
	inf := startInformer(t, srv, SharedIndexInformerOptions{Metrics: metrics}, func(s *sharedIndexInformer) {
		reg = mustAdd(t, s, h, HandlerOptions{Name: "picky"})
	})
	defer inf.stop(t)
	cachetest.Eventually(t, "the registration to sync", reg.HasSynced)
	srv.put("late", false)
	srv.put("after", false)
	cachetest.Eventually(t, "the add after the panics", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) > 0 && got[len(got)-1] == "after"
	})
	mu.Lock()
	if strings.Join(got, " ") != "o0 o2 after" && strings.Join(got, " ") != "o2 o0 after" {
		t.Errorf("handler got %v, want o0, o2, after", got)
	}
	mu.Unlock()
	if n := metrics.panicsOf("picky"); n != 2 {
		t.Errorf("counted %d panics of handler picky, want 2", n)
	}
	if out := logs(); !strings.Contains(out, `"handler"="picky"`) || !strings.Contains(out, "handler bug on o1") {
		t.Errorf("log does not name the handler and the panic:\n%s", out)
	}
}
