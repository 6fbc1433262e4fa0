package cache

import (
	"context"
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// pace throttles a storm handler: while the storm lasts the handler takes
// one notification per `every` changes the writer makes (tick), none when
// every is 0 (stalled); before and after the storm it is not limited.
// The tokens are the writer's changes themselves, so the handler is
// slower than the server by construction, whatever the machine's speed.
type pace struct {
	every  int
	tokens chan struct{} // capacity 1: tokens do not pile up

	// mu guards free.
	mu   sync.Mutex
	free chan struct{} // closed: no limit
}

func newPace(every int) *pace {
	free := make(chan struct{})
	close(free)
	return &pace{every: every, tokens: make(chan struct{}, 1), free: free}
}

// hold starts limiting the handler.
func (p *pace) hold() {
	p.mu.Lock()
	p.free = make(chan struct{})
	p.mu.Unlock()
}

// release ends the limit.
func (p *pace) release() {
	p.mu.Lock()
	close(p.free)
	p.mu.Unlock()
}

// tick is called by the writer after its change number n.
func (p *pace) tick(n int) {
	if p.every == 0 || n%p.every != 0 {
		return
	}
	select {
	case p.tokens <- struct{}{}:
	default:
	}
}

// wait returns once the handler may take a notification, or ctx ended.
func (p *pace) wait(ctx context.Context) {
	p.mu.Lock()
	free := p.free
	p.mu.Unlock()
	select {
	case <-free:
	case <-p.tokens:
	case <-ctx.Done():
	}
}

// stormHandler builds its view of the objects, key -> UID@resourceVersion,
// from its notifications alone, and records the first notification that
// does not fit the view (an add of a held key, an update or delete of an
// absent one, an update whose old state is not the one it holds). It keeps
// no object: what it holds is not part of the bound on the informers'
// memory.
type stormHandler struct {
	ctx        context.Context
	pace       *pace // nil: takes notifications as they come
	latestOnly bool  // registered with LatestOnly: accepts a nil old state

	// mu guards the fields below.
	mu        sync.Mutex
	view      map[string]string
	calls     int
	violation string // the first one
}

func newStormHandler(ctx context.Context, p *pace, latestOnly bool) *stormHandler {
	return &stormHandler{ctx: ctx, pace: p, latestOnly: latestOnly, view: map[string]string{}}
}

// stormState is an object's identity and version, as the view holds it.
func stormState(obj any) (key, state string) {
	o := obj.(*metav1.PartialObjectMetadata)
	return o.Namespace + "/" + o.Name, string(o.UID) + "@" + o.ResourceVersion
}

func (h *stormHandler) take() {
	if h.pace != nil {
		h.pace.wait(h.ctx)
	}
}

func (h *stormHandler) violate(format string, args ...any) {
	if h.violation == "" {
		h.violation = fmt.Sprintf(format, args...)
	}
}

func (h *stormHandler) OnAdd(obj any, _ bool) {
	h.take()
	key, state := stormState(obj)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls++
	if cur, ok := h.view[key]; ok {
		h.violate("add of %s (%s) while holding %s", key, state, cur)
	}
	h.view[key] = state
}

func (h *stormHandler) OnUpdate(oldObj, newObj any) {
	h.take()
	key, state := stormState(newObj)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls++
	cur, ok := h.view[key]
	switch {
	case !ok:
		h.violate("update of absent %s to %s", key, state)
	case oldObj == nil && !h.latestOnly:
		h.violate("update of %s without its old state", key)
	case oldObj != nil:
		if _, old := stormState(oldObj); old != cur {
			h.violate("update of %s from %s while holding %s", key, old, cur)
		}
	}
	h.view[key] = state
}

func (h *stormHandler) OnDelete(obj any) {
	h.take()
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	key, _ := stormState(obj)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls++
	if _, ok := h.view[key]; !ok {
		h.violate("delete of absent %s", key)
	}
	delete(h.view, key)
}

// diff describes how the view differs from want, in at most three
// examples and a count; "" when they are equal.
func (h *stormHandler) diff(want map[string]string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var examples []string
	n := 0
	note := func(format string, args ...any) {
		if n++; n <= 3 {
			examples = append(examples, fmt.Sprintf(format, args...))
		}
	}
	for k, w := range want {
		if g, ok := h.view[k]; !ok {
			note("missing %s (%s)", k, w)
		} else if g != w {
			note("%s at %s, want %s", k, g, w)
		}
	}
	for k, g := range h.view {
		if _, ok := want[k]; !ok {
			note("unexpected %s (%s)", k, g)
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d keys differ, e.g. %v", n, examples)
}
