package mutation

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
)

// DefaultPeriod is how often a running detector compares.
const DefaultPeriod = time.Second

// Detector keeps a deep copy of every object the informer caches and
// reports, periodically and when the informer stops, any cached object
// that no longer equals its copy: some handler or reader mutated shared
// state. It is a debugging aid (it doubles memory and costs a deep copy
// per event). All methods are safe for concurrent use; Fail and Period
// are set before use.
type Detector struct {
	name string
	// Period is how often Run compares.
	Period time.Duration
	// Fail is called once per mutated object; the default panics, like
	// client-go's detector, so that tests fail loudly.
	Fail func(msg string)

	mu      sync.Mutex // guards current and retired
	current map[string]cachedCopy
	retired []cachedCopy // replaced or deleted since the last check
}

type cachedCopy struct {
	key    string
	cached any
	copy   runtime.Object
}

// New returns a detector named name (the informer's, in reports).
func New(name string) *Detector {
	return &Detector{
		name:    name,
		Period:  DefaultPeriod,
		Fail:    func(msg string) { panic(msg) },
		current: make(map[string]cachedCopy),
	}
}

// Record notes that obj is now cached under key.
func (d *Detector) Record(key string, obj any) {
	d.Stored(key, obj, d.Before(obj))
}

// Before returns a deep copy of obj, nil when obj is not a runtime.Object.
func (d *Detector) Before(obj any) runtime.Object {
	if ro, ok := obj.(runtime.Object); ok {
		return ro.DeepCopyObject()
	}
	return nil
}

// Stored is Record with the copy of obj taken (Before) before obj was
// stored, so that the copy does not race with readers of the cache.
func (d *Detector) Stored(key string, obj any, objCopy runtime.Object) {
	if objCopy == nil {
		return
	}
	c := cachedCopy{key: key, cached: obj, copy: objCopy}
	d.mu.Lock()
	defer d.mu.Unlock()
	if old, ok := d.current[key]; ok {
		d.retired = append(d.retired, old)
	}
	d.current[key] = c
}

// Removed notes that key left the cache; its object is still checked
// once.
func (d *Detector) Removed(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if old, ok := d.current[key]; ok {
		d.retired = append(d.retired, old)
		delete(d.current, key)
	}
}

// Tracked returns how many objects are checked as cached (current) and
// one last time (retired).
func (d *Detector) Tracked() (current, retired int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.current), len(d.retired)
}

// Check compares every tracked object with its copy and reports each
// mismatch. Retired objects are checked one last time and dropped.
func (d *Detector) Check() {
	d.mu.Lock()
	objs := make([]cachedCopy, 0, len(d.current)+len(d.retired))
	for _, c := range d.current {
		objs = append(objs, c)
	}
	objs = append(objs, d.retired...)
	d.retired = nil
	d.mu.Unlock()
	for _, c := range objs {
		if !reflect.DeepEqual(c.cached, c.copy) {
			d.Fail(d.report(c))
		}
	}
}

// Run checks every Period until ctx is done. The informer checks a last
// time after all its goroutines ended.
func (d *Detector) Run(ctx context.Context) {
	klog.FromContext(ctx).Info("Cache mutation detector enabled; expect higher memory use and slower informers", "informer", d.name)
	t := time.NewTicker(d.Period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			d.Check()
		}
	}
}

// report describes the mutation of c: the cache, the key, the first field
// that differs, the objects, and where the check ran (the informer's
// goroutines, or the caller of CheckHandler: the handler's stack).
func (d *Detector) report(c cachedCopy) string {
	path := firstDifference(reflect.ValueOf(c.cached), reflect.ValueOf(c.copy), "")
	return fmt.Sprintf("cache %s: cached object under key %q was mutated at field %s (cached objects are shared and must not be modified; "+
		"deep-copy before changing; parts of compacted objects are shared with other objects); cached %#v, original %#v\ndetected at:\n%s",
		d.name, c.key, path, c.cached, c.copy, debug.Stack())
}

// CheckHandler compares the object cached under key with its copy at
// once; listeners call it after each handler call while the detector is
// on, so a handler that mutates the object it was given is named, with
// the stack that registered it.
func (d *Detector) CheckHandler(key, handler string, registered []byte) {
	d.mu.Lock()
	c, ok := d.current[key]
	d.mu.Unlock()
	if ok && !reflect.DeepEqual(c.cached, c.copy) {
		d.rebase(c)
		d.Fail(fmt.Sprintf("%s\nby handler %q, registered at:\n%s", d.report(c), handler, registered))
	}
}

// rebase takes a new copy of c's object after its mutation was reported,
// so that one mutation is reported once.
func (d *Detector) rebase(c cachedCopy) {
	ro, ok := c.cached.(runtime.Object)
	if !ok {
		return
	}
	c.copy = ro.DeepCopyObject()
	d.mu.Lock()
	defer d.mu.Unlock()
	if cur, ok := d.current[c.key]; ok && cur.cached == c.cached {
		d.current[c.key] = c
	}
}
