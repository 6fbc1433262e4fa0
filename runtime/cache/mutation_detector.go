package cache

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
)

// mutationDetectorEnv turns the cache mutation detector on for every
// informer when set to "true".
const mutationDetectorEnv = "KUBE_CACHE_MUTATION_DETECTOR"

// mutationCheckPeriod is how often an enabled detector compares.
const mutationCheckPeriod = time.Second

// mutationDetectorFromEnv reports whether KUBE_CACHE_MUTATION_DETECTOR asks
// for the detector.
func mutationDetectorFromEnv() bool {
	on, _ := strconv.ParseBool(os.Getenv(mutationDetectorEnv))
	return on
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

// record notes that obj is now cached under key.
func (d *mutationDetector) record(key string, obj any) {
	ro, ok := obj.(runtime.Object)
	if !ok {
		return
	}
	c := cachedCopy{key: key, cached: obj, copy: ro.DeepCopyObject()}
	d.mu.Lock()
	defer d.mu.Unlock()
	if old, ok := d.current[key]; ok {
		d.retired = append(d.retired, old)
	}
	d.current[key] = c
}

// forget notes that key left the cache; its object is still checked once.
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
			d.fail(fmt.Sprintf("cache %s: cached object under key %q was mutated; cached %#v, original %#v", d.name, c.key, c.cached, c.copy))
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
