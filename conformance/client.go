package conformance

import (
	"context"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// Client is one informer's connection to a Server. It serves List and
// Watch (it is a runtime/cache ListerWatcher as is; ClientGoListerWatcher
// adapts it to client-go) and records, in its Trace, exactly what the
// informer's reflector received, in the order it received it.
//
// All methods are safe for concurrent use.
type Client struct {
	server *Server
	name   string

	// Guarded by server.mu.
	failLeft     int
	failErr      error
	healthyEpoch int // epoch of the last watch opened that can resume
	lists        int
	watchCalls   int

	traceMu sync.Mutex
	trace   Trace
}

// Name is the name the client was created with.
func (c *Client) Name() string { return c.name }

// Trace returns a copy of what the client delivered so far.
func (c *Client) Trace() Trace {
	c.traceMu.Lock()
	defer c.traceMu.Unlock()
	return slices.Clone(c.trace)
}

// Calls returns how many List and Watch calls the client served (failed
// ones included).
func (c *Client) Calls() (lists, watches int) {
	c.server.mu.Lock()
	defer c.server.mu.Unlock()
	return c.lists, c.watchCalls
}

func (c *Client) record(e TraceEntry) {
	c.traceMu.Lock()
	c.trace = append(c.trace, e)
	c.traceMu.Unlock()
}

// List returns every present object at the current resourceVersion, in
// one page, whatever the options ask (the server pages only consistent
// reads with a Limit, and this client drops the Limit, so that every list
// a reflector makes is one trace entry): a list "not older than" any
// resourceVersion the server reached is the current state.
func (c *Client) List(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts.Limit, opts.Continue = 0, ""
	s := c.server
	s.mu.Lock()
	defer s.mu.Unlock()
	c.lists++
	if s.outage != nil {
		return nil, s.outage
	}
	obj, err := s.srv.ListWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	list := obj.(*corev1.ConfigMapList)
	objects := make(map[string]State, len(list.Items))
	for i := range list.Items {
		objects[keyOf(&list.Items[i])] = StateOf(&list.Items[i])
	}
	// Recorded under the lock that changes take: nothing the client
	// receives later can be recorded before it.
	c.record(TraceEntry{Kind: TraceList, ResourceVersion: list.ResourceVersion, Objects: objects})
	return list, nil
}

// Watch replays the changes after opts.ResourceVersion and then follows
// live ones. "" and "0" start with ADDED events of the present objects. A
// resourceVersion below the compaction horizon gets a watch that delivers
// a single 410 Gone error event, as a real server does. While the server
// made this client's Watch calls fail, Watch returns that error instead.
func (c *Client) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := c.server
	s.mu.Lock()
	defer s.mu.Unlock()
	c.watchCalls++
	if s.outage != nil {
		return nil, s.outage
	}
	if c.failLeft > 0 {
		c.failLeft--
		return nil, c.failErr
	}
	inner, err := s.srv.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	if rv := parseResourceVersion(opts.ResourceVersion); rv < 0 || rv >= s.horizon {
		c.healthyEpoch = s.epoch
	}
	w := &clientWatch{client: c, inner: inner, ctx: ctx, ch: make(chan watch.Event), stop: make(chan struct{})}
	s.running.Add(1)
	go w.run()
	return w, nil
}
