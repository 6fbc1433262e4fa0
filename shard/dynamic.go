package shard

import (
	"context"
	"errors"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// ErrSuperseded is a Rollout's error when a later Set replaced its shard
// before every informer applied it.
var ErrSuperseded = errors.New("shard: a later Set replaced the shard before every informer applied it")

// Dynamic is a source whose shard changes with Set, for a coordinator (a
// Lease ring) that moves ranges between replicas. Every informer that
// subscribed relists under the new shard (objects that entered arrive as
// adds, objects that left as tombstones), and the Rollout that Set returns
// tells when all of them hold exactly the new shard: the moment a replica
// may release ranges it no longer holds.
//
// All methods are safe for concurrent use.
type Dynamic struct {
	mu sync.Mutex // guards the fields below
	// cur is the shard in force; changed is closed when Set replaces it.
	cur     *versioned
	changed chan struct{}
	rollout *Rollout
	// subs maps each open subscription to the generation it last
	// applied (0: none).
	subs map[*subscription]uint64
}

var _ cache.ShardSource = (*Dynamic)(nil)

// NewDynamic returns a source whose shard is initial until Set.
func NewDynamic(initial cache.Shard) *Dynamic {
	d := &Dynamic{subs: map[*subscription]uint64{}}
	d.cur = &versioned{Shard: initial, gen: 1}
	d.changed = make(chan struct{})
	d.rollout = newRollout(d.cur.Shard)
	d.checkLocked()
	return d
}

// Set makes s the shard of every informer of the source and returns its
// rollout. The previous rollout, if not done, ends with ErrSuperseded.
func (d *Dynamic) Set(s cache.Shard) *Rollout {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.rollout.finish(ErrSuperseded)
	d.cur = &versioned{Shard: s, gen: d.cur.gen + 1}
	close(d.changed)
	d.changed = make(chan struct{})
	d.rollout = newRollout(s)
	d.checkLocked()
	return d.rollout
}

// Shard returns the shard in force.
func (d *Dynamic) Shard() cache.Shard {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cur.Shard
}

// Rollout returns the rollout of the shard in force (NewDynamic's or the
// last Set's).
func (d *Dynamic) Rollout() *Rollout {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.rollout
}

// Subscribe implements cache.ShardSource.
func (d *Dynamic) Subscribe(informer string) cache.ShardSubscription {
	d.mu.Lock()
	defer d.mu.Unlock()
	sub := &subscription{d: d, informer: informer}
	d.subs[sub] = 0
	return sub
}

// checkLocked finishes the rollout once every open subscription applied
// the shard in force.
func (d *Dynamic) checkLocked() {
	for _, gen := range d.subs {
		if gen < d.cur.gen {
			return
		}
	}
	d.rollout.finish(nil)
}

// subscription is one informer's subscription to a Dynamic.
type subscription struct {
	d        *Dynamic
	informer string
}

func (s *subscription) Current() (cache.Shard, <-chan struct{}) {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	return s.d.cur, s.d.changed
}

func (s *subscription) Applied(shard cache.Shard) {
	v, ok := shard.(*versioned)
	if !ok {
		return
	}
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if gen, open := s.d.subs[s]; open && v.gen > gen {
		s.d.subs[s] = v.gen
		s.d.checkLocked()
	}
}

func (s *subscription) Close() {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	delete(s.d.subs, s)
	s.d.checkLocked()
}

// versioned is a shard as a Dynamic hands it out: with the generation of
// the Set that made it, which Applied hands back.
type versioned struct {
	cache.Shard
	gen uint64
}

// ServerApplied forwards to the shard when it can tell; true otherwise
// (nothing to log).
func (v *versioned) ServerApplied(list runtime.Object) bool {
	if a, ok := v.Shard.(cache.ShardServerApplied); ok {
		return a.ServerApplied(list)
	}
	return true
}

// ApplyTo and Contains are the shard's; spelt out for the reader.
func (v *versioned) ApplyTo(opts *metav1.ListOptions) { v.Shard.ApplyTo(opts) }

func (v *versioned) Contains(obj metav1.Object) bool { return v.Shard.Contains(obj) }

// Rollout is the progress of one shard of a Dynamic through its informers.
type Rollout struct {
	shard cache.Shard
	done  chan struct{}
	// err is set, under Dynamic.mu, before done is closed.
	err error
}

func newRollout(s cache.Shard) *Rollout { return &Rollout{shard: s, done: make(chan struct{})} }

// finish closes done with err, once. Called with Dynamic.mu held.
func (r *Rollout) finish(err error) {
	select {
	case <-r.done:
	default:
		r.err = err
		close(r.done)
	}
}

// Shard is the shard being rolled out.
func (r *Rollout) Shard() cache.Shard { return r.shard }

// Done is closed when every informer subscribed to the source holds
// exactly the shard (cache.ShardSubscription.Applied), or when a later Set
// replaced it first (Err says which). Informers that stop count as done;
// with none subscribed, Done is closed at once.
func (r *Rollout) Done() <-chan struct{} { return r.done }

// Err is nil once every informer applied the shard, ErrSuperseded when a
// later Set replaced it first; nil before Done.
func (r *Rollout) Err() error {
	select {
	case <-r.done:
		return r.err
	default:
		return nil
	}
}

// Wait waits for Done and returns Err, or ctx's error when ctx ends first.
func (r *Rollout) Wait(ctx context.Context) error {
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
