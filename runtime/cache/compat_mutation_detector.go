package cache

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/mutation"
)

// MutationDetector is able to monitor objects for mutation within a
// limited window of time.
//
// The informer does not use it (it has its own detector, see the package
// documentation's Debugging section); it is here for code written against
// client-go's tools/cache.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type MutationDetector interface {
	// AddObject adds the given object to the set being monitored for a
	// while from now.
	AddObject(obj any)

	// Run starts the monitoring and does not return until the monitoring
	// is stopped.
	Run(stopCh <-chan struct{})
}

// mutationRetention is how long NewCacheMutationDetector's detector keeps
// checking an object after AddObject: between one and two of it.
const mutationRetention = 2 * time.Minute

// NewCacheMutationDetector returns a MutationDetector named name. Unless
// KUBE_CACHE_MUTATION_DETECTOR=true, it does nothing (and Run returns at
// once). Otherwise it deep-copies every runtime.Object given to AddObject
// (DeletedFinalStateUnknown excepted) and Run compares the objects with
// their copies at once and every second, for about two minutes after
// each was added, and panics with "cache <name> modified" after logging
// the first mutated object, as client-go's does.
func NewCacheMutationDetector(name string) MutationDetector {
	if !mutationDetectorWanted(false, false, false) {
		return noMutationDetector{}
	}
	klog.Warningln("Mutation detector is enabled, this will result in memory leakage.")
	d := newMutationDetector(name)
	d.Fail = func(msg string) {
		klog.Error(msg)
		panic(fmt.Sprintf("cache %s modified", name))
	}
	return &objectMutationDetector{d: d, retain: mutationRetention}
}

// noMutationDetector is the disabled MutationDetector.
type noMutationDetector struct{}

func (noMutationDetector) AddObject(any)       {}
func (noMutationDetector) Run(<-chan struct{}) {}

// objectMutationDetector is a MutationDetector over the informers'
// detector (internal/mutation), each object recorded under its own
// sequence number.
// Objects are retired in generations of retain: those added during one
// are still checked during the next, then dropped.
type objectMutationDetector struct {
	d      *mutation.Detector
	retain time.Duration

	mu       sync.Mutex // guards the fields below
	next     uint64
	current  []string // keys added in this generation
	previous []string // keys of the generation before
}

// AddObject records a deep copy of obj when it is a runtime.Object and
// not a DeletedFinalStateUnknown.
func (o *objectMutationDetector) AddObject(obj any) {
	if _, ok := obj.(DeletedFinalStateUnknown); ok {
		return
	}
	if _, ok := obj.(runtime.Object); !ok {
		return
	}
	o.mu.Lock()
	key := strconv.FormatUint(o.next, 10)
	o.next++
	o.current = append(o.current, key)
	o.mu.Unlock()
	o.d.Record(key, obj)
}

// Run checks at once, then every period, until stopCh is closed.
func (o *objectMutationDetector) Run(stopCh <-chan struct{}) {
	rotated := time.Now()
	t := time.NewTicker(o.d.Period)
	defer t.Stop()
	for {
		if time.Since(rotated) > o.retain {
			o.rotate()
			rotated = time.Now()
		}
		o.d.Check()
		select {
		case <-stopCh:
			return
		case <-t.C:
		}
	}
}

// rotate drops the previous generation (its objects are checked one last
// time) and starts a new one.
func (o *objectMutationDetector) rotate() {
	o.mu.Lock()
	drop := o.previous
	o.previous, o.current = o.current, nil
	o.mu.Unlock()
	for _, key := range drop {
		o.d.Removed(key)
	}
}
