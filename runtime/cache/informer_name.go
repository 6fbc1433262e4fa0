package cache

import (
	"fmt"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"
)

// informerNames is the process-wide registry of reserved informer names.
var informerNames = struct {
	sync.Mutex // guards names
	names      map[string]*InformerName
}{names: map[string]*InformerName{}}

// InformerName is a process-wide unique name for a set of informers (one
// factory's, typically), under which their metrics are published. Create it
// with NewInformerName; Release it when the informers are gone. A nil
// *InformerName is valid and names nothing. Its methods are safe for
// concurrent use.
type InformerName struct {
	name     string
	mu       sync.Mutex // guards gvrs (reserved is atomic)
	reserved *atomic.Bool
	gvrs     map[schema.GroupVersionResource]*atomic.Bool
}

// NewInformerName reserves name. It fails when name is empty or already
// reserved (and not released).
func NewInformerName(name string) (*InformerName, error) {
	if name == "" {
		return nil, fmt.Errorf("cache: informer name cannot be empty")
	}
	informerNames.Lock()
	defer informerNames.Unlock()
	if existing, ok := informerNames.names[name]; ok && existing.reserved.Load() {
		return nil, fmt.Errorf("cache: informer name %q is already registered", name)
	}
	n := &InformerName{name: name, reserved: &atomic.Bool{}, gvrs: map[schema.GroupVersionResource]*atomic.Bool{}}
	n.reserved.Store(true)
	informerNames.names[name] = n
	return n, nil
}

// Name returns the name, or "" for a nil InformerName.
func (n *InformerName) Name() string {
	if n == nil {
		return ""
	}
	return n.name
}

// WithResource returns the identifier of the informer of gvr under this
// name. The first identifier for each gvr is Reserved (its metrics are
// published); a second one for the same gvr is not, and is logged.
func (n *InformerName) WithResource(gvr schema.GroupVersionResource) InformerNameAndResource {
	if n == nil {
		return InformerNameAndResource{gvr: gvr}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	id := InformerNameAndResource{name: n.name, gvr: gvr, reserved: &atomic.Bool{}}
	if !n.reserved.Load() {
		return id
	}
	if _, dup := n.gvrs[gvr]; dup {
		klog.TODO().Error(nil, "Duplicate informer registration - metrics will not be published", "informerName", n.name, "group", gvr.Group, "version", gvr.Version, "resource", gvr.Resource)
		return id
	}
	id.reserved.Store(true)
	n.gvrs[gvr] = id.reserved
	return id
}

// Release un-reserves the name and every identifier derived from it, so
// the name can be reserved again.
func (n *InformerName) Release() {
	if n == nil {
		return
	}
	n.mu.Lock()
	for _, r := range n.gvrs {
		r.Store(false)
	}
	n.gvrs = map[schema.GroupVersionResource]*atomic.Bool{}
	n.reserved.Store(false)
	n.mu.Unlock()

	informerNames.Lock()
	defer informerNames.Unlock()
	if informerNames.names[n.name] == n {
		delete(informerNames.names, n.name)
	}
}

// InformerNameAndResource identifies one informer for metrics: the
// InformerName it belongs to and the resource it serves. The zero value
// identifies nothing. It is a value, safe to share between goroutines.
type InformerNameAndResource struct {
	name     string
	gvr      schema.GroupVersionResource
	reserved *atomic.Bool
}

// Reserved reports whether metrics of this identifier are to be published:
// it was the first for its resource under a name not released since.
func (n InformerNameAndResource) Reserved() bool {
	return n.reserved != nil && n.reserved.Load()
}

// Name returns the InformerName's name.
func (n InformerNameAndResource) Name() string { return n.name }

// GroupVersionResource returns the resource.
func (n InformerNameAndResource) GroupVersionResource() schema.GroupVersionResource {
	return n.gvr
}

// ResetInformerNamesForTesting releases every reserved name. Only tests
// may call it.
func ResetInformerNamesForTesting() {
	informerNames.Lock()
	names := make([]*InformerName, 0, len(informerNames.names))
	for _, n := range informerNames.names {
		names = append(names, n)
	}
	informerNames.Unlock()
	for _, n := range names {
		n.Release()
	}
}
