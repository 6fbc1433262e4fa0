package cache

import (
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// TestInformerRefusesHandlersOnceStoppedSayingSoOnce pins the error of a
// handler added to a stopped informer: it names the handler and says why,
// once.
func TestInformerRefusesHandlersOnceStoppedSayingSoOnce(t *testing.T) {
	srv := newModelServer()
	inf := startInformer(t, srv, SharedIndexInformerOptions{ObjectDescription: "things"}, nil)
	cachetest.Eventually(t, "the informer to sync", inf.HasSynced)
	inf.stop(t)
	_, err := inf.AddEventHandlerWithOptions(ResourceEventHandlerFuncs{}, HandlerOptions{Name: "x"})
	if err == nil {
		t.Fatal("a stopped informer accepted a handler")
	}
	if want := `cache things: handler "x" not added: the informer has stopped`; err.Error() != want {
		t.Fatalf("error %q, want %q", err, want)
	}
}
