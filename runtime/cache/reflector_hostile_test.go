package cache

import (
	"context"
	"net"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// hostileBound is the most requests a reflector may make against a server
// that fails it forever, over hostileSpan: 13 failures before the
// back-off reaches its cap (about 100 s in), then at most one attempt per
// 30 s; an attempt is at most three requests (a watch list, the list it
// falls back to and the watch after it).
const (
	hostileSpan  = 10 * time.Minute
	hostileBound = 3 * (13 + int(hostileSpan/defaultBackoffMax))
)

// TestReflectorRequestRateAgainstHostileServers runs a reflector for ten
// minutes (in a synctest bubble: fake time) against servers that never let
// it watch for long, and checks the number of requests stays under
// hostileBound: no hot loop, whatever the server does.
func TestReflectorRequestRateAgainstHostileServers(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	tests := []struct {
		name      string
		watchList bool
		list      func(rv int64) (runtime.Object, error)
		watch     func(opts metav1.ListOptions, rv int64) (watch.Interface, error)
	}{
		{
			name:  "closes every watch at once",
			watch: func(metav1.ListOptions, int64) (watch.Interface, error) { return watch.NewEmptyWatch(), nil },
		},
		{
			name:  "refuses every connection",
			list:  func(int64) (runtime.Object, error) { return nil, refused },
			watch: func(metav1.ListOptions, int64) (watch.Interface, error) { return nil, refused },
		},
		{
			name: "answers every watch after a good list with 410",
			watch: func(metav1.ListOptions, int64) (watch.Interface, error) {
				return closedWatch(statusEvent(expiredErr)), nil
			},
		},
		{
			name:      "answers every watch list and watch with 410",
			watchList: true,
			watch:     func(metav1.ListOptions, int64) (watch.Interface, error) { return nil, expiredErr },
		},
		{
			name: "closes every watch after one bookmark with a new resourceVersion",
			watch: func(_ metav1.ListOptions, rv int64) (watch.Interface, error) {
				return closedWatch(ev(watch.Bookmark, testObject("", "", itoa(rv)))), nil
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var requests, rv atomic.Int64
				rv.Store(10)
				ctx, cancel := context.WithTimeout(t.Context(), hostileSpan)
				defer cancel()
				// In a hot loop fake time stands still: end it by count.
				request := func() {
					if requests.Add(1) > 10*int64(hostileBound) {
						cancel()
					}
				}
				lw := &ListWatch{
					ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
						request()
						if tt.list != nil {
							return tt.list(rv.Add(1))
						}
						return objectList(itoa(rv.Add(1)), ""), nil
					},
					WatchFuncWithContext: func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
						request()
						return tt.watch(opts, rv.Add(1))
					},
				}
				r := NewReflectorWithOptions(lw, &metav1.PartialObjectMetadata{}, NewStore(MetaNamespaceKeyFunc),
					ReflectorOptions{UseWatchList: tt.watchList, WatchErrorHandler: func(context.Context, *Reflector, error) {}})
				r.RunWithContext(ctx)
				n := requests.Load()
				t.Logf("%d requests in %v", n, hostileSpan)
				if n > int64(hostileBound) {
					t.Errorf("%d requests in %v, want at most %d", n, hostileSpan, hostileBound)
				}
			})
		})
	}
}

// closedWatch returns a watch that delivers events and then closes.
func closedWatch(events ...watch.Event) watch.Interface {
	w := watch.NewFakeWithChanSize(len(events), false)
	for _, e := range events {
		w.Action(e.Type, e.Object)
	}
	w.Stop()
	return w
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
