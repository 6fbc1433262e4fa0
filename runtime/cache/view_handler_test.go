package cache

import (
	"fmt"
	"sync"
	"testing"
)

// viewHandler rebuilds the cache content from the notifications it gets,
// checking that every notification is consistent with what it saw before:
// adds only for absent keys, updates and resyncs only for present keys with
// the old object it holds, deletes only for present keys. An optional gate
// blocks every call until it is closed.
type viewHandler struct {
	gateMu sync.Mutex
	gate   chan struct{} // nil: never blocks; set before use or by stall
	// nilOld accepts OnUpdate(nil, new) of a present key, as a listener in
	// latestOnly mode delivers coalesced updates.
	nilOld bool

	mu         sync.Mutex
	view       map[string]any
	violations []string
	adds       int
	updates    int
	deletes    int
	resyncs    int
	initial    int
	calls      int
	tombstones int
	nilOlds    int // updates with a nil old object
}

func newViewHandler() *viewHandler {
	return &viewHandler{view: map[string]any{}}
}

func (h *viewHandler) wait() {
	h.gateMu.Lock()
	gate := h.gate
	h.gateMu.Unlock()
	if gate != nil {
		<-gate
	}
}

// stall makes every later call block until the returned channel is closed.
func (h *viewHandler) stall() chan struct{} {
	gate := make(chan struct{})
	h.gateMu.Lock()
	h.gate = gate
	h.gateMu.Unlock()
	return gate
}

func (h *viewHandler) violate(format string, args ...any) {
	h.violations = append(h.violations, fmt.Sprintf(format, args...))
}

func (h *viewHandler) OnAdd(obj any, isInInitialList bool) {
	h.wait()
	key, _ := MetaNamespaceKeyFunc(obj)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls++
	h.adds++
	if isInInitialList {
		h.initial++
	}
	if old, ok := h.view[key]; ok {
		h.violate("add of %s while holding %v", key, old)
	}
	h.view[key] = obj
}

func (h *viewHandler) OnUpdate(oldObj, newObj any) {
	h.wait()
	key, _ := MetaNamespaceKeyFunc(newObj)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls++
	h.updates++
	if cur, ok := h.view[key]; !ok || cur != oldObj && (oldObj != nil || !h.nilOld) {
		h.violate("update of %s from %v while holding %v (present %v)", key, oldObj, cur, ok)
	}
	if oldObj == nil {
		h.nilOlds++
	}
	h.view[key] = newObj
}

func (h *viewHandler) OnResync(obj any) {
	h.wait()
	key, _ := MetaNamespaceKeyFunc(obj)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls++
	h.resyncs++
	if cur, ok := h.view[key]; !ok || cur != obj {
		h.violate("resync of %s with %v while holding %v (present %v)", key, obj, cur, ok)
	}
}

func (h *viewHandler) OnDelete(obj any) {
	h.wait()
	key, _ := DeletionHandlingMetaNamespaceKeyFunc(obj)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls++
	h.deletes++
	if _, ok := obj.(DeletedFinalStateUnknown); ok {
		h.tombstones++
	}
	if _, ok := h.view[key]; !ok {
		h.violate("delete of absent %s", key)
	}
	delete(h.view, key)
}

// snapshot returns a copy of the view.
func (h *viewHandler) snapshot() map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]any, len(h.view))
	for k, v := range h.view {
		out[k] = v
	}
	return out
}

// checkViolations fails t with every inconsistency seen.
func (h *viewHandler) checkViolations(t *testing.T) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, v := range h.violations {
		if i == 10 {
			t.Errorf("... and %d more", len(h.violations)-10)
			break
		}
		t.Error(v)
	}
}

// diffViews describes how got differs from want (by object identity), in
// at most ten messages plus a count.
func diffViews(got, want map[string]any) []string {
	var out []string
	n := 0
	note := func(format string, args ...any) {
		if n++; n <= 10 {
			out = append(out, fmt.Sprintf(format, args...))
		}
	}
	for k, w := range want {
		if g, ok := got[k]; !ok {
			note("missing %s", k)
		} else if g != w {
			note("%s: got %p %v, want %p %v", k, g, objName(g.(object)), w, objName(w.(object)))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			note("unexpected %s", k)
		}
	}
	if n > 10 {
		out = append(out, fmt.Sprintf("... %d differences in all", n))
	}
	return out
}
