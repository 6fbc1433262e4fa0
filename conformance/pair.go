package conformance

import (
	"context"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	clientgocache "k8s.io/client-go/tools/cache"

	ourcache "github.com/informer-gen/informer-gen/runtime/cache"
)

// observedInformer is one running informer of a pair: its client, its
// recorder and its cache.
type observedInformer struct {
	synced   func() bool
	client   *Client
	recorder *Recorder
	list     func() []any
}

// observed is what the informer produced, once it stopped.
func (o observedInformer) observed() Observed {
	return observed(o.client, o.recorder, storeStates(o.list()))
}

// reached reports whether the informer's cache and handler view are want.
func (o observedInformer) reached(want map[string]State) bool {
	return o.recorder.ViewEquals(want) && statesEqual(storeStates(o.list()), want)
}

// informerPair is client-go's informer and ours running against one
// server until stop.
type informerPair struct {
	cg, ours observedInformer
	stop     func()
}

// pairOptions configure a pair of informers.
type pairOptions struct {
	// handlerDelay is how long each handler call takes.
	handlerDelay time.Duration
	// ourIndexers are runtime/cache's informer's indexers.
	ourIndexers ourcache.Indexers
	// beforeStop runs first when the pair stops (releasing what holds
	// the informers back).
	beforeStop func()
}

// startPair starts both informers on srv, with resync off, each with a
// recording handler.
func startPair(ctx context.Context, srv *Server, o pairOptions) *informerPair {
	cgClient, ourClient := srv.NewClient("client-go"), srv.NewClient("runtime/cache")
	cgInformer := clientgocache.NewSharedIndexInformerWithOptions(ClientGoListerWatcher{Client: cgClient},
		&corev1.ConfigMap{}, clientgocache.SharedIndexInformerOptions{})
	cgRecorder := &Recorder{Delay: o.handlerDelay, Unwrap: func(obj any) (string, any, bool) {
		t, ok := obj.(clientgocache.DeletedFinalStateUnknown)
		return t.Key, t.Obj, ok
	}}
	_, _ = cgInformer.AddEventHandler(cgRecorder)
	ourInformer := ourcache.NewSharedIndexInformerWithOptions(ClientGoListerWatcher{Client: ourClient},
		&corev1.ConfigMap{}, ourcache.SharedIndexInformerOptions{Indexers: o.ourIndexers})
	ourRecorder := &Recorder{Delay: o.handlerDelay, Unwrap: func(obj any) (string, any, bool) {
		t, ok := obj.(ourcache.DeletedFinalStateUnknown)
		return t.Key, t.Obj, ok
	}}
	_, _ = ourInformer.AddEventHandler(ourRecorder)

	runCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { cgInformer.RunWithContext(runCtx) })
	wg.Go(func() { ourInformer.RunWithContext(runCtx) })
	var once sync.Once
	return &informerPair{
		cg:   observedInformer{synced: cgInformer.HasSynced, client: cgClient, recorder: cgRecorder, list: cgInformer.GetStore().List},
		ours: observedInformer{synced: ourInformer.HasSynced, client: ourClient, recorder: ourRecorder, list: ourInformer.GetStore().List},
		stop: func() {
			once.Do(func() {
				if o.beforeStop != nil {
					o.beforeStop()
				}
				cgRecorder.Release()
				ourRecorder.Release()
				cancel()
				wg.Wait()
				srv.Wait()
			})
		},
	}
}
