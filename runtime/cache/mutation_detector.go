package cache

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/controller"
)

// mutationDetectorEnv turns the cache mutation detector on for every
// informer when set to "true".
const mutationDetectorEnv = "KUBE_CACHE_MUTATION_DETECTOR"

// mutationCheckPeriod is how often an enabled detector compares.
const mutationCheckPeriod = time.Second

// mutationDetectorWanted reports whether an informer runs the detector:
// when asked (explicit), when KUBE_CACHE_MUTATION_DETECTOR=true, and, with
// the test checks on (testChecks, read by the caller at construction),
// when the informer compacts its objects, so that a mutation that
// compaction would spread to other objects fails users' tests;
// KUBE_CACHE_MUTATION_DETECTOR=false turns that last one off (benchmarks).
func mutationDetectorWanted(explicit, compacting, testChecks bool) bool {
	env, err := strconv.ParseBool(os.Getenv(mutationDetectorEnv))
	switch {
	case explicit:
		return true
	case err == nil:
		return env
	}
	return compacting && testChecks
}

// mutationDetector keeps a deep copy of every object the informer caches
// and reports, periodically and when the informer stops, any cached object
// that no longer equals its copy: some handler or reader mutated shared
// state. It is a debugging aid (it doubles memory and costs a deep copy per
// event). All methods are safe for concurrent use.
type mutationDetector struct {
	name   string
	period time.Duration
	// fail is called once per mutated object; the default panics, like
	// client-go's detector, so that tests fail loudly.
	fail func(msg string)

	mu      sync.Mutex // guards current and retired
	current map[string]cachedCopy
	retired []cachedCopy // replaced or deleted since the last check
}

type cachedCopy struct {
	key    string
	cached any
	copy   runtime.Object
}

func newMutationDetector(name string) *mutationDetector {
	return &mutationDetector{
		name:    name,
		period:  mutationCheckPeriod,
		fail:    func(msg string) { panic(msg) },
		current: make(map[string]cachedCopy),
	}
}

// The detector is the informer's controller.Observer: Before, Stored and
// Removed.
var _ controller.Observer = (*mutationDetector)(nil)

// record notes that obj is now cached under key.
func (d *mutationDetector) record(key string, obj any) {
	d.Stored(key, obj, d.Before(obj))
}

// Before returns a deep copy of obj, nil when obj is not a runtime.Object.
func (d *mutationDetector) Before(obj any) runtime.Object {
	if ro, ok := obj.(runtime.Object); ok {
		return ro.DeepCopyObject()
	}
	return nil
}

// Stored is record with the copy of obj taken (Before) before obj was
// stored, so that the copy does not race with readers of the cache.
func (d *mutationDetector) Stored(key string, obj any, objCopy runtime.Object) {
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
func (d *mutationDetector) Removed(key string) { d.forget(key) }

// forget is Removed.
func (d *mutationDetector) forget(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if old, ok := d.current[key]; ok {
		d.retired = append(d.retired, old)
		delete(d.current, key)
	}
}

// check compares every tracked object with its copy and reports each
// mismatch. Retired objects are checked one last time and dropped.
func (d *mutationDetector) check() {
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
			d.fail(d.report(c))
		}
	}
}

// run checks every period until ctx is done. The informer checks a last
// time after all its goroutines ended.
func (d *mutationDetector) run(ctx context.Context) {
	klog.FromContext(ctx).Info("Cache mutation detector enabled; expect higher memory use and slower informers", "informer", d.name)
	t := time.NewTicker(d.period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			d.check()
		}
	}
}

// report describes the mutation of c: the cache, the key, the first field
// that differs, the objects, and where the check ran (the informer's
// goroutines, or the caller of checkAfterHandler: the handler's stack).
func (d *mutationDetector) report(c cachedCopy) string {
	path := firstDifference(reflect.ValueOf(c.cached), reflect.ValueOf(c.copy), "")
	return fmt.Sprintf("cache %s: cached object under key %q was mutated at field %s (cached objects are shared and must not be modified; "+
		"deep-copy before changing; parts of compacted objects are shared with other objects); cached %#v, original %#v\ndetected at:\n%s",
		d.name, c.key, path, c.cached, c.copy, debug.Stack())
}

// checkHandler compares the object cached under key with its copy at
// once; listeners call it after each handler call while the detector is
// on, so a handler that mutates the object it was given is named, with
// the stack that registered it.
func (d *mutationDetector) checkHandler(key, handler string, registered []byte) {
	d.mu.Lock()
	c, ok := d.current[key]
	d.mu.Unlock()
	if ok && !reflect.DeepEqual(c.cached, c.copy) {
		d.rebase(c)
		d.fail(fmt.Sprintf("%s\nby handler %q, registered at:\n%s", d.report(c), handler, registered))
	}
}

// rebase takes a new copy of c's object after its mutation was reported,
// so that one mutation is reported once.
func (d *mutationDetector) rebase(c cachedCopy) {
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
