package reflector

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/protocol"
)

// watchStep is the watch phase: it consumes the watch a watch list left
// open, or opens one from the position, until the watch ends.
func (r *Engine) watchStep(ctx context.Context, s protocol.State) protocol.Outcome {
	w, replaying := s.W, false
	if r.shardReplaced() {
		if w != nil {
			w.Stop()
		}
		return protocol.Outcome{End: r.reshardEnding(ctx)}
	}
	scope := r.shardScope(ctx)
	if w == nil {
		rv := r.LastSyncResourceVersion()
		// A watch from "" or "0" first replays the current state.
		replaying = rv == "" || rv == "0"
		timeout := r.watchTimeoutSeconds()
		var err error
		w, err = r.lw.WatchWithContext(scope, r.withShard(metav1.ListOptions{
			ResourceVersion:     rv,
			TimeoutSeconds:      &timeout,
			AllowWatchBookmarks: true,
		}))
		if err != nil {
			if r.cutByShard(ctx, scope) {
				return protocol.Outcome{End: r.reshardEnding(ctx)}
			}
			err = fmt.Errorf("%s: watch: %w", r.cfg.Name, err)
			return protocol.Outcome{End: errorEnding(err), Err: err}
		}
		if r.cfg.Metrics != nil {
			r.cfg.Metrics.WatchStarted()
		}
	}
	// The watch's life starts when it is open: a REST client may retry
	// inside WatchWithContext for seconds, then hand back an empty,
	// closed watch that must count as very short.
	start := r.cfg.Clock.Now()
	got, err := r.consume(ctx, w, start, replaying)
	if r.cfg.Metrics != nil {
		r.cfg.Metrics.WatchEnded(got.events, err)
	}
	lived := r.cfg.Clock.Since(start)
	end := watchEnding(err, lived, got)
	if r.cutByShard(ctx, scope) && !errors.Is(err, errRelistRequested) {
		// The stream may have ended before consume saw the change.
		end = protocol.EndReshard
	}
	if end == protocol.EndReshard && !errors.Is(err, errRelistRequested) {
		end = r.reshardEnding(ctx)
	}
	return protocol.Outcome{End: end, Healthy: got.changes > 0 || lived >= healthyWatch, Err: err}
}

func (r *Engine) watchTimeoutSeconds() int64 {
	d := r.cfg.MinWatchTimeout + time.Duration(rand.Float64()*float64(r.cfg.MinWatchTimeout))
	return max(int64(d/time.Second), 1)
}

// storeEvent writes one watch event to store and returns the event's
// resourceVersion; ok is false when the event was dropped.
func (r *Engine) storeEvent(ctx context.Context, ev watch.Event, store eventWriter) (rv string, ok bool) {
	if r.cfg.ExpectedType != nil && reflect.TypeOf(ev.Object) != r.cfg.ExpectedType {
		klog.FromContext(ctx).Error(nil, "Dropping watch event with an object of unexpected type", "reflector", r.cfg.Name, "expectedType", r.cfg.ExpectedType, "actualType", reflect.TypeOf(ev.Object))
		return "", false
	}
	m, err := meta.Accessor(ev.Object)
	if err != nil {
		klog.FromContext(ctx).Error(err, "Dropping watch event without object metadata", "reflector", r.cfg.Name, "type", ev.Type)
		return "", false
	}
	if ev.Type != watch.Bookmark && !r.contains(ctx, m) {
		// Outside the shard: the server ignored the selector. The event
		// still moves the position.
		return m.GetResourceVersion(), true
	}
	switch ev.Type {
	case watch.Added:
		err = store.Add(ev.Object)
	case watch.Modified:
		err = store.Update(ev.Object)
	case watch.Deleted:
		err = store.Delete(ev.Object)
	case watch.Bookmark:
		err = store.Bookmark(m.GetResourceVersion())
	default:
		klog.FromContext(ctx).Error(nil, "Dropping watch event of unknown type", "reflector", r.cfg.Name, "type", ev.Type)
		return "", false
	}
	if err != nil {
		klog.FromContext(ctx).Error(err, "Store rejected a watch event", "reflector", r.cfg.Name, "type", ev.Type)
	}
	return m.GetResourceVersion(), true
}
